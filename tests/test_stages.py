"""Loading as a pipeline: each stage runs alone on the previous stage's result, with its own diagnostics."""
import pytest

from interpreter import LudolexError, load
from interpreter.loading import stages
from test_checker import CONTENT, FLOW, make_game


def first_four(folder):
    return stages.parse_rules(stages.build_board(stages.read_content(stages.read_manifest(folder))))


def test_the_stages_in_a_row_give_the_ruleset_load_gives(tmp_path):
    folder = make_game(tmp_path, FLOW)
    done = stages.compile_rules(stages.check_names(first_four(folder)))
    ruleset = load(folder)
    assert done.diagnostics == () and done.manifest.name == ruleset.name == "toy"
    assert sorted(done.program.functions) == sorted(ruleset.program.functions) == ["stones"]
    assert done.board.locations == ruleset.board.locations


def test_parsing_alone_reports_a_syntax_error_without_checking_names(tmp_path):
    parsed = first_four(make_game(tmp_path, FLOW + "function broken(p) = count(x in )\nfunction f(p) = nobody(p)\n"))
    assert [(d.code, d.position.line) for d in parsed.diagnostics] == [("LX101", 8)]
    assert [d.name for d in parsed.declarations if hasattr(d, "name")][-1] == "f"  # the next declaration is kept
    checked = stages.check_names(parsed)
    assert checked.symbols.functions == {"stones": 1, "f": 1}


def test_an_error_in_a_piece_kind_leaves_out_that_kind_and_the_rules_are_still_checked(tmp_path):
    content = CONTENT.replace("per_player: 4", "per_player: four")
    rules = FLOW + "function broken(p) = count(x in )\nfunction near(s) = size(adjacnt(s, orthogonal))\n"
    parsed = first_four(make_game(tmp_path, rules, content))
    assert parsed.content.lost_kinds == {"stone"} and "stone" not in parsed.content.pieces
    assert parsed.board is not None
    compiled = stages.compile_rules(stages.check_names(parsed))
    assert sorted(d.code for d in compiled.diagnostics if d.severity == "error") == ["LX101", "LX205", "LX303"]  # none about `stone`
    with pytest.raises(LudolexError) as error:
        load(parsed.directory)
    assert sorted(d.code for d in error.value.diagnostics) == ["LX101", "LX205", "LX303"]


def test_a_content_error_outside_the_piece_kinds_leaves_no_content_and_the_rules_are_still_parsed(tmp_path):
    content = CONTENT.replace("columns: 3", "columns: three")
    parsed = first_four(make_game(tmp_path, FLOW + "function broken(p) = count(x in )\n", content))
    assert parsed.content is None and parsed.board is None
    assert sorted(d.code for d in parsed.diagnostics) == ["LX101", "LX205"]
    assert stages.compile_rules(stages.check_names(parsed)).program is None


def test_checking_names_finds_a_clash_before_anything_is_compiled(tmp_path):
    checked = stages.check_names(first_four(make_game(tmp_path, FLOW + "variable stones = 0\n")))
    assert [d.code for d in checked.diagnostics] == ["LX301"]
    assert not hasattr(checked, "program")


def test_a_stage_keeps_the_previous_result_unchanged(tmp_path):
    checked = stages.check_names(first_four(make_game(tmp_path, FLOW)))
    used_before = set(checked.symbols.used)
    stages.compile_rules(checked)
    assert checked.symbols.used == used_before  # compiling notes what is used in its own copy
