"""Training data from agent runs (WebSTAR, seed 002): step grades, agreement between graders,
thought augmentation, step-masked SFT export and a step reward model.

Exact first: every step of a stored trace gets an exact grade from the goal distance before and
after it (:mod:`webmdp.synth.exact`); model graders are measured against those grades
(:mod:`webmdp.synth.agreement`). Traces are never rewritten: grades and thoughts live in side
files under ``RUN/synth/`` (:mod:`webmdp.synth.sidefile`).
"""

__all__: list[str] = []
"""Used through ``webmdp synth`` and its modules (``webmdp.synth.export``...), not this package."""
