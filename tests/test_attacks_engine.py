"""Attacks on the engine itself: its grammar cache, its compiler's budgets, its run-time limits."""
from __future__ import annotations

import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import processes
import pytest

from interpreter import Game
from interpreter.agents.bots import make_agent
from interpreter.diagnostics.errors import LudolexError, RuleRuntimeError
from interpreter.safety.limits import LIMITS, LimitExceeded
from interpreter.loading.stages import load_ruleset


class _RunsCode:
    def __init__(self, sentinel):
        self.sentinel = sentinel

    def __reduce__(self):
        return (os.system, (f"touch {self.sentinel}",))


def _build_parser(environment: dict, shared_cache: bool) -> subprocess.CompletedProcess:
    """Build the rules parser in a fresh process; `shared_cache`: as Lark does by default (the old way)."""
    code = textwrap.dedent(f"""
        from interpreter.language import parser
        if {shared_cache}:
            parser._private_cache = lambda: True
        parser.parser()
    """)
    return processes.run([sys.executable, "-c", code], capture_output=True, text=True, env=environment)


def test_a_planted_grammar_cache_in_the_shared_temp_folder_is_never_loaded(tmp_path):
    """Lark's default cache is a pickle at a predictable name in the temp folder: whoever writes
    there first runs code as the next user. ludolex keeps its cache in a private folder."""
    sentinel, shared_temp = tmp_path / "PWNED", tmp_path / "tmp"
    shared_temp.mkdir()
    environment = {**os.environ, "TMPDIR": str(shared_temp), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    _build_parser(environment, shared_cache=True)  # the attacker learns the name Lark uses...
    (planted,) = shared_temp.glob(".lark_cache_*")
    planted.write_bytes(b"any hash\n" + pickle.dumps(_RunsCode(sentinel)))  # ...and plants a pickle there
    _build_parser(environment, shared_cache=True)
    assert sentinel.exists(), "the planted cache is a working attack on Lark's default"
    sentinel.unlink()

    built = _build_parser(environment, shared_cache=False)
    assert built.returncode == 0, built.stderr
    assert not sentinel.exists()
    private = tmp_path / "cache" / "ludolex"
    assert list(private.glob("*.pickle")) and (private.stat().st_mode & 0o777) == 0o700


def test_a_cache_folder_others_can_write_is_not_used(tmp_path):
    folder = tmp_path / "cache" / "ludolex"
    folder.mkdir(parents=True)
    folder.chmod(0o777)
    code = "from interpreter.language import parser; print(parser._private_cache())"
    environment = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = processes.run([sys.executable, "-c", code], capture_output=True, text=True, env=environment)
    assert done.stdout.strip() == "False", done.stderr
RULES = """
zone pool per player
{extra}
play:
{body}
    draw
"""

CONTENT = """
players: [red, blue]
board:
  locations:
    camp: {{slots: {slots}}}
    hill: {{slots: 1}}
  connections:
    - {{from: camp, to: hill, type: road}}
pieces:
  pawn: {{per_player: 2, starts_in: pool}}
"""


def tiny_game(folder: Path, body: str, extra: str = "", slots: int = 1):
    (folder / "rules").mkdir()
    (folder / "cards").mkdir()
    (folder / ".git").mkdir()  # the project: its manifest may name ../cards
    (folder / "rules" / "game.yaml").write_text("name: tiny\ncontent: ../cards\n")
    (folder / "rules" / "tiny.rules").write_text(RULES.format(extra=textwrap.dedent(extra), body=textwrap.indent(textwrap.dedent(body), "    ")))
    (folder / "cards" / "content.yaml").write_text(CONTENT.format(slots=slots))
    return load_ruleset(folder / "rules")


def runaway(folder: Path, body: str, extra: str = "", slots: int = 1, choices: int = 0) -> LimitExceeded:
    """Play the tiny game, choosing the first option, until a limit stops it."""
    ruleset = tiny_game(folder, body, extra, slots)
    with pytest.raises(LimitExceeded) as stopped:
        game = Game(ruleset, seed=1)
        for _ in range(choices):
            game.choose(0)
    return stopped.value


def line_of(error: LimitExceeded) -> int:
    assert error.position is not None and error.position.file.endswith("tiny.rules"), error
    return error.position.line


SMALL = {"steps_per_decision": 20_000, "steps_per_game": 100_000, "decisions_per_game": 500, "seconds_per_decision": 1.0}


@pytest.fixture(autouse=True)
def small_limits(monkeypatch):
    for name, value in SMALL.items():
        monkeypatch.setattr(LIMITS, name, value)


def test_while_true_stops_at_the_step_budget(tmp_path):
    error = runaway(tmp_path, "let n = 0\nwhile true:\n    set n = n + 1\n")
    assert line_of(error) == 6 and "20,000 steps between two decisions" in str(error)


def test_repeat_a_huge_number_of_times_stops(tmp_path):
    error = runaway(tmp_path, "repeat 1000000000000000 times:\n    pass\n")
    assert line_of(error) == 5


def test_a_map_number_as_large_as_a_game_holds_stops(tmp_path):
    error = runaway(tmp_path, "repeat camp.slots times:\n    pass\n", slots=LIMITS.largest_number)
    assert line_of(error) == 5


def test_a_map_number_of_2_to_the_63_is_refused_before_any_game(tmp_path):
    with pytest.raises(LudolexError) as refused:
        tiny_game(tmp_path, "repeat camp.slots times:\n    pass\n", slots=2**63)
    (diagnostic,) = refused.value.diagnostics
    assert diagnostic.code == "LX205" and "LUDOLEX_LARGEST_NUMBER" in diagnostic.message
    assert diagnostic.position.file.endswith("content.yaml") and diagnostic.position.line == 5


def test_a_loop_inside_an_always_rule_stops(tmp_path):
    extra = "variable n = 0\nalways spin:\n    while n >= 0:\n        set n = n + 1\n"
    error = runaway(tmp_path, "move first(p in pieces(pool(red))) to camp\n", extra)
    assert line_of(error) == 5


def test_continuous_rules_that_never_settle_stop(tmp_path, monkeypatch):
    monkeypatch.setattr(LIMITS, "settle_rounds", 50)
    extra = "variable n = 0\nalways spin:\n    set n = n + 1\n"
    error = runaway(tmp_path, "move first(p in pieces(pool(red))) to camp\n", extra)
    assert "50 rounds" in str(error)


def test_a_decision_loop_inside_one_turn_stops_at_the_decision_budget(tmp_path):
    body = "turn red:\n    repeat:\n        choose spot in [camp, hill] as where\n"
    error = runaway(tmp_path, body, choices=10_000)
    assert "500 decisions" in str(error)


def test_the_game_step_budget_bounds_a_game_of_many_small_decisions(tmp_path, monkeypatch):
    monkeypatch.setattr(LIMITS, "decisions_per_game", 10**6)
    body = "turn red:\n    repeat:\n        repeat 900 times:\n            pass\n        choose spot in [camp, hill] as where\n"
    error = runaway(tmp_path, body, choices=10_000)
    assert "100,000 steps in one game" in str(error)


def test_a_procedure_calling_itself_twice_stops(tmp_path):
    extra = "procedure grow(n):\n    grow(n + 1)\n    grow(n + 1)\n"
    ruleset = tiny_game(tmp_path, "grow(0)\n", extra)
    with pytest.raises(RuleRuntimeError) as stopped:  # too deep for Python, or past the budget
        Game(ruleset, seed=1)
    assert stopped.value.position is not None


def test_nested_quantifiers_stop_at_the_clock(tmp_path):
    body = "let big = numbers(1, 5000)\nlet n = sum(a in big : sum(b in big : count(c in big)))\n"
    error = runaway(tmp_path, body)
    assert line_of(error) == 6 and "1 s without a decision" in str(error)


def test_a_function_calling_itself_twice_stops_at_the_clock(tmp_path):
    extra = "function grow(n) = if n > 60 then 1 else grow(n + 1) + grow(n + 1)\n"
    error = runaway(tmp_path, "let n = grow(0)\n", extra)
    assert line_of(error) == 6 and "without a decision" in str(error)


def test_numbers_beyond_the_longest_list_are_refused(tmp_path):
    error = runaway(tmp_path, "let n = count(x in numbers(1, 999999999999))\n")
    assert line_of(error) == 5 and "LUDOLEX_LONGEST_LIST" in str(error)


def test_a_list_doubled_in_a_loop_is_refused_before_memory_runs_out(tmp_path):
    error = runaway(tmp_path, "let items = [1]\nrepeat 100 times:\n    set items = items + items\n")
    assert line_of(error) == 7 and "longer than" in str(error)


def test_a_number_squared_in_a_loop_is_refused(tmp_path):
    error = runaway(tmp_path, "let n = 2\nrepeat 100 times:\n    set n = n * n\n")
    assert line_of(error) == 7 and "LUDOLEX_LARGEST_NUMBER" in str(error)


def test_a_stopped_game_waits_for_no_decision(tmp_path):
    ruleset = tiny_game(tmp_path, "turn red:\n    choose spot in [camp, hill] as where\n    while true:\n        pass\n")
    game = Game(ruleset, seed=1)
    with pytest.raises(LimitExceeded):
        game.choose(0)
    assert game.decision is None and not game.finished


def test_functions_that_inline_into_each_other_compile_to_little_code(tmp_path):
    extra = "function f0(x) = x + 1\n" + "".join(
        f"function f{i}(x) = " + " + ".join([f"f{i - 1}(x)"] * 12) + "\n" for i in range(1, 8))
    ruleset = tiny_game(tmp_path, "if f7(1) > 0:\n    draw\n", extra)
    assert ruleset.program.codegen.characters < 50_000


def bot_game(folder: Path, expression: str):
    ruleset = tiny_game(folder, "turn red:\n    choose spot in [camp, hill] as where\n")
    (folder / "rules" / "bots").mkdir()
    (folder / "rules" / "bots" / "odd.yaml").write_text(f"all:\n  where: '{expression}'\n")
    game = Game(ruleset, seed=1)
    return game, make_agent("odd", ruleset, game, 1)


def test_a_bot_value_that_is_not_a_number_is_a_rule_error_at_the_bot_file(tmp_path):
    game, bot = bot_game(tmp_path, "spot")
    with pytest.raises(RuleRuntimeError) as failed:
        bot.choose(game.decision)
    assert failed.value.position.file.endswith("odd.yaml") and "is not a number" in str(failed.value)


def test_a_bot_value_that_never_ends_stops_at_a_limit_at_the_bot_file(tmp_path):
    game, bot = bot_game(tmp_path, "sum(a in numbers(1, 5000) : sum(b in numbers(1, 5000) : 1))")
    with pytest.raises(LimitExceeded) as stopped:
        bot.choose(game.decision)
    assert stopped.value.position.file.endswith("odd.yaml")


def test_rules_that_compile_to_too_much_code_are_refused_at_a_declaration(tmp_path, monkeypatch):
    monkeypatch.setattr(LIMITS, "compiled_characters", 3_000)
    extra = "".join(f"function f{i}(x) = x + {i}\nprocedure p{i}():\n    let n = f{i}(1)\n" for i in range(40))
    with pytest.raises(LudolexError) as refused:
        tiny_game(tmp_path, "p0()\n", extra)
    (diagnostic,) = refused.value.diagnostics
    assert diagnostic.code == "LX106" and diagnostic.position.file.endswith("tiny.rules")


def test_a_long_chain_of_procedures_is_checked_in_linear_time(tmp_path, monkeypatch):
    """Which procedures can stop for a decision was a fixpoint of whole passes: quadratic in the
    length of a chain of calls written backwards. It is now one pass and a propagation."""
    from interpreter.language.statements import Block

    asked = []
    decides = Block.decides
    monkeypatch.setattr(Block, "decides", lambda self, deciding: asked.append(1) or decides(self, deciding))
    chain = "".join(f"procedure p{i}():\n    p{i + 1}()\n" for i in range(300))
    extra = chain + "procedure p300():\n    choose spot in [camp, hill] as where\n"
    ruleset = tiny_game(tmp_path, "turn red:\n    p0()\n", extra)
    assert len(asked) < 3 * 301
    assert Game(ruleset, seed=1).decision.name == "where"


def test_content_with_too_many_components_is_refused_before_any_game(tmp_path, monkeypatch):
    monkeypatch.setattr(LIMITS, "components", 3)
    with pytest.raises(LudolexError) as refused:
        tiny_game(tmp_path, "pass\n")
    (diagnostic,) = refused.value.diagnostics
    assert diagnostic.code == "LX205" and "more than 3 components" in diagnostic.message
    assert diagnostic.position.file.endswith("content.yaml") and diagnostic.position.line == 10


def test_a_score_function_that_fails_is_a_rule_error_at_its_declaration(tmp_path):
    """Found by tools/fuzz.py: `score:` may name any function of one value; called with a player,
    one of a location failed inside networkx, and the game's error named no rule."""
    from interpreter.simulation.runner import play_one

    tiny_game(tmp_path, "turn red:\n    choose spot in [camp, hill] as where\n", "function room(spot) = spot.slots\n")
    (tmp_path / "rules" / "game.yaml").write_text("name: tiny\ncontent: ../cards\nscore: room\n")
    record = play_one(load_ruleset(tmp_path / "rules"), seed=1)
    assert record["reason"] == "error" and record["error"].startswith(f"{tmp_path / 'rules' / 'tiny.rules'}:3:1: `room`")


def test_a_quantifier_over_tops_without_its_argument_is_an_error_not_a_crash(tmp_path):
    """Found by tools/fuzz.py: `select(t in tops() ...)` crashed the compiler."""
    with pytest.raises(LudolexError) as refused:
        tiny_game(tmp_path, "let n = select(t in tops() where t = none)\n")
    assert [d.code for d in refused.value.diagnostics] == ["LX307"]
