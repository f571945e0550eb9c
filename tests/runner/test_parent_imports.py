"""A semantic `webmdp run` keeps its parent light: no browser (Playwright), no server, no
FastAPI and no pandas are imported by the process the user started; the worker's own time on
episodes is recorded beside the run's wall time (the runner's serial part is the rest)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

DRIVER = """
import sys
from webmdp.cli.main import app
try:
    app(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
heavy = sorted(m for m in sys.modules if m.split(".")[0] in
               ("playwright", "fastapi", "starlette", "uvicorn", "pandas")
               or m.startswith(("webmdp.server", "webmdp.env.browser")))
print("HEAVY", heavy)
sys.exit(code)
"""


def test_a_semantic_run_imports_no_browser_server_or_pandas(tmp_path: Path) -> None:
    out = tmp_path / "run"
    res = subprocess.run([sys.executable, "-c", DRIVER, "run", "--site", "mail", "--agent",
                          "random", "--limit", "6", "--workers", "1", "--out", str(out)],
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert "HEAVY []" in res.stdout, res.stdout
    manifest = json.loads((out / "manifest.json").read_text())
    inv = manifest["invocations"][-1]
    assert inv["status"] == "completed" and inv["run"] == 6
    assert inv["episode_s"] > 0  # the worker's own seconds on its episodes
    assert (out / "episodes.parquet").is_file()


def test_the_task_set_hash_from_stored_bytes_is_the_dumped_one() -> None:
    """Tasks read from the disk cache hash from the cache's stored bytes (a sidecar), and a
    task made in this process from its dump: both give the hash runs have always stored."""
    import hashlib

    from support import site_tasks
    from webmdp.runner.manifest import _canonical, task_set_hash
    from webmdp.tasks.cache import task_lines

    tasks = list(site_tasks("chat")[::7])
    copies = [t.model_copy() for t in tasks]  # not read from the cache: dumped
    expected = hashlib.sha256()
    for t in sorted(tasks, key=lambda t: t.id):
        expected.update(_canonical(t.model_dump(mode="json"), basis=2) + b"\n")
    assert task_set_hash(tasks) == task_set_hash(copies) == expected.hexdigest()
    assert task_set_hash(tasks, basis=1) == task_set_hash(copies, basis=1)
    assert task_lines(tasks) == [t.model_dump_json().encode() for t in tasks]
