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
    """Tasks read from the disk cache hash from the cache's stored bytes (through a sidecar of
    digests, 65 bytes a task: no second copy of any task), and a task made in this process
    from its dump: both give the same hash, on the current basis (each task's digest) and on
    the older ones runs stored (the canonical lines themselves)."""
    import hashlib

    from support import site_tasks
    from webmdp.runner.manifest import HASH_BASIS, _canonical, task_set_hash
    from webmdp.tasks.cache import _ORIGIN, _read, cached_path, task_lines

    site_tasks("chat")  # built (and stored) once per session
    entry = cached_path("chat-180")
    assert entry is not None
    tasks = list(_read(entry)[::7])  # read back from the stored bytes
    copies = [t.model_copy() for t in tasks]  # not read from the cache: dumped
    ordered = sorted(tasks, key=lambda t: t.id)
    lines = [_canonical(t.model_dump(mode="json"), basis=2) for t in ordered]
    digests = hashlib.sha256(b"".join(hashlib.sha256(x).hexdigest().encode() + b"\n"
                                      for x in lines))
    older = hashlib.sha256(b"".join(x + b"\n" for x in lines))
    assert HASH_BASIS == 3
    assert task_set_hash(tasks) == task_set_hash(copies) == digests.hexdigest()
    assert task_set_hash(tasks, basis=2) == task_set_hash(copies, basis=2) == older.hexdigest()
    assert task_set_hash(tasks, basis=1) == task_set_hash(copies, basis=1)
    assert _ORIGIN[id(tasks[0])][1] == entry
    side = entry.with_name(f"{entry.name}.digest3").read_bytes().splitlines()
    assert len(side) == len(entry.read_bytes().splitlines())
    assert all(len(d) == 64 for d in side)
    assert not entry.with_name(f"{entry.name}.hash2").exists()
    assert task_lines(tasks) == [t.model_dump_json().encode() for t in tasks]
