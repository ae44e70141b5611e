"""The engine's layering (tools/layers.py): lower packages never import higher ones, and no import circles."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import layers  # noqa: E402


def package(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / "interpreter" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def test_the_engine_holds_its_layers():
    assert layers.problems(ROOT) == []


def test_a_lower_layer_importing_a_higher_one_is_reported(tmp_path):
    root = package(tmp_path, {"__init__.py": "", "engine/__init__.py": "", "interfaces/__init__.py": "",
                              "interfaces/cli.py": "", "engine/state.py": "def f():\n    from ..interfaces import cli\n"})
    assert layers.problems(root) == [
        "interpreter.engine.state imports interpreter.interfaces.cli: `engine` is below `interfaces`"]


def test_siblings_of_one_layer_are_independent(tmp_path):
    root = package(tmp_path, {"__init__.py": "", "engine/__init__.py": "", "content/__init__.py": "",
                              "content/models.py": "from interpreter.engine import state\n", "engine/state.py": ""})
    assert layers.problems(root) == [
        "interpreter.content.models imports interpreter.engine.state: `content` and `engine` are independent"]


def test_a_circle_inside_a_package_is_reported(tmp_path):
    root = package(tmp_path, {"__init__.py": "", "language/__init__.py": "",
                              "language/parser.py": "from . import scope\n",
                              "language/scope.py": "def words():\n    from .parser import reserved\n"})
    assert layers.problems(root) == [
        "import circle: interpreter.language.parser -> interpreter.language.scope -> interpreter.language.parser"]


def test_a_package_in_no_layer_is_reported(tmp_path):
    root = package(tmp_path, {"__init__.py": "", "misc/__init__.py": ""})
    assert layers.problems(root) == ["interpreter.misc: the package `misc` is in no layer of tools/layers.py"]
