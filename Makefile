# The two commands a new user needs: `make run` and `make test`.
# Both create the virtual environment on first use, so a fresh machine with
# python3 and make is enough.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test format bench clean

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
	touch $(STAMP)

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

clean:
	rm -rf $(VENV) build *.egg-info
