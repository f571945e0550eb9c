"""scripts/ensure_chromium.sh installs Debian's chromium when no browser is found, waiting for
apt's lock (DPkg::Lock::Timeout) and saying so when another apt process holds it. apt-get and
sudo are stand-ins on PATH that record their arguments; nothing is installed."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "ensure_chromium.sh"


def _fake_bin(tmp: Path, fake_chromium: Path) -> Path:
    bin_dir = tmp / "bin"
    bin_dir.mkdir()
    (bin_dir / "apt-get").write_text(
        "#!/usr/bin/env bash\n"
        f'echo "$@" >> {tmp}/apt.log\n'
        f'if [[ " $* " == *" install "* ]]; then printf "#!/bin/sh\\n" > {fake_chromium}; '
        f"chmod +x {fake_chromium}; fi\n")
    (bin_dir / "sudo").write_text('#!/usr/bin/env bash\nexec "$@"\n')
    for f in bin_dir.iterdir():
        f.chmod(0o755)
    return bin_dir


def _run(tmp: Path, locks: list[Path]) -> subprocess.CompletedProcess:
    chromium = tmp / "chromium"
    bin_dir = _fake_bin(tmp, chromium)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "PYTHON": "/bin/false",
           "WEBMDP_SYSTEM_CHROMIUMS": str(chromium),
           "WEBMDP_APT_LOCKS": " ".join(map(str, locks)), "WEBMDP_APT_LOCK_TIMEOUT": "42"}
    return subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, env=env,
                          timeout=60)


def test_apt_waits_for_its_lock_and_says_so(tmp_path: Path) -> None:
    lock = tmp_path / "lock-frontend"
    lock.write_text("")
    holder = subprocess.Popen(["bash", "-c", f"exec 3<{lock}; sleep 30"])
    try:
        res = _run(tmp_path, [lock])
    finally:
        holder.kill()
        holder.wait()
    assert res.returncode == 0, res.stderr
    assert f"another apt process holds {lock}; waiting for it (up to 42 s" in res.stderr
    calls = (tmp_path / "apt.log").read_text().splitlines()
    assert len(calls) == 2
    assert all(c.startswith("-o DPkg::Lock::Timeout=42 ") for c in calls)
    assert calls[1].endswith("install -y -qq chromium")


def test_no_lock_no_waiting_message(tmp_path: Path) -> None:
    free = tmp_path / "free-lock"
    free.write_text("")
    res = _run(tmp_path, [free])
    assert res.returncode == 0, res.stderr
    assert "installing Debian's chromium package" in res.stderr
    assert "waiting" not in res.stderr
