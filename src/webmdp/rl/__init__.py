"""Trainer integrations (issue 31): thin adapters over the environments, beside
:mod:`webmdp.gym`, with no second copy of the episode loop.

- :mod:`webmdp.rl.splits`: the task splits every integration shares (train/test, levels,
  cross-site, a task file); no optional dependency.
- :mod:`webmdp.rl.rewards`: the reward modes (terminal, dense shaping, rubric).
- :mod:`webmdp.rl.openenv`, :mod:`webmdp.rl.server`, :mod:`webmdp.rl.client`: the OpenEnv
  environment, its server and typed client (``pip install 'webmdp[openenv]'``).

The OpenEnv modules are not imported here, so ``import webmdp.rl`` never needs the extra.
"""

from webmdp.rl.rewards import REWARD_MODES, RewardMode
from webmdp.rl.splits import Catalog, split_of

__all__ = ["REWARD_MODES", "Catalog", "RewardMode", "split_of"]
