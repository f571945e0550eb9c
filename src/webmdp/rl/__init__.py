"""Trainer integrations (issues 31, 34): thin adapters over the environments, beside
:mod:`webmdp.gym`, with no second copy of the episode loop.

- :mod:`webmdp.rl.splits`: the task splits every integration (and ``webmdp run --split``)
  shares: train / test under a holdout (task, template, site), narrowed by a level; the
  cross-site suite and a task file as sources; no optional dependency.
- :mod:`webmdp.rl.rewards`: the reward modes (terminal, dense and dense-state shaping,
  rubric); the exact verdict rides beside each as ``success``.
- :mod:`webmdp.rl.actions`: every action described as JSON Schema (``/webmdp/actions``).
- :mod:`webmdp.rl.openenv`, :mod:`webmdp.rl.server`, :mod:`webmdp.rl.client`: the OpenEnv
  environment, its server and typed client (``pip install 'webmdp[openenv]'``).

The OpenEnv modules are not imported here, so ``import webmdp.rl`` never needs the extra.
"""

from webmdp.rl.rewards import REWARD_MODES, RewardMode
from webmdp.rl.splits import Catalog, split_of

__all__ = ["REWARD_MODES", "Catalog", "RewardMode", "split_of"]
