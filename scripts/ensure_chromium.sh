#!/usr/bin/env bash
# Make sure a Chromium is available: the installed Playwright version's own build, else Debian's
# /usr/bin/chromium, else install Debian's package (Playwright cannot download browsers on
# offline machines). A cache holding another Playwright version's chromium-* folder does not
# count: that version's browser cannot be launched by this one.
set -euo pipefail
PY="${PYTHON:-.venv/bin/python}"
if [ -x "$PY" ] && "$PY" -c 'import sys
from webmdp.env.chromium import playwright_has_browser
sys.exit(0 if playwright_has_browser() else 1)' 2>/dev/null; then
  exit 0
fi
for bin in /usr/bin/chromium /usr/bin/chromium-browser; do
  if [ -x "$bin" ]; then exit 0; fi
done
echo "webmdp: no Chromium found; installing Debian's chromium package" >&2
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
test -x /usr/bin/chromium
