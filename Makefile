# The three commands a new user needs: `make run`, `make test` and `make play`.
# Each creates the virtual environment on first use, so a fresh machine with
# python3 and make is enough. `make run` and `make play` install what the bot runs on
# (the runtime lock); `make test` adds the development tools and Chromium.
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

.PHONY: run test play format bench lock clean browser

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

run: $(RUNTIME_STAMP)
	$(BIN)/python -m bot

# The games in a browser, on a local stand-in for Discord: no token, no network, and only
# the runtime installed (Chromium and the dev tools are for the tests).
# PLAY_ARGS="--port 9000" or "--host 0.0.0.0" (prints a warning) to change where it listens;
# PLAY_ARGS="--real-discord" for Discord's latency, rate limits and rules.
play: $(RUNTIME_STAMP)
	$(BIN)/python -m bot.devserver $(PLAY_ARGS)

# The tests run in a worker per core (pytest-xdist); a worker that finishes its share takes
# tests from a busy one's (worksteal: a few tests take a minute, most a fraction of a second).
test: $(STAMP)
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
	rm -rf $(VENV) build *.egg-info
