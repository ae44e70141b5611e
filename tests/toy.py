"""Small invented games for the engine's tests: a content file and rules files, laid out as a ruleset."""
import textwrap
from pathlib import Path


def toy_folder(where: Path, content: str, **rules: str) -> Path:
    """`where/cards/content.yaml` and `where/game/` with a manifest and one `NAME.rules` per keyword."""
    (where / "cards").mkdir(parents=True, exist_ok=True)
    (where / "cards" / "content.yaml").write_text(textwrap.dedent(content))
    folder = where / "game"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text("name: toy\ncontent: ../cards\n")
    for name, text in rules.items():
        (folder / f"{name}.rules").write_text(textwrap.dedent(text))
    return folder
