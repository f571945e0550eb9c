# webmdp: `make demo [SITES=shopping,food]` runs the built-in benchmark slice, `make test` the
# whole suite.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup demo test test-slow test-train test-image test-integrations lint bench clean docs \
	docs-serve docs-images

setup: $(STAMP)
	@bash scripts/ensure_chromium.sh

# The example site plugin (examples/site-plugin, docs/extending.md) is installed beside webmdp,
# as a user installs theirs: the suite checks it end to end.
$(STAMP): pyproject.toml examples/site-plugin/pyproject.toml
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev,docs]'
	$(BIN)/python -m pip install -q --no-deps -e examples/site-plugin
	@touch $(STAMP)

SITES ?= all

# `make demo` needs only the package and a Chromium (a 0.6 GB virtualenv); `make test` adds the
# test, docs and integration tools (about 2 GB). A virtualenv set up for the tests serves both.
DEMO_STAMP := $(VENV)/.installed-demo
$(DEMO_STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e .
	@touch $(DEMO_STAMP)

demo: $(if $(wildcard $(STAMP)),$(STAMP),$(DEMO_STAMP))
	@bash scripts/ensure_chromium.sh
	$(BIN)/webmdp demo --out runs/demo --sites $(SITES)

# pytest-xdist runs the suite on 4 workers (each holds a server and a Chromium): most tests
# spend their time waiting on Chromium, a server or a subprocess, so even 2 cores keep 4 busy.
# The controller first fills their shared task cache on every core (tests/conftest.py). The run
# ends with its 15 slowest tests; an idle worker takes tests queued for a busy one (worksteal).
# The integration suite (below) runs beside it once the cache is built (WEBMDP_TEST_BESIDE,
# tests/conftest.py): its output is printed at the end, and the run fails if it fails. The
# suite's hundreds of Python subprocesses share compiled bytecode (PYTHONPYCACHEPREFIX, outside
# the tree) even where the environment turns writing it off.
# `make test-slow` holds the checks over whole corpora.
PYTEST_WORKERS ?= 4
VF_VENV := .venv/verifiers
VF_STAMP := $(VF_VENV)/.installed
test: setup $(VF_STAMP)
	$(BIN)/ruff check src tests tests-verifiers benchmarks examples scripts
	$(BIN)/mypy
	PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX=$${TMPDIR:-/tmp}/webmdp-test-pycache \
	WEBMDP_TEST_PREBUILD=1 WEBMDP_TEST_BESIDE='$(MAKE) --no-print-directory test-integrations' \
	  $(BIN)/python -m pytest -q -p no:cacheprovider -n $(PYTEST_WORKERS) --dist worksteal \
	  --durations 15

# `make test-integrations` (part of `make test`) checks the verifiers taskset
# (src/webmdp_verifiers, the `verifiers` extra; tests in tests-verifiers/) with verifiers' own
# code: its taskset API, its MCP tool server, `vf-eval` against a scripted model, and
# verifiers' OpenEnv taskset against `webmdp rl serve`.
# verifiers and webmdp's `openenv` extra cannot share a virtualenv (verifiers pins mcp 2,
# OpenEnv's fastmcp wants mcp<2), so it gets one of its own, inside .venv (tools that walk the
# source, such as `openenv validate`, which refuses symbolic links, skip .venv); verifiers' chat
# loop runs as a uv script, whose packages uv fetches from PyPI on the first run.
$(VF_STAMP): pyproject.toml
	@test -x $(VF_VENV)/bin/python || $(PY) -m venv $(VF_VENV)
	$(VF_VENV)/bin/python -m pip install -q --upgrade pip
	$(VF_VENV)/bin/python -m pip install -q -e '.[verifiers]' 'verifiers[openenv]==0.4.0' uv \
	  pytest pytest-timeout
	@touch $(VF_STAMP)

test-integrations: setup $(VF_STAMP)
	WEBMDP_SERVE=$(abspath $(BIN)/webmdp) $(VF_VENV)/bin/python -m pytest -q \
	  -p no:cacheprovider --timeout 600 tests-verifiers

comma := ,
# `make test-slow SITES=mail,food` runs the slow suite's parts for those sites only; it ends
# with every oracle of those sites replayed under real-web noise (`validate --noise real`).
test-slow: setup
	$(BIN)/python -m pytest -q -p no:cacheprovider -n $(PYTEST_WORKERS) --maxprocesses 4 -m slow \
	  $(if $(filter-out all,$(SITES)),-k "$(subst $(comma), or ,$(SITES))")
	$(BIN)/webmdp validate --site $(SITES) --noise real --workers 2
	$(BIN)/webmdp validate --suite grid --site $(SITES) --workers 2

# `make test-image` runs the image's steps (scripts/image_setup.sh, what the Dockerfile runs)
# in a fresh virtualenv, installing from the registry, then serves an oracle episode from it;
# where a container engine runs, it also builds the image and plays against it.
test-image: setup
	$(BIN)/python -m pytest -q -p no:cacheprovider -m slow tests/packaging/test_image_setup.py

# `make test-train` installs the extra webmdp[steprm-vlm] (torch, transformers, peft: large) and
# fine-tunes a tiny, randomly initialised VLM StepRM end to end on CPU (tests/train, marker
# `train`). TRAIN_PIP_ARGS passes options to that pip install (e.g. a CPU-only torch source).
TRAIN_PIP_ARGS ?=
test-train: setup
	$(BIN)/python -m pip install -q $(TRAIN_PIP_ARGS) -e '.[steprm-vlm,trl]'
	$(BIN)/python -m pytest -q -p no:cacheprovider -m train -s tests/train

# The documentation site (mkdocs.yml; the `docs` extra, which setup installs): built with
# --strict, so a broken link, a missing page or a docstring mkdocstrings cannot read fails.
# Pages and tables generated from the code come from scripts/mkdocs_hooks.py. `make test`
# builds it too (tests/docs), and runs every bash and python example of README.md and docs/.
export NO_MKDOCS_2_WARNING := 1
docs: setup
	$(BIN)/mkdocs build --strict

docs-serve: setup
	$(BIN)/mkdocs serve --dev-addr 127.0.0.1:8000

# The pictures of docs/img, made from real runs in Chromium (not in `make test`: font
# rendering differs between machines); each at most 300 KB.
docs-images: setup
	$(BIN)/python scripts/docs_images.py

lint: setup
	$(BIN)/ruff check src tests tests-verifiers benchmarks examples scripts
	$(BIN)/ruff format --check src tests benchmarks

bench: setup
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) runs .pytest_cache site
