# Both targets build .venv from nothing when it is missing, install, then run.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test install schema clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/caput validate content/praga
	$(BIN)/caput simulate --players 4 --games 8 --bots greedy --seed 0

# The suite runs on every core (pytest-xdist); `make test PYTEST_ARGS=` runs it in one process.
PYTEST_ARGS ?= -n auto
test: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

schema: $(STAMP)
	$(BIN)/caput schema --out schemas

clean:
	rm -rf $(VENV) build dist .pytest_cache .hypothesis
