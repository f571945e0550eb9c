"""The taskset's default harness: verifiers' plain chat loop, which calls the rollout's MCP
tools (the site's actions) until the model answers without a tool call."""

from verifiers.v1.harnesses.null import NullHarness


class WebMDPHarness(NullHarness):
    """verifiers' ``null`` harness under this package's id, so that ``vf-eval
    webmdp-verifiers`` plays the site's tools rather than defaulting to the ``bash`` agent;
    ``--env.agent.harness.id`` picks another."""
