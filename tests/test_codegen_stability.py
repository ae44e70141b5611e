"""Generated code is named per declaration, so a declaration that an edit leaves alone is generated
again as the same source, and its compiled code is reused (language/codegen.py): what keeps the
language server's diagnostics quick after an edit (tools/bench_lsp.py)."""
from toy import toy_folder

from interpreter import load
from interpreter.language import codegen

CONTENT = """
players: [red, blue]
board:
  grid: {columns: 2, rows: 1, connections: [orthogonal]}
pieces:
  stone: {per_player: 3, starts_in: supply}
"""

RULES = """
zone supply per player
function spare(p) = {spare}
function stones(p) = count(s in locations where top(s) != none and top(s).owner = p and "x" != "y")
play:
    turn red:
        choose s in locations where top(s) = none as put
        move top(supply(you)) to s
    end game ranked by most stones
"""
SIMPLE = "size(supply(p))"
LONGER = 'size(supply(p)) + count(s in locations where top(s) = none and "a" != "b")'  # more generated names


def sources(tmp_path, spare: str) -> dict[str, str]:
    folder = toy_folder(tmp_path / str(len(spare)), CONTENT, toy=RULES.format(spare=spare))
    return load(folder).program.codegen.sources


def test_an_edit_to_one_function_leaves_the_code_generated_for_the_next_one_as_it_was(tmp_path):
    before, after = sources(tmp_path, SIMPLE), sources(tmp_path, LONGER)
    stones = [name for name in before if "stones" in name]
    assert stones and all(after.get(name) == before[name] for name in stones)


def test_loading_the_same_rules_again_compiles_nothing_again(tmp_path):
    sources(tmp_path, LONGER)
    kept = len(codegen._COMPILED)
    sources(tmp_path, LONGER)
    assert len(codegen._COMPILED) == kept
