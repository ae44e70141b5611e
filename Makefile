# Two entry points, each setting up what it needs: `make game` and `make test`.
# The installer is quiet: its output goes to .venv/install.log, shown only if it fails.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
INSTALL = $(BIN)/python -m pip install --disable-pip-version-check --quiet

.PHONY: game test clean

$(VENV)/core.done: pyproject.toml  # what `ludolex` needs to play, validate and simulate
	@echo "setting up $(VENV) (once; the log is $(VENV)/install.log)"
	@$(PYTHON) -m venv $(VENV)
	@$(INSTALL) -e . > $(VENV)/install.log 2>&1 || { cat $(VENV)/install.log; exit 1; }
	@# pip byte-compiles what it copies into site-packages, not the sources of an editable install:
	@# compiled here, the first command (or any, where bytecode is not written) does not compile them
	@$(BIN)/python -m compileall -q interpreter >> $(VENV)/install.log 2>&1 || { cat $(VENV)/install.log; exit 1; }
	@touch $@

$(VENV)/test.done: $(VENV)/core.done  # and the test tools, plots (matplotlib), Ray, the learning libraries (OpenSpiel, PettingZoo) and wasmtime (the WebAssembly backend)
	@echo "adding the test tools, reports and Ray to $(VENV) (once)"
	@$(INSTALL) -e '.[test,report,ray,agents,native]' >> $(VENV)/install.log 2>&1 || { cat $(VENV)/install.log; exit 1; }
	@touch $@

game: $(VENV)/core.done  ## one game of Cernunos between two random bots: its moves, its result, what to try next
	@$(BIN)/ludolex play cernunos --seed 1
	@echo
	@echo "That was Cernunos (rulesets/cernunos, cards/cernunos) between two random bots, seed 1: the board"
	@echo "at the start and the end, each move on a line between. To try next:"
	@echo "  $(BIN)/ludolex play cernunos --human green          you play green, a bot purple"
	@echo "  $(BIN)/ludolex play cernunos --seed 1 --every-move  this game again, the board after every move"
	@echo "  $(BIN)/ludolex simulate cernunos --games 200        200 bot games: who wins, how often, how long"
	@echo "  $(BIN)/ludolex --help                               every command"
	@echo "and docs/tutorial.md, a game in ten minutes: play, change a piece, check it, measure what it changed."

test: $(VENV)/test.done  ## the whole test suite: engine tests and every game's scenarios, on every core (pytest-xdist; an idle core takes tests from a busy one)
	@$(BIN)/python -m pytest -n auto --dist worksteal

clean:
	rm -rf $(VENV)
