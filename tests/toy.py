"""Small invented games for the engine's tests: a content file and rules files, laid out as a ruleset."""
import textwrap
from pathlib import Path


def toy_folder(where: Path, content: str, **rules: str) -> Path:
    """`where/cards/content.yaml` and `where/game/` with a manifest and one `NAME.rules` per keyword;
    `where` is their project (it holds `.git`), so that the manifest may name `../cards`."""
    (where / "cards").mkdir(parents=True, exist_ok=True)
    (where / ".git").mkdir(exist_ok=True)
    (where / "cards" / "content.yaml").write_text(textwrap.dedent(content))
    folder = where / "game"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text("name: toy\ncontent: ../cards\n")
    for name, text in rules.items():
        (folder / f"{name}.rules").write_text(textwrap.dedent(text))
    return folder


CHIPS_CONTENT = """\
    players: [red, blue]
    board:
      locations: {}
    pieces:
      chip: {per_player: 3, starts_in: supply}
    """  # red and blue, three chips each in their supply, and no board


def chips_game(where: Path) -> Path:
    """A game without a board: red and blue in turn bet a chip of their supply into the pot, or pass
    and lose."""
    folder = toy_folder(where, CHIPS_CONTENT, chips="""\
        zone supply per player
        zone pot
        variable current = red

        play:
            repeat:
                turn current:
                    choose chip in pieces(supply(you)) as bet or pass
                    if chip = none:
                        win next(you)
                    move chip to pot
                set current = next(current)
        """)
    return folder
