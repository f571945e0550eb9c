"""Locate and launch Chromium: Playwright's own build if installed, else Debian's package."""

from __future__ import annotations

import atexit
import os
import shutil
from pathlib import Path
from typing import Any

from webmdp.errors import BrowserError

SYSTEM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
VIEWPORT = {"width": 1440, "height": 900}


def playwright_has_browser() -> bool:
    root = Path(os.environ.get("PLAYWRIGHT_BROWSERS_PATH", Path.home() / ".cache/ms-playwright"))
    return any(root.glob("chromium-*/chrome-linux*/chrome")) or any(
        root.glob("chromium_headless_shell-*/*/headless_shell"))


def executable_path() -> str | None:
    """``None`` means Playwright's bundled Chromium; otherwise a system binary's path.
    ``WEBMDP_CHROMIUM`` overrides both."""
    override = os.environ.get("WEBMDP_CHROMIUM")
    if override:
        return override
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


_DRIVER: Any = None


def _driver() -> Any:
    """The process's one Playwright driver (the sync API allows one per thread)."""
    global _DRIVER
    if _DRIVER is None:
        from playwright.sync_api import sync_playwright

        _DRIVER = sync_playwright().start()
        atexit.register(_stop_driver)
    return _DRIVER


def _stop_driver() -> None:
    global _DRIVER
    if _DRIVER is not None:
        _DRIVER.stop()
        _DRIVER = None


class BrowserHost:
    """One Chromium process, shared by many episodes (one browser context each)."""

    def __init__(self, *, headless: bool = True):
        self.headless = headless
        self._pw = _driver()
        self.browser: Any = None
        self.launch()

    def launch(self) -> None:
        try:
            self.browser = self._pw.chromium.launch(
                headless=self.headless, executable_path=executable_path(),
                args=["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                      "--font-render-hinting=none"])
        except Exception as exc:
            raise BrowserError(f"Chromium failed to start: {exc}") from exc

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
        return self.browser is not None and self.browser.is_connected()

    def ensure(self) -> None:
        """Relaunch after a crash so the run can go on."""
        if not self.alive():
            self.launch()

    def close(self) -> None:
        if self.browser is not None and self.browser.is_connected():
            self.browser.close()

    def __enter__(self) -> BrowserHost:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
