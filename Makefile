# The two commands a new user needs: `make run` and `make test`.
# Both create the virtual environment on first use, so a fresh machine with
# python3 and make is enough.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test format bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m bot

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Benchmarks print figures; they are not part of `make test`.
bench: $(STAMP)
	$(BIN)/python -m bot.game.bench
	$(BIN)/python -m benchmarks.bench_clicks
	$(BIN)/python -m benchmarks.bench_solver
	$(BIN)/python -m benchmarks.bench_history
	$(BIN)/python -m benchmarks.bench_bots

clean:
	rm -rf $(VENV) build *.egg-info
