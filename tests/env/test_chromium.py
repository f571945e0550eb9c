"""Finding, launching, sharing and killing Chromium (webmdp.env.chromium), for real.

Detection runs in a fresh interpreter where it depends on the environment: Playwright's driver
reads ``PLAYWRIGHT_BROWSERS_PATH`` when it starts, and the result is cached per process.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from webmdp.env import chromium
from webmdp.env.chromium import SYSTEM_CANDIDATES, BrowserHost
from webmdp.errors import BrowserError
from webmdp.server.runner import ServerHandle

pytestmark = pytest.mark.browser

_DETECT = """
import json, shutil, sys
from webmdp.env import chromium
if "--no-system" in sys.argv:  # as on a machine without Debian's chromium
    chromium.SYSTEM_CANDIDATES = ()
    shutil.which = lambda *a, **k: None
out = {"playwright_exe": chromium._playwright_executable(),
       "has": chromium.playwright_has_browser()}
try:
    out["exe"] = chromium.executable_path()
    out["binary"] = chromium.browser_binary()
except Exception as exc:
    out["error"] = f"{type(exc).__name__}: {exc}"
print(json.dumps(out))
"""

_LAUNCH = """
import json
from webmdp.env.chromium import BrowserHost
from webmdp.server.runner import ServerHandle
from webmdp.tasks import generate_site_tasks
from webmdp.sites import get_site

task = generate_site_tasks(get_site("shopping"))[0]
with ServerHandle() as srv, BrowserHost() as host:
    created = srv.control("POST", "/control/sessions",
                          json={"site": task.site, "world": task.world})
    page = host.browser.new_page()
    page.goto(srv.url + created["url"])
    page.wait_for_function("() => window.__webmdp && window.__webmdp.pending === 0")
    print(json.dumps({"surface": page.evaluate("document.body.dataset.surface")}))
"""


def _python(script: str, env: dict[str, str], *args: str) -> dict[str, Any]:
    """Run ``script`` in a fresh interpreter; its last stdout line, parsed."""
    proc = subprocess.run([sys.executable, "-c", script, *args], env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _env(browsers: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "WEBMDP_CHROMIUM"}
    env["PLAYWRIGHT_BROWSERS_PATH"] = str(browsers)
    return env


def _system_chromium() -> str | None:
    return next((c for c in SYSTEM_CANDIDATES if Path(c).is_file()), None) or shutil.which(
        "chromium")


def _fake_binary(path: Path) -> None:
    path.parent.mkdir(parents=True)
    path.write_text("#!/bin/sh\nexit 1\n")
    path.chmod(0o755)


def test_another_playwright_versions_build_falls_back_to_system_chromium(tmp_path) -> None:  # type: ignore[no-untyped-def]
    system = _system_chromium()
    if system is None:
        pytest.skip("no system Chromium on this machine")
    other = tmp_path / "chromium-1000" / "chrome-linux" / "chrome"  # another version's folder
    _fake_binary(other)
    got = _python(_DETECT, _env(tmp_path))
    assert got["playwright_exe"].startswith(str(tmp_path))  # the variable is honoured
    assert Path(got["playwright_exe"]) != other
    assert got["has"] is False and got["exe"] == got["binary"] == system
    # and a host really starts that Chromium and loads one of our pages
    assert _python(_LAUNCH, _env(tmp_path)) == {"surface": "Home"}


def test_this_playwright_versions_build_is_used(tmp_path) -> None:  # type: ignore[no-untyped-def]
    where = Path(_python(_DETECT, _env(tmp_path))["playwright_exe"])
    _fake_binary(where)  # where this Playwright version keeps its Chromium
    got = _python(_DETECT, _env(tmp_path))
    assert got["has"] is True and got["exe"] is None  # None: Playwright's own build
    assert got["binary"] == str(where)


def test_no_chromium_anywhere_is_a_clear_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    got = _python(_DETECT, _env(tmp_path), "--no-system")
    assert got["has"] is False
    assert got["error"].startswith("BrowserError: no Chromium found")
    assert "WEBMDP_CHROMIUM" in got["error"] and "make setup" in got["error"]


def test_webmdp_chromium_overrides(monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    missing = tmp_path / "no-such-chrome"
    monkeypatch.setenv("WEBMDP_CHROMIUM", str(missing))
    assert chromium.executable_path() == str(missing)
    with pytest.raises(BrowserError, match="no-such-chrome"):
        BrowserHost()
    system = _system_chromium()
    if system is None:
        return
    # a real binary named by the variable is the one launched: a wrapper that leaves a mark
    marker = tmp_path / "launched"
    wrapper = tmp_path / "my-chromium"
    wrapper.write_text(f'#!/bin/sh\ntouch "{marker}"\nexec "{system}" "$@"\n')
    wrapper.chmod(0o755)
    monkeypatch.setenv("WEBMDP_CHROMIUM", str(wrapper))
    with BrowserHost() as host:
        page = host.browser.new_page()
        page.set_content("<h1>override</h1>")
        assert page.inner_text("h1") == "override"
    assert marker.is_file()


def test_two_threads_each_run_their_own_host(server: ServerHandle, shopping_tasks) -> None:  # type: ignore[no-untyped-def]
    task = shopping_tasks[0]
    both_open = threading.Barrier(2, timeout=120)
    results: dict[str, Any] = {}
    errors: list[BaseException] = []

    def run(name: str) -> None:
        try:
            with BrowserHost() as host:
                created = server.control("POST", "/control/sessions",
                                         json={"site": task.site, "world": task.world})
                page = host.browser.new_page()
                page.goto(server.url + created["url"])
                page.wait_for_function("() => window.__webmdp && window.__webmdp.pending === 0")
                both_open.wait()  # both Chromiums are up at once
                results[name] = {"surface": page.evaluate("document.body.dataset.surface"),
                                 "pid": host.pid, "driver": host._drv}
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(n,)) for n in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    a, b = results["a"], results["b"]
    assert a["surface"] == b["surface"] == "Home"
    assert a["pid"] != b["pid"] and a["driver"] is not b["driver"]
    # each thread's driver stopped with its last host; this thread's is untouched
    assert a["driver"].stopped and b["driver"].stopped
    assert not _alive(a["pid"]) and not _alive(b["pid"])


def _alive(pid: int) -> bool:
    """A live (not zombie) process with this pid."""
    return chromium._start_time(pid) is not None


def _group(pid: int) -> set[int]:
    """Live processes of the browser's process group, plus its descendants."""
    out = set(chromium._descendants(pid))
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.getpgid(int(entry.name)) == pid:
                    out.add(int(entry.name))
            except ProcessLookupError:
                continue
    return {p for p in out if _alive(p)} | ({pid} if _alive(pid) else set())


def _until_gone(pids: set[int]) -> set[int]:
    """Wait (up to a minute) for the processes to die; those still alive."""
    deadline = time.monotonic() + 60
    while (left := {p for p in pids if _alive(p)}) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def test_kill_ends_that_chromium_only_and_ensure_relaunches(host: BrowserHost) -> None:
    victim = BrowserHost()
    try:
        pid = victim.pid
        assert pid is not None and os.getpgid(pid) == pid  # Playwright starts it detached
        procs = _group(pid)
        assert len(procs) > 1  # the browser and its helpers (zygote, renderers, ...)
        bystanders = _group(host.pid) | {os.getpid()}  # type: ignore[arg-type]
        page = victim.browser.new_page()
        page.set_content("<p>before</p>")
        victim.kill()
        assert not victim.alive()
        assert _until_gone(procs) == set()
        assert all(_alive(p) for p in bystanders)
        with pytest.raises(PlaywrightError):  # the killed browser's pages are gone with it
            page.inner_text("p")
        victim.ensure()
        assert victim.alive() and victim.pid != pid
        page = victim.browser.new_page()
        page.set_content("<p>after</p>")
        assert page.inner_text("p") == "after"
        # the other host was never touched
        other = host.browser.new_page()
        other.set_content("<p>still here</p>")
        assert other.inner_text("p") == "still here"
        other.close()
    finally:
        victim.close()


def test_kill_from_another_thread_ends_a_hung_call() -> None:
    with BrowserHost() as victim:
        page = victim.browser.new_page()
        killer = threading.Timer(0.5, victim.kill)  # a watchdog's view: this call never returns
        killer.start()
        with pytest.raises(PlaywrightError):
            page.evaluate("() => new Promise(() => {})")
        killer.join()
        assert not victim.alive()
        victim.ensure()
        page = victim.browser.new_page()
        page.set_content("<p>back</p>")
        assert page.inner_text("p") == "back"


def test_kill_leaves_a_reused_pid_alone() -> None:
    with BrowserHost() as victim:
        sleeper = subprocess.Popen(["sleep", "60"], start_new_session=True)
        try:
            real = victim.pid
            victim.pid = sleeper.pid  # as if the browser had died and its pid been reused
            victim.kill()
            assert sleeper.poll() is None and not victim.alive()
            victim.pid = real
        finally:
            sleeper.kill()
            sleeper.wait()
