"""Where `make test` spends its CPU: per test, per directory, and the whole run's.

``python benchmarks/suite_cpu.py [OUT]`` runs the pytest command `make test` runs (four
xdist workers, the task cache built first, the verifiers suite beside them) with this file as
a pytest plugin, then prints CPU-seconds and wall seconds by test directory, the 25 costliest
tests, and the run's total CPU against its wall time. ``python benchmarks/suite_cpu.py OUT --
tests/e2e -k validate`` measures part of the suite (without the verifiers suite beside it).
``python benchmarks/suite_cpu.py --show OUT`` prints the summary of a run already recorded in
``OUT`` (one JSON line per test).

CPU is read from a cgroup (v1 ``cpuacct`` or v2 ``cpu.stat``), one per xdist worker, so it
counts every process a test starts: Chromium's renderers, servers, ``webmdp`` subprocesses,
Ray's daemons. ``/usr/bin/time`` and ``os.times()`` see only the children a process waited
for, and undercounted this suite by a third (1,368 CPU-s where the cgroup saw 2,116). Making
cgroups needs write access to the cgroup filesystem (root, or a delegated subtree); without
it the script says so and stops.

This is a profile, not a comparison: run it before and after a change, on the same quiet
machine, and compare the two summaries.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
V1 = Path("/sys/fs/cgroup/cpuacct")
V2 = Path("/sys/fs/cgroup/unified") if Path("/sys/fs/cgroup/unified").is_dir() else \
    Path("/sys/fs/cgroup")
GROUP = "webmdp-suite"


def _base() -> Path:
    """The cgroup directory this run's groups live under (v1 cpuacct where mounted)."""
    return V1 / GROUP if (V1 / "cpuacct.usage").is_file() else V2 / GROUP


def _usage(group: Path) -> float:
    """CPU-seconds the group's processes (and its child groups') have used."""
    if (group / "cpuacct.usage").is_file():
        return int((group / "cpuacct.usage").read_text()) / 1e9
    stat = dict(line.split() for line in (group / "cpu.stat").read_text().splitlines())
    return int(stat["usage_usec"]) / 1e6


def _join(group: Path, pid: int) -> None:
    group.mkdir(parents=True, exist_ok=True)
    (group / "cgroup.procs").write_text(str(pid))


# -- the pytest plugin (`-p suite_cpu`) ---------------------------------------------------------
_log: list[object] = []  # [open file, worker's group]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):  # type: ignore[no-untyped-def]
    if not _log:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        group = _base() / worker
        _join(group, os.getpid())  # this worker and every process it starts from now on
        out = Path(os.environ["SUITE_CPU_OUT"])
        out.mkdir(parents=True, exist_ok=True)
        _log.extend([(out / f"{worker}.jsonl").open("a"), group])
    f, group = _log
    cpu, wall = _usage(group), time.monotonic()  # type: ignore[arg-type]
    yield
    f.write(json.dumps({"id": item.nodeid, "wall": time.monotonic() - wall,  # type: ignore[attr-defined]
                        "cpu": _usage(group) - cpu}) + "\n")  # type: ignore[arg-type]
    f.flush()  # type: ignore[attr-defined]


# -- the run and its summary ----------------------------------------------------------------
def show(out: Path, total: tuple[float, float] | None = None) -> None:
    rows = [json.loads(line) for f in sorted(out.glob("*.jsonl")) for line in f.open()]
    by_dir: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0])
    for r in rows:
        parts = r["id"].split("::")[0].split("/")
        d = by_dir["/".join(parts[:2]) if len(parts) > 2 else parts[0]]
        d[0] += r["cpu"]
        d[1] += r["wall"]
        d[2] += 1
    print(f"{'directory':<22} {'CPU s':>8} {'wall s':>8} {'tests':>6}")
    for name, (cpu, wall, n) in sorted(by_dir.items(), key=lambda kv: -kv[1][0]):
        print(f"{name:<22} {cpu:8.1f} {wall:8.1f} {n:6d}")
    tests_cpu = sum(r["cpu"] for r in rows)
    print(f"{'all tests':<22} {tests_cpu:8.1f} {sum(r['wall'] for r in rows):8.1f} "
          f"{len(rows):6d}")
    print("\ncostliest tests (CPU s, wall s):")
    for r in sorted(rows, key=lambda r: -r["cpu"])[:25]:
        print(f"{r['cpu']:7.1f} {r['wall']:7.1f}  {r['id']}")
    if total is not None:
        cpu, wall = total
        print(f"\nthe run: {cpu:.0f} CPU-s in {wall:.0f} s wall ({cpu / wall:.2f} cores busy); "
              f"outside the tests (the task cache pre-build, worker start-up, the verifiers suite "
              f"when beside): "
              f"{cpu - tests_cpu:.0f} CPU-s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", nargs="?", default="suite-cpu", help="where per-test lines go")
    ap.add_argument("--show", action="store_true", help="summarise a recorded run only")
    ap.add_argument("pytest_args", nargs="*", help="after --: tests and pytest options (part "
                    "of the suite, without the verifiers suite beside it)")
    args = ap.parse_args()
    out = Path(args.out).resolve()
    if args.show:
        show(out)
        return
    top = _base()
    try:
        _join(top, os.getpid())
    except OSError as exc:
        sys.exit(f"suite_cpu: cannot make a cgroup under {top.parent} ({exc}): run as root "
                 "or in a delegated cgroup subtree")
    for old in top.glob("*/"):  # groups of an earlier run, empty once its processes are gone
        with contextlib.suppress(OSError):
            old.rmdir()
    if out.exists() and any(out.glob("*.jsonl")):
        sys.exit(f"suite_cpu: {out} holds a recorded run; name another directory")
    venv = ROOT / ".venv" / "bin"
    env = {**os.environ, "SUITE_CPU_OUT": str(out), "PYTHONDONTWRITEBYTECODE": "",
           "PYTHONPYCACHEPREFIX": os.environ.get("TMPDIR", "/tmp") + "/webmdp-test-pycache",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "benchmarks"),
                                                       os.environ.get("PYTHONPATH")])),
           "WEBMDP_TEST_PREBUILD": "1"}
    if not args.pytest_args:  # the whole suite, as `make test` runs it
        env["WEBMDP_TEST_BESIDE"] = "make --no-print-directory test-integrations"
    cpu, wall = _usage(top), time.monotonic()
    rc = subprocess.call([str(venv / "python"), "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "-p", "suite_cpu", "-n", "4", "--dist", "worksteal",
                          *args.pytest_args], cwd=ROOT, env=env)
    show(out, (_usage(top) - cpu, time.monotonic() - wall))
    sys.exit(rc)


if __name__ == "__main__":
    main()
