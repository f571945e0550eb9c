"""Locate and launch Chromium: Playwright's own build if installed, else Debian's package.

The Playwright sync API allows one driver per thread, so each thread that owns a
:class:`BrowserHost` gets its own driver (started on first use): several threads of one process
can each run their own Chromium. The main thread's driver lives until the process exits; another
thread's stops when the last of its hosts closes.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import os
import shutil
import signal
import threading
from pathlib import Path
from typing import Any

from webmdp.errors import BrowserError

SYSTEM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
VIEWPORT = {"width": 1440, "height": 900}


def _playwright_executable() -> str | None:
    """Where the installed Playwright version keeps its Chromium (honouring
    ``PLAYWRIGHT_BROWSERS_PATH``), whether or not it is there; ``None`` if the driver fails."""
    drv: _Driver | None = getattr(_local, "driver", None)
    if drv is not None and not drv.stopped:
        return str(drv.pw.chromium.executable_path)
    found: list[str] = []

    def probe() -> None:  # a fresh thread: the caller's may run an asyncio loop
        from playwright.sync_api import sync_playwright

        with contextlib.suppress(Exception), sync_playwright() as pw:
            found.append(pw.chromium.executable_path)

    t = threading.Thread(target=probe, name="webmdp-chromium-probe")
    t.start()
    t.join()
    return found[0] if found else None


def playwright_has_browser() -> bool:
    """True when this Playwright version's own Chromium is installed (a cache holding another
    version's build does not count: this version could not launch it)."""
    exe = _playwright_executable()
    return exe is not None and Path(exe).is_file()


@functools.cache
def _detect() -> str | None:
    """``None`` for Playwright's Chromium, else a system binary; once per process."""
    if playwright_has_browser():
        return None
    for cand in SYSTEM_CANDIDATES:
        if Path(cand).is_file():
            return cand
    found = shutil.which("chromium")
    if found:
        return found
    raise BrowserError("no Chromium found: run `make setup` (installs Debian's chromium) or set "
                       "WEBMDP_CHROMIUM to a Chromium binary")


def executable_path() -> str | None:
    """``None`` means Playwright's bundled Chromium; otherwise a system binary's path.
    ``WEBMDP_CHROMIUM`` overrides both."""
    override = os.environ.get("WEBMDP_CHROMIUM")
    if override:
        return override
    return _detect()


def browser_binary() -> str:
    """The Chromium binary hosts launch, as a path (for ``--version`` in a run's manifest):
    :func:`executable_path`, or where Playwright keeps its own build. Safe in a thread that
    already runs a driver, where a second ``sync_playwright()`` would fail."""
    exe = executable_path()
    return exe if exe is not None else str(_playwright_executable())


class _Driver:
    """One thread's Playwright driver and the number of open hosts using it."""

    def __init__(self) -> None:
        from playwright.sync_api import sync_playwright

        with _STARTING:  # one driver starts at a time in a process: the new child is this one
            before = _driver_children()
            self.pw: Any = sync_playwright().start()
            new = sorted(_driver_children() - before)
        self.proc: tuple[int, int] | None = None
        """The driver's pid and start time, to kill it (and what it launched) from another
        thread, also while a launch is in progress."""
        if len(new) == 1 and (started := _start_time(new[0])) is not None:
            self.proc = (new[0], started)
        self.hosts = 0
        self.stopped = False
        self.main = threading.current_thread() is threading.main_thread()

    def stop(self) -> None:
        if not self.stopped:
            self.stopped = True
            self.pw.stop()


_local = threading.local()
_STARTING = threading.Lock()


def _driver_children() -> set[int]:
    """This process's children that run a Playwright driver (``node ... run-driver``)."""
    me, found = os.getpid(), set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if _parent(int(entry.name)) != me:
                continue
            cmd = (entry / "cmdline").read_bytes().split(b"\0")
        except (OSError, ValueError):
            continue
        if b"run-driver" in cmd:
            found.add(int(entry.name))
    return found


def _driver() -> _Driver:
    """This thread's Playwright driver, started on first use. The main thread's is stopped at
    exit (atexit runs in the main thread); another thread's by :meth:`_Driver.stop` when its
    last host closes."""
    drv: _Driver | None = getattr(_local, "driver", None)
    if drv is None or drv.stopped:
        drv = _local.driver = _Driver()
        if drv.main:
            atexit.register(drv.stop)
    return drv


def _start_time(pid: int) -> int | None:
    """A process's start time (clock ticks since boot, /proc/PID/stat field 22): with the pid
    it names one process, even after the pid is reused. ``None`` if it is gone or a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2:].split()  # after "pid (comm) "; comm may hold spaces
    return None if fields[0] in ("Z", "X") else int(fields[19])


def _parent(pid: int) -> int | None:
    """A process's parent pid (/proc/PID/stat field 4); ``None`` if it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat[stat.rindex(")") + 2:].split()[1])


def brief(exc: BaseException, limit: int = 600) -> str:
    """A Playwright error without the browser's own log that it appends after a crash (pages
    of D-Bus noise): what an infrastructure failure's cause should say."""
    text = str(exc).split("\nBrowser logs:")[0].rstrip()
    return text if len(text) <= limit else text[:limit] + " ..."


def _descendants(pid: int) -> list[int]:
    """Every live process below ``pid`` in the process tree (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    out: list[int] = []
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def _kill_if(pid: int, started: int) -> None:
    """SIGKILL ``pid`` if it is still the process that started at ``started``."""
    if _start_time(pid) == started:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


class BrowserHost:
    """One Chromium process, shared by many episodes (one browser context each).

    Use a host from the thread that made it (Playwright's sync API is per thread); only
    :meth:`kill` may be called from another thread (a watchdog's).
    """

    def __init__(self, *, headless: bool = True, launch: bool = True):
        """``launch=False`` makes a host that has no browser yet: :meth:`launch` (or
        :meth:`ensure`) starts it, e.g. once a watchdog can see the host (a launch can hang
        too, and :meth:`kill` ends one in progress)."""
        self.headless = headless
        self.browser: Any = None
        self.pid: int | None = None
        self._started: int | None = None  # the browser process's start time, with pid
        self._driver_proc: tuple[int, int] | None = None  # the driver's pid and start time
        self._killed = False
        self._driver_killed = False
        self._drv: _Driver | None = None
        if launch:
            self.launch()

    def launch(self) -> None:
        """Start Chromium (the thread's driver first, if it has none); on failure the host
        lets go of the driver, and :meth:`ensure` or :meth:`launch` may try again."""
        try:
            self._launch()
        except BaseException:
            self.close()  # let go of the thread's driver
            raise

    def _launch(self) -> None:
        if self._drv is None:  # first launch, or relaunch after close(): hold this thread's
            self._drv = _driver()
            self._drv.hosts += 1
        self._driver_proc = self._drv.proc
        self._killed = False  # a kill() from now on fails this launch
        try:
            self.browser = self._drv.pw.chromium.launch(
                headless=self.headless, executable_path=executable_path(),
                args=["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                      "--font-render-hinting=none"])
            pid = self.browser_pid()
        except BrowserError:
            raise
        except Exception as exc:
            raise BrowserError(f"Chromium failed to start: {brief(exc)}") from exc
        if self._killed:
            raise BrowserError("Chromium was killed while it started")
        self._started = _start_time(pid) if pid is not None else None
        self.pid = pid
        if self._driver_proc is None and pid is not None:  # Playwright's driver started it
            driver = _parent(pid)
            started = _start_time(driver) if driver is not None else None
            self._driver_proc = (driver, started) if driver and started is not None else None

    def browser_pid(self) -> int | None:
        """The Chromium browser process id (for fault-injection tests and diagnostics)."""
        if not self.alive():
            return None
        cdp = self.browser.new_browser_cdp_session()
        try:
            info = cdp.send("SystemInfo.getProcessInfo")
        finally:
            cdp.detach()
        return next((p["id"] for p in info["processInfo"] if p["type"] == "browser"), None)

    def alive(self) -> bool:
        return (not self._killed and self.browser is not None
                and self.browser.is_connected())

    def kill(self, *, driver: bool = False) -> None:
        """SIGKILL this host's Chromium (browser, renderers, helpers) and nothing else; safe
        from any thread (it touches no Playwright object). :meth:`ensure` relaunches.

        Playwright starts Chromium detached, so the browser leads its own process group and
        the group is killed; otherwise the browser and its descendants found in /proc are.
        The recorded start time guards against a pid reused by another process.

        With ``driver``, this thread's Playwright driver is killed too: every call waiting on
        it fails at once. A dead Chromium alone does not always do that (Playwright 1.65 can
        wait for ever in ``new_page`` when the browser dies while the page is made). The
        driver is shared by the thread's other hosts, so use it where a thread has one host
        (the runner's slots); :meth:`ensure` then starts a new driver."""
        pid, started = self.pid, self._started
        self._killed = True
        if driver and self._driver_proc is not None:
            self._driver_killed = True
            drv_pid, drv_started = self._driver_proc
            if _start_time(drv_pid) == drv_started:
                launched = _descendants(drv_pid)  # a Chromium still starting has no pid here
                _kill_if(drv_pid, drv_started)
                for p in launched:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(p, signal.SIGKILL)
        if pid is None or started is None or _start_time(pid) != started:
            return  # never known, or already gone
        with contextlib.suppress(ProcessLookupError):
            if os.getpgid(pid) == pid:
                os.killpg(pid, signal.SIGKILL)
                return
            for p in [pid, *_descendants(pid)]:  # collected before any dies and is reparented
                with contextlib.suppress(ProcessLookupError):
                    os.kill(p, signal.SIGKILL)

    def browser_gone(self) -> bool:
        """True when the launched browser process has exited (safe from any thread); False
        while none is launched or known."""
        pid, started = self.pid, self._started
        return pid is not None and started is not None and _start_time(pid) != started

    def ensure(self) -> None:
        """Relaunch after a crash (or a :meth:`kill`) so the run can go on; after a killed
        driver, with a new one."""
        if self._driver_killed:
            self._driver_killed = False
            self.browser = None  # its connection died with the driver
            drv, self._drv = self._drv, None
            if drv is not None:
                with contextlib.suppress(Exception):
                    drv.stop()
                drv.stopped = True
                drv.hosts -= 1
        if not self.alive():
            self._drop_browser()
            self.launch()

    def close(self) -> None:
        """Close Chromium; the last host of a thread other than the main one also stops that
        thread's driver."""
        self._drop_browser()
        drv, self._drv = self._drv, None
        if drv is not None:
            drv.hosts -= 1
            if drv.hosts == 0 and not drv.main:
                drv.stop()

    def _drop_browser(self) -> None:
        """Close the browser if Playwright still holds it open. After a :meth:`kill` it may
        not have noticed yet; closing then only tidies up, and may fail."""
        gone = self._killed or self.browser_gone()
        self.pid = self._started = None
        if self.browser is not None and self.browser.is_connected():
            if gone:
                with contextlib.suppress(Exception):
                    self.browser.close()
            else:
                self.browser.close()
        self.browser = None

    def __enter__(self) -> BrowserHost:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
