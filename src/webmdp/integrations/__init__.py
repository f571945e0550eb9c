"""webmdp inside other frameworks' own runners (issue 44): an Inspect AI task
(:mod:`webmdp.integrations.inspect_task`, ``pip install 'webmdp[inspect]'``) and what it shares
with the verifiers taskset (``integrations/verifiers``, a package of its own): the episode's
exact verdict, process metrics and trace (:mod:`webmdp.integrations.episode_record`).
``import webmdp`` loads neither framework."""

__all__: list[str] = []  # the modules are imported by name: each loads its framework
