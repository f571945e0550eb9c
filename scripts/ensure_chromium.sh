#!/usr/bin/env bash
# Make sure a Chromium is available: Playwright's own build, else Debian's /usr/bin/chromium,
# else install Debian's package (Playwright cannot download browsers on offline machines).
set -euo pipefail
if ls "${PLAYWRIGHT_BROWSERS_PATH:-$HOME/.cache/ms-playwright}"/chromium*/ >/dev/null 2>&1; then
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
