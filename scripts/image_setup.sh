#!/usr/bin/env bash
# The image's steps, one script (the Dockerfile runs it; `make test-image` runs it in a fresh
# virtualenv): install webmdp with its OpenEnv server, make sure a Chromium is there (browser
# mode), and fill the task cache so no worker or replica starts cold.
#   PYTHON=/path/to/python scripts/image_setup.sh [SOURCE] [SITE]
# SOURCE: what pip installs (default: this checkout); SITE: the pools to build (default all).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
PY="${PYTHON:-python3}"
SRC="${1:-$HERE/..}"
SITE="${2:-all}"
echo "webmdp image: installing ${SRC}[openenv]" >&2
"$PY" -m pip install -q --no-cache-dir "${SRC}[openenv]"
echo "webmdp image: making sure a Chromium is there (browser mode)" >&2
PYTHON="$PY" bash "$HERE/ensure_chromium.sh"
echo "webmdp image: building the task pools of site=$SITE into ${WEBMDP_CACHE_DIR:-the cache}" >&2
"$PY" -m webmdp.cli.main cache build --site "$SITE"
