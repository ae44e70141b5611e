"""A bot file's mistakes where they are written: inside a block scalar (`|-`), past a quote, on a plain line."""
from click.testing import CliRunner
from toy import toy_folder

from interpreter.interfaces.cli import main

CONTENT = """
players: [red, blue]
board:
  grid: {columns: 2, rows: 1}
pieces:
  stone: {per_player: 2, starts_in: supply}
"""
RULES = """
zone supply per player
play:
    turn red:
        choose s in locations as put
        move top(supply(you)) to s
    win red
"""
BOT = """\
all:
  put: |-
    (if s = a1 then 2
     else size(pieces(supply(you)))
        + sise(pieces(s)))
players:
  red:
    put: '1 + count(t in pieces(s) where t is stnoe)'
  blue:
    put: |

      1
      + nope
"""


def test_a_mistake_inside_a_block_is_reported_on_its_own_line_and_column(tmp_path):
    folder = toy_folder(tmp_path, CONTENT, toy=RULES)
    (folder / "bots").mkdir()
    (folder / "bots" / "b.yaml").write_text(BOT)
    result = CliRunner().invoke(main, ["validate", str(folder)])
    assert result.exit_code == 1
    found = [line.partition("b.yaml:")[2] for line in result.output.splitlines() if " error " in line]
    assert found == ["5:11: error LX303: unknown function `sise`",
                     "8:42: error LX309: `is stnoe`: `stnoe` is neither a kind of piece nor a trait",
                     "13:7: error LX101: unexpected `+`; expected end of line or a name"], result.output
    assert "    " + "        + sise(pieces(s)))\n" + " " * 14 + "^^^^" in result.output  # the caret under the mistake
