# The three commands a new user needs: `make run`, `make test` and `make play`.
# Each creates the virtual environment on first use, so a fresh machine with
# python3 and make is enough. `make run` and `make play` install what the bot runs on
# (the runtime lock) and build the table's page when Node.js is there; `make test` adds
# the development tools, Chromium and Node.js (the table's page is built for its tests).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RUNTIME_STAMP := $(VENV)/.installed-runtime
LOCK_RUNTIME := requirements/runtime.lock
LOCK_DEV := requirements/dev.lock
PIP := $(BIN)/python -m pip
# Quiet: setuptools warns on every editable install about folders named like packages.
PIP_INSTALL := PYTHONWARNINGS=ignore $(PIP) install --quiet
PIP_RANGE := pip>=24.2,<27
PIP_TOOLS_RANGE := pip-tools>=7.5,<8
# The Python the lock files were compiled with, from the header pip-compile writes.
LOCK_PYTHON := $(shell sed -n 's/.*pip-compile with Python \([0-9.]*\).*/\1/p' $(LOCK_DEV) 2>/dev/null)
# True (exit 0) when the venv's Python is the one the locks are for.
LOCK_FITS := $(BIN)/python -c 'import sys; sys.exit("%d.%d" % sys.version_info[:2] != "$(LOCK_PYTHON)")'
# Reuses the pins already in the lock files; `make lock UPGRADE=1` moves everything
# to the newest versions pyproject.toml allows.
COMPILE := $(BIN)/pip-compile --quiet --generate-hashes --allow-unsafe --strip-extras \
	--no-emit-index-url --no-emit-find-links $(if $(UPGRADE),--upgrade)

CHROMIUM := /usr/bin/chromium
EMOJI_FONT := /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf

# The table's page (TypeScript, bundled by esbuild), built into $(PAGE)/dist/.
PAGE := bot/table/page
PAGE_BUILT := $(PAGE)/dist/index.html
PAGE_MODULES := $(PAGE)/node_modules/.installed
PAGE_SOURCES := $(PAGE)/package.json $(PAGE)/build.mjs $(PAGE)/tsconfig.json \
	$(shell find $(PAGE)/src -type f 2>/dev/null)
NODE_OK := node -e 'process.exit(parseInt(process.versions.node) < 18 ? 1 : 0)'

.PHONY: run test play format bench lock clean browser node page page-if-node

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { \
	  echo "error: Python 3.11 or newer is needed; run with PYTHON=python3.11 (or newer)" >&2; \
	  exit 1; }
	@echo "Creating $(VENV) (first run only)"
	@$(PYTHON) -m venv $(VENV) || { \
	  echo "error: '$(PYTHON) -m venv' failed; on Debian or Ubuntu: apt-get install python3-venv" >&2; \
	  exit 1; }
	@$(PIP_INSTALL) --upgrade "$(PIP_RANGE)"

# Again whenever pyproject.toml or a lock file changes. The locks pin every package with
# its hashes for the Python they were compiled with; another Python (which may need other
# packages, such as audioop-lts on 3.13) installs from pyproject.toml's ranges instead, and
# so does a dependency added to pyproject.toml that the locks do not have yet.
#
# What the bot runs on (`make run`, `make play`): the runtime lock, as the Docker image.
$(RUNTIME_STAMP): pyproject.toml $(LOCK_RUNTIME) | $(BIN)/python
	@echo "Installing the bot and what it runs on into $(VENV)"
	@if $(LOCK_FITS); then \
	  $(PIP_INSTALL) --require-hashes -r $(LOCK_RUNTIME); \
	else \
	  echo "note: $(LOCK_RUNTIME) is for Python $(LOCK_PYTHON); installing from pyproject.toml"; \
	  $(PIP_INSTALL) -e '.[postgres]'; \
	fi
	@$(PIP_INSTALL) --no-deps -e .
	@$(PIP) check >/dev/null || { \
	  echo "note: the lock files lack dependencies of pyproject.toml (run make lock); adding them"; \
	  $(PIP_INSTALL) -e '.[postgres]'; }
	@touch $(RUNTIME_STAMP)

# Everything (`make test` and the other developer targets): the dev lock, which holds the
# runtime's pins too, and Chromium for the browser tests.
$(STAMP): pyproject.toml $(LOCK_RUNTIME) $(LOCK_DEV) | $(BIN)/python
	@echo "Installing the project, its dependencies and the development tools into $(VENV)"
	@if $(LOCK_FITS); then \
	  $(PIP_INSTALL) --require-hashes -r $(LOCK_DEV); \
	else \
	  echo "note: $(LOCK_DEV) is for Python $(LOCK_PYTHON); installing from pyproject.toml"; \
	  $(PIP_INSTALL) -e '.[dev]'; \
	fi
	@$(PIP_INSTALL) --no-deps -e .
	@$(PIP) check >/dev/null || { \
	  echo "note: the lock files lack dependencies of pyproject.toml (run make lock); adding them"; \
	  $(PIP_INSTALL) -e '.[dev]'; }
	@$(MAKE) --no-print-directory browser
	@touch $(STAMP) $(RUNTIME_STAMP)

# Chromium and an emoji font for bot.preview's screenshots, from apt when we can (root with
# apt-get); never a failure: without them only the browser tests fail, saying how to install.
browser:
	@if { [ ! -x $(CHROMIUM) ] || [ ! -f $(EMOJI_FONT) ]; } \
	  && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "Installing Chromium for the preview tests (apt-get, first run only)"; \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	      chromium fonts-noto-color-emoji; } >/dev/null 2>&1 \
	  || echo "warning: apt-get could not install Chromium; the preview's browser tests will fail (SKIP_BROWSER=1 skips them)" >&2; \
	fi

# Node.js 18 or newer with npm, for the table's page: from apt when we can (root with
# apt-get, as Chromium), else a clear failure saying what to install.
node:
	@if ! command -v npm >/dev/null 2>&1 || ! $(NODE_OK) 2>/dev/null; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing Node.js for the table's page (apt-get, first run only)"; \
	    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	        nodejs npm; } >/dev/null 2>&1 \
	    || { echo "error: apt-get could not install Node.js; install Node.js 18 or newer with npm to build the table's page" >&2; exit 1; }; \
	  else \
	    echo "error: the table's page needs Node.js 18 or newer with npm (e.g. apt-get install nodejs npm); install it and run make again" >&2; \
	    exit 1; \
	  fi; \
	fi

# Again whenever the lock, the sources or the build script change: npm ci (exact pins
# from package-lock.json), the type check, the bundle.
page: $(PAGE_BUILT)

$(PAGE_MODULES): $(PAGE)/package-lock.json $(PAGE)/package.json
	@$(MAKE) --no-print-directory node
	@echo "Installing the table page's build tools (npm ci)"
	@cd $(PAGE) && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

$(PAGE_BUILT): $(PAGE_MODULES) $(PAGE_SOURCES)
	@echo "Building the table's page into $(PAGE)/dist"
	@cd $(PAGE) && npm run --silent check && npm run --silent build

# `make run` and `make play` build the page only where Node.js is; without it the bot
# runs without the table and its log says how to build it.
page-if-node:
	@if command -v npm >/dev/null 2>&1 && $(NODE_OK) 2>/dev/null; then \
	  $(MAKE) --no-print-directory page \
	  || echo "warning: the table's page did not build; the bot runs without the table" >&2; \
	fi

run: $(RUNTIME_STAMP) page-if-node
	$(BIN)/python -m bot

# The games in a browser, on a local stand-in for Discord: no token, no network, and only
# the runtime installed (Chromium and the dev tools are for the tests).
# PLAY_ARGS="--port 9000" or "--host 0.0.0.0" (prints a warning) to change where it listens;
# PLAY_ARGS="--real-discord" for Discord's latency, rate limits and rules.
play: $(RUNTIME_STAMP) page-if-node
	$(BIN)/python -m bot.devserver $(PLAY_ARGS)

# The tests run in a worker per core (pytest-xdist); a worker that finishes its share takes
# tests from a busy one's (worksteal: a few tests take a minute, most a fraction of a second).
test: $(STAMP) page
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -n auto --dist worksteal

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Benchmarks print figures; they are not part of `make test`.
bench: $(STAMP)
	$(BIN)/python -m bot.games.pickomino.bench
	$(BIN)/python -m benchmarks.bench_clicks
	$(BIN)/python -m benchmarks.bench_token_budget
	$(BIN)/python -m benchmarks.bench_storage
	$(BIN)/python -m benchmarks.bench_solver
	$(BIN)/python -m benchmarks.bench_history
	$(BIN)/python -m benchmarks.bench_bots
	$(BIN)/python -m benchmarks.bench_pictures
	$(BIN)/python -m benchmarks.bench_memory
	$(BIN)/python -m bot.games.picker.bench
	$(BIN)/python -m benchmarks.bench_picker_bots
	$(BIN)/python -m benchmarks.bench_shards
	$(BIN)/python -m benchmarks.bench_play
	$(BIN)/python -m benchmarks.bench_ratings
	$(BIN)/python -m benchmarks.bench_review
	$(BIN)/python -m benchmarks.bench_loop_wait
	$(BIN)/python -m benchmarks.bench_commits
	$(BIN)/python -m benchmarks.bench_inflight
	$(BIN)/python -m benchmarks.bench_startup

$(BIN)/pip-compile: | $(BIN)/python
	@$(PIP_INSTALL) "$(PIP_TOOLS_RANGE)"

# Regenerate both lock files from pyproject.toml. The runtime lock comes first and
# constrains the dev lock, so the bot runs on the same versions in Docker and in tests.
lock: | $(BIN)/pip-compile
	@echo "Compiling $(LOCK_RUNTIME) and $(LOCK_DEV) from pyproject.toml"
	@mkdir -p requirements
	@$(COMPILE) --extra postgres --output-file $(LOCK_RUNTIME) pyproject.toml
	@$(COMPILE) --extra dev --constraint $(LOCK_RUNTIME) --output-file $(LOCK_DEV) pyproject.toml

clean:
	rm -rf $(VENV) build *.egg-info $(PAGE)/dist $(PAGE)/node_modules
