# The two commands a new user needs: `make run` and `make test`.
# Both create the virtual environment on first use, so a fresh machine with
# python3 and make is enough.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CHROMIUM := /usr/bin/chromium
EMOJI_FONT := /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf

.PHONY: run test format bench clean browser

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { \
	  echo "error: Python 3.11 or newer is needed; run with PYTHON=python3.11 (or newer)" >&2; \
	  exit 1; }
	@echo "Creating $(VENV) and installing the project (first run only)"
	@$(PYTHON) -m venv $(VENV) || { \
	  echo "error: '$(PYTHON) -m venv' failed; on Debian or Ubuntu: apt-get install python3-venv" >&2; \
	  exit 1; }
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@$(MAKE) --no-print-directory browser
	touch $(STAMP)

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

run: $(STAMP)
	$(BIN)/python -m bot

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m pytest

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Benchmarks print figures; they are not part of `make test`.
bench: $(STAMP)
	$(BIN)/python -m bot.games.pickomino.bench
	$(BIN)/python -m benchmarks.bench_clicks
	$(BIN)/python -m benchmarks.bench_solver
	$(BIN)/python -m benchmarks.bench_history
	$(BIN)/python -m benchmarks.bench_bots
	$(BIN)/python -m benchmarks.bench_pictures
	$(BIN)/python -m benchmarks.bench_shards

clean:
	rm -rf $(VENV) build *.egg-info
