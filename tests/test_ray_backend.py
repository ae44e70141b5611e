"""The Ray backend plays exactly the games local processes play (a local Ray, started by the test)."""
from pathlib import Path

import pytest

from interpreter.simulation.runner import Table
from interpreter.simulation.backends import run

ray = pytest.importorskip("ray", reason="the Ray backend is optional: pip install 'ludolex[ray]'")
CERNUNOS = Path(__file__).resolve().parent.parent / "rulesets" / "cernunos"


@pytest.mark.ray
def test_ray_and_local_processes_play_the_same_games():
    local = sorted(run(CERNUNOS, range(40), Table(), 1), key=lambda r: r["seed"])
    remote = sorted(run(CERNUNOS, range(40), Table(), 2, backend="ray"), key=lambda r: r["seed"])
    assert remote == local
