"""Where the shipped files are: inside the installed package, or in the source tree beside it."""
from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def resource_path(*parts: str) -> Path:
    """`grammar/`, `rulesets/` and `cards/`: packaged in the wheel under interpreter/, or at the repo root."""
    packaged = PACKAGE.joinpath(*parts)
    if packaged.exists():
        return packaged
    return PACKAGE.parent.joinpath(*parts)
