"""The run manifest: what was run (identity), with what (versions), and each invocation.

A run directory belongs to one identity: its agents, mode, trace-shaping settings and the hash
of its task set. Running the same command again resumes it; a command with another identity is
refused unless forced (:func:`check_compatible`).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import platform
import socket
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path
from typing import Any

from webmdp.errors import ConfigError
from webmdp.redact import redact_argv, scrub
from webmdp.tasks.cache import canonical_lines
from webmdp.tasks.codes import CODE_KEY_ENV, KDF, LEGACY_KDF, key_fingerprint
from webmdp.tasks.model import Task

MANIFEST = "manifest.json"
_PACKAGES = ("webmdp", "playwright", "pydantic", "fastapi", "uvicorn", "pyarrow", "openai",
             "anthropic", "ray")


DERIVED = ("version", "difficulty", "domain", "answer_type", "answer")
"""Task fields computed from the rest (format version, measured difficulty, the template's
domain and answer type): a task set's hash leaves them out, so measuring something new about
the same tasks keeps a run resumable."""
HASH_BASIS = 3
"""3: sha256 over each task's digest (the sha256 of its basis-2 canonical line), so the disk
cache keeps a 65-byte digest per task beside its entry instead of a second copy of every
task; 2 and 1: over the canonical lines themselves (runs stored on them resume, checked on
their own basis)."""
OPTIONAL = ("sites", "cross")
"""Task fields of format 3 that only cross-site tasks have: left out of the hash when empty,
so a single-site task set hashes as it did before them (its runs stay resumable)."""


def task_set_hash(tasks: list[Task], *, basis: int = HASH_BASIS) -> str:
    """sha256 over the tasks' canonical JSON, in id order: the same tasks give the same hash.
    ``basis`` 3 hashes each task's digest (:data:`HASH_BASIS`); 2 the canonical lines, which
    leave out :data:`DERIVED` fields; 1 is the hash runs made before that (task format 1:
    every field, ``version`` 1, no difficulty). For tasks read from the disk cache the
    digests come from the cache's stored bytes (a sidecar of digests computed once per set),
    not from dumping every world again."""
    ordered = sorted(tasks, key=lambda t: t.id)
    if basis >= 3:
        canon = functools.partial(_canonical, basis=2)
        lines = canonical_lines(ordered, "digest3",
                                lambda data: hashlib.sha256(canon(data)).hexdigest().encode())
    else:  # an old run's basis, computed from the lines and kept nowhere
        lines = canonical_lines(ordered, "", functools.partial(_canonical, basis=basis))
    h = hashlib.sha256()
    for line in lines:
        h.update(line)
        h.update(b"\n")
    return h.hexdigest()


def _canonical(data: dict[str, Any], *, basis: int) -> bytes:
    """A task's canonical JSON (``data``: its JSON object, changed in place)."""
    for key in DERIVED:
        data.pop(key, None)
    for key in OPTIONAL:
        if data.get(key) is None:
            data.pop(key, None)
    if basis == 1:
        data["version"] = 1
    return json.dumps(data, sort_keys=True).encode()


def git_revision() -> str | None:
    """The source checkout's commit (with ``+dirty`` for local changes), if it is one."""
    src = Path(__file__).resolve().parents[3]
    if not (src / ".git").exists():
        return None
    try:
        rev = subprocess.run(["git", "-C", str(src), "rev-parse", "HEAD"], capture_output=True,
                             text=True, timeout=5, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(src), "status", "--porcelain", "-uno"],
                               capture_output=True, text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return rev + ("+dirty" if dirty else "")


def package_versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for name in _PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return out


def chromium_version() -> str | None:
    """``chromium --version`` of the binary browser episodes will use."""
    from webmdp.env.chromium import browser_binary

    try:
        return subprocess.run([browser_binary(), "--version"], capture_output=True, text=True,
                              timeout=20).stdout.strip() or None
    except Exception:
        return None


def build(identity: dict[str, Any], settings: dict[str, Any], tasks: list[Task], *,
          browser: bool, split: dict[str, Any] | None = None) -> dict[str, Any]:
    task_set: dict[str, Any] = {"hash": task_set_hash(tasks), "basis": HASH_BASIS,
                                "count": len(tasks), "ids": [t.id for t in tasks]}
    if split is not None:  # the RL split the tasks were drawn from (`run --split`)
        task_set["split"] = split
    return {"format": 1, "identity": identity, "task_set": task_set,
            "settings": settings, "webmdp": metadata.version("webmdp"),
            "git": git_revision(), "packages": package_versions(),
            "chromium": chromium_version() if browser else None,
            "code_key": key_fingerprint(KDF), "code_key_kdf": KDF, "created": _now(),
            "invocations": []}


def check_run_code_key(root: Path) -> None:
    """The run in ``root``, if it has a manifest, made under this shell's install key."""
    manifest = read(root)
    if manifest is not None:
        check_code_key(manifest, root)


def check_code_key(manifest: dict[str, Any], root: Path | str) -> None:
    """Refuse to read or extend a run whose operation codes were made under another install
    key (``WEBMDP_CODE_KEY``) than this shell's: its codes would be misread."""
    made = manifest.get("code_key")
    here = key_fingerprint(manifest.get("code_key_kdf") or LEGACY_KDF)
    if made != here:
        def name(f: str | None) -> str:
            return f"key {f}" if f else "no key"

        raise ConfigError(f"{root}: the run's operation codes were made with {name(made)}, "
                          f"this shell's {CODE_KEY_ENV} gives {name(here)}; set the same key "
                          "(codes would otherwise be misread)")


def read(root: Path) -> dict[str, Any] | None:
    path = root / MANIFEST
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text())
    except ValueError as exc:
        raise ConfigError(f"{path} is not a webmdp manifest: {exc}") from exc


def write(root: Path, manifest: dict[str, Any]) -> None:
    tmp = root / f".{MANIFEST}.tmp"
    tmp.write_text(scrub(json.dumps(manifest, indent=1, sort_keys=False, allow_nan=False)))
    os.replace(tmp, root / MANIFEST)


def check_compatible(old: dict[str, Any], new: dict[str, Any], *, force: bool,
                     tasks: list[Task] | None = None) -> list[str]:
    """What differs between a stored run and the one asked for; raises unless ``force``.
    A run stored before hash basis 2 is compared on its own basis (needs ``tasks``)."""
    diffs = []
    ours = new["task_set"]["hash"]
    if tasks is not None and old["task_set"].get("basis", 1) != HASH_BASIS:
        ours = task_set_hash(tasks, basis=old["task_set"].get("basis", 1))
    if old["task_set"]["hash"] != ours:
        diffs.append(f"task set: {old['task_set']['count']} tasks "
                     f"({old['task_set']['hash'][:12]}) vs {new['task_set']['count']} "
                     f"({new['task_set']['hash'][:12]})")
    for key in sorted(set(old["identity"]) | set(new["identity"])):
        a, b = old["identity"].get(key), new["identity"].get(key)
        if a != b:
            diffs.append(f"{key}: {json.dumps(a)} vs {json.dumps(b)}")
    if diffs and not force:
        raise ConfigError("this run directory holds a different run; refusing to mix results "
                          "(" + "; ".join(diffs) + "). Use another --out, or --force to "
                          "continue it with the new configuration")
    return diffs


def start_invocation(manifest: dict[str, Any], settings: dict[str, Any],
                     argv: list[str] | None = None) -> dict[str, Any]:
    """Record an invocation as ``running``, owned by this process (host, pid and the
    process's start time, so that a reused pid is not mistaken for the owner)."""
    inv = {"started": _now(), "ended": None, "status": "running",
           "argv": redact_argv(sys.argv[1:] if argv is None else argv), **owner(),
           "settings": settings}
    manifest["invocations"].append(inv)
    return inv


OWNER_GONE = "interrupted (owner gone)"
"""How a read-only reader (report, view) shows an invocation whose process is dead."""


def owner() -> dict[str, Any]:
    """Who runs an invocation: this host, this pid and the pid's start time."""
    return {"host": socket.gethostname(), "pid": os.getpid(),
            "pid_started": _process_start(os.getpid())}


def owner_alive(inv: dict[str, Any]) -> bool | None:
    """Whether the process that owns ``inv`` still runs: ``None`` when it cannot be known
    (another host, or a manifest older than the start-time record whose pid exists)."""
    pid = inv.get("pid")
    if not isinstance(pid, int):
        return None
    if inv.get("host") not in (None, socket.gethostname()):
        return None
    started = _process_start(pid)
    if started is None:
        return False
    recorded = inv.get("pid_started")
    if recorded is None:
        return None
    return abs(started - float(recorded)) < 1.0


def invocation_state(inv: dict[str, Any]) -> str:
    """``inv``'s status as a reader should show it: a ``running`` invocation whose owner is
    gone reads :data:`OWNER_GONE`; one on another host says so."""
    status = str(inv.get("status", "unknown"))
    if status != "running":
        return status
    alive = owner_alive(inv)
    if alive is False:
        return OWNER_GONE
    if alive is None and inv.get("host") not in (None, socket.gethostname()):
        return f"running (on {inv['host']})"
    return status


def run_state(manifest: dict[str, Any]) -> str:
    """The run's state: its last invocation's (:func:`invocation_state`)."""
    invs = manifest.get("invocations") or []
    return invocation_state(invs[-1]) if invs else "not started"


def close_dead_invocations(manifest: dict[str, Any]) -> int:
    """Rewrite every ``running`` invocation whose owner is gone as ``interrupted``, with the
    time it was found so; how many were rewritten (a resume calls this, readers do not)."""
    n = 0
    for inv in manifest.get("invocations") or []:
        if inv.get("status") == "running" and owner_alive(inv) is False:
            inv.update(status="interrupted", ended=_now(), note="owner gone")
            n += 1
    return n


def check_not_running(manifest: dict[str, Any], root: Path) -> None:
    """Refuse to run a directory another live process of this host is running."""
    for inv in manifest.get("invocations") or []:
        if inv.get("status") == "running" and inv.get("pid") != os.getpid() \
                and owner_alive(inv) is True:
            raise ConfigError(f"{root} is being run by process {inv['pid']} (started "
                              f"{inv.get('started')}); wait for it to end or stop it first")


def _process_start(pid: int) -> float | None:
    import psutil

    try:
        return float(psutil.Process(pid).create_time())
    except (psutil.Error, OSError):
        return None


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")
