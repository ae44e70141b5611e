# Two entry points, each setting up what it needs: `make game` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin

.PHONY: game test clean

$(BIN)/ludolex: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,ray]'
	touch $@

game: $(BIN)/ludolex  ## one simulated game of Cernunos between two random bots, move by move
	$(BIN)/ludolex play cernunos --seed 1

test: $(BIN)/ludolex  ## the whole test suite: engine tests and every game's scenarios
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV)
