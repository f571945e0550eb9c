"""webmdp as a verifiers taskset (verifiers 0.4, its ``v1`` API): ``vf-eval webmdp-verifiers``.

One rollout is one webmdp episode. The site's semantic actions are the model's tools, served
per rollout by :class:`~webmdp_verifiers.toolset.WebMDPToolset`; the tasks are those of
``webmdp rl dataset`` (the same selection, splits and order); the reward is webmdp's exact
verdict (``terminal``; ``rubric`` for cross-site tasks) and the metrics are ``success`` and
the episode's process metrics. The package's default harness,
:class:`~webmdp_verifiers.harness.WebMDPHarness`, is verifiers' plain tool-calling chat loop
(its ``null`` harness), not the ``bash`` coding agent, and the package's environment,
:class:`~webmdp_verifiers.env.WebMDPEnv`, runs it as a local subprocess.
"""

from webmdp_verifiers.env import WebMDPEnv
from webmdp_verifiers.harness import WebMDPHarness
from webmdp_verifiers.taskset import WebMDPTaskset

__all__ = ["WebMDPEnv", "WebMDPHarness", "WebMDPTaskset"]
