"""The generated backend (each block of statements one generated function, language/block_code.py)
plays exactly as the reference backend (a closure per statement, language/statements.py): the same
decisions with the same options, logs, final states and results for random games of every game in
the repository, in playout mode too; every scenario of every game passes with the reference backend
as it does with the generated one (the default, run by the scenario files themselves); the same
diagnostics for every broken ruleset of the corpus; and a rule's runtime error at the same place."""
import random
from pathlib import Path

import pytest

from interpreter import Game
from interpreter.diagnostics.errors import RuleRuntimeError
from interpreter.loading.stages import load_ruleset
from interpreter.scenarios.files import load_scenarios
from interpreter.scenarios.run import run_scenario
from interpreter.validation.validate import ruleset_folders
from test_diagnostics_corpus import CASES, output_for
from test_memo_differential import play
from toy import CHIPS_CONTENT, toy_folder

RULESETS = ruleset_folders(Path(__file__).resolve().parent.parent / "rulesets")
SEEDS = range(12)
BACKENDS = ("reference", "generated")


@pytest.fixture(scope="module", params=RULESETS, ids=lambda folder: folder.name)
def both(request):
    """The game compiled by each backend."""
    return {backend: load_ruleset(request.param, backend=backend) for backend in BACKENDS}


def play_out(ruleset, seed: int) -> list:
    game = Game(ruleset, seed=seed)
    game.play_out(random.Random(seed))
    return [game.runtime.decisions, game.state.to_json(), game.result.to_json()]


def test_random_games_are_the_same_with_either_backend(both):
    for seed in SEEDS:
        assert play(both["generated"], seed) == play(both["reference"], seed), f"seed {seed}"


def test_playouts_are_the_same_with_either_backend(both):
    for seed in SEEDS:
        assert play_out(both["generated"], seed) == play_out(both["reference"], seed), f"seed {seed}"


def test_the_backends_differ_where_it_matters(both):
    """The generated backend does compile the blocks as functions of their own (this test would
    pass vacuously if both loads gave the reference backend)."""
    reference, generated = (both[b].program.codegen.sources for b in BACKENDS)
    assert any(name.startswith("_block") for name in generated)
    assert not any(name.startswith("_block") for name in reference)


def test_every_scenario_passes_with_the_reference_backend(both):
    ruleset = both["reference"]
    files = sorted((ruleset.directory / "tests").glob("*.yaml"))
    scenarios = [loaded.scenario for path in files for loaded in load_scenarios(path)]
    assert scenarios
    for scenario in scenarios:
        run_scenario(ruleset, scenario)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_same_diagnostics_with_either_backend(case, monkeypatch):
    outputs = []
    for backend in BACKENDS:
        monkeypatch.setenv("LUDOLEX_BACKEND", backend)
        outputs.append(output_for(case))
    assert outputs[0] == outputs[1]


FAILING = """\
    zone supply per player
    zone pot
    variable current = red
    variable tally = 0
    variable nobody = none

    procedure deep(n):
        for each chip in pieces(supply(you)):
            if n > 0:
                while n > 0:
                    set n = n - 1
            else:
                because "a reason":
                    set tally = count(c in pieces(supply(nobody)))
    when bet(chip) if chip != none:
        as next(you):
            deep(0)
    play:
        repeat:
            turn current:
                choose chip in pieces(supply(you)) as bet
                emit bet(chip)
            set current = next(current)
    """


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_runtime_error_is_reported_at_the_statement_that_failed(tmp_path, backend):
    folder = toy_folder(tmp_path, CHIPS_CONTENT, chips=FAILING)
    game = Game(load_ruleset(folder, backend=backend), seed=1)
    with pytest.raises(RuleRuntimeError) as caught:
        game.choose(0)
    assert (caught.value.position.line, caught.value.position.column) == (14, 17)  # `set tally = ...`
    assert caught.value.message == "none where a player is needed (to name a player's zone or variable)"  # `supply(nobody)`


TALLY = """\
zone supply per player
zone pot
variable current = red
variable tally = 0
"""


def nested_loops(indent: int) -> str:
    """25 loops one inside the other (Python compiles 20 at most), the first at `indent` levels."""
    return "".join("    " * (indent + depth) + f"for each x{depth} in [1]:\n" for depth in range(25))


def test_blocks_nested_deeper_than_python_compiles_run_as_written(tmp_path):
    """Python compiles at most 20 nested loops and `try` blocks in a function: a block of rules nested
    deeper is compiled by the reference backend, and plays the same."""
    loops = nested_loops(3)
    folder = toy_folder(tmp_path, CHIPS_CONTENT, chips=TALLY + f"""
play:
    repeat:
        turn current:
{loops}{"    " * 28}set tally = tally + 1
            choose chip in pieces(supply(you)) as bet
            move chip to pot
        set current = next(current)
""")
    assert tallies_after_the_first_choice(folder) == [2, 2]  # a turn each so far


def test_procedures_and_when_rules_nested_deeper_than_python_compiles_run_as_written(tmp_path):
    """The generated backend calls a procedure's body and a `when` rule with their parameters; those
    Python cannot compile are called as the reference backend calls them, and play the same."""
    loops = nested_loops(1)
    folder = toy_folder(tmp_path, CHIPS_CONTENT, chips=TALLY + f"""
procedure count_turn(step):
{loops}{"    " * 26}set tally = tally + step
when bet(chip, step) if chip != none:
{loops}{"    " * 26}set tally = tally + step

play:
    repeat:
        turn current:
            count_turn(1)
            choose chip in pieces(supply(you)) as bet
            emit bet(chip, 10)
            move chip to pot
        set current = next(current)
""")
    assert tallies_after_the_first_choice(folder) == [12, 12]  # two turns begun, one bet


def tallies_after_the_first_choice(folder) -> list:
    """The variable `tally` with each backend, once the first decision is answered."""
    tallies = []
    for backend in BACKENDS:
        game = Game(load_ruleset(folder, backend=backend), seed=1)
        game.choose(0)
        tallies.append(game.state.variables["tally"])
    return tallies
