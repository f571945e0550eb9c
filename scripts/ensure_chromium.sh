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
# (the two WEBMDP_* lists below exist for the script's own test)
SYSTEM_CHROMIUMS="${WEBMDP_SYSTEM_CHROMIUMS:-/usr/bin/chromium /usr/bin/chromium-browser}"
APT_LOCKS="${WEBMDP_APT_LOCKS:-/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock}"
have_system_chromium() {
  for bin in $SYSTEM_CHROMIUMS; do
    if [ -x "$bin" ]; then return 0; fi
  done
  return 1
}
if have_system_chromium; then exit 0; fi
echo "webmdp: no Chromium found; installing Debian's chromium package" >&2
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
# Another apt process (unattended upgrades, a second setup) may hold the dpkg lock: apt waits
# for it up to WEBMDP_APT_LOCK_TIMEOUT seconds (default 600) instead of failing at once.
LOCK_TIMEOUT="${WEBMDP_APT_LOCK_TIMEOUT:-600}"
APT=($SUDO apt-get -o "DPkg::Lock::Timeout=$LOCK_TIMEOUT")
lock_holder() {
  for lock in $APT_LOCKS; do
    if command -v fuser >/dev/null 2>&1; then
      if $SUDO fuser "$lock" >/dev/null 2>&1; then echo "$lock"; return 0; fi
    elif find /proc/[0-9]*/fd -lname "$lock" 2>/dev/null | grep -q .; then
      echo "$lock"; return 0
    fi
  done
  return 1
}
if held=$(lock_holder); then
  echo "webmdp: another apt process holds $held; waiting for it (up to ${LOCK_TIMEOUT} s," \
       "WEBMDP_APT_LOCK_TIMEOUT changes this)" >&2
fi
if ! "${APT[@]}" update -qq; then
  echo "webmdp: apt-get update failed (see above); install Chromium with" \
       "'apt-get install -y chromium' or set WEBMDP_CHROMIUM=/path/to/chrome" >&2
  exit 1
fi
if ! DEBIAN_FRONTEND=noninteractive "${APT[@]}" install -y -qq chromium >/dev/null; then
  echo "webmdp: installing Debian's chromium package failed (see above); if apt's lock was" \
       "still held after ${LOCK_TIMEOUT} s, run setup again once the other apt process ends" >&2
  exit 1
fi
have_system_chromium
