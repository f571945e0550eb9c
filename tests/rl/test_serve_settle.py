"""A warm server moves its task pools out of the garbage collector's way once they are read
(``server.settle``): a full collection walking them paused steps for 0.2-1 s."""

from __future__ import annotations

import os
import subprocess
import sys

CODE = """
import gc
from webmdp.rl.app import create_app
before = gc.get_freeze_count()
create_app()
print(before, gc.get_freeze_count())
"""


def test_a_warm_server_freezes_its_pools_and_a_cold_one_does_not() -> None:
    counts = {}
    for warm in ("1", "0"):
        env = {**os.environ, "WEBMDP_RL_SITE": "shopping", "WEBMDP_RL_WARM": warm,
               "WEBMDP_RL_QUIET": "1"}
        out = subprocess.run([sys.executable, "-c", CODE], env=env, capture_output=True,
                             text=True, timeout=300)
        assert out.returncode == 0, out.stderr[-2000:]
        counts[warm] = [int(x) for x in out.stdout.split()]
    assert counts["1"][0] == 0 and counts["1"][1] > 100_000  # the pools and all they hold
    assert counts["0"] == [0, 0]
