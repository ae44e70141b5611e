"""Collects scenario files (rulesets/<game>/tests/*.yaml) so that plain `pytest` runs them."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.diagnostics.errors import LudolexError, RuleRuntimeError
from interpreter.loading.stages import load_ruleset
from interpreter.scenarios.files import load_scenarios
from interpreter.scenarios.run import ScenarioFailure, run_scenario

_rulesets: dict[Path, object] = {}


def _ruleset_for(path: Path):
    directory = path.parent.parent
    if directory not in _rulesets:
        _rulesets[directory] = load_ruleset(directory)
    return _rulesets[directory]


def pytest_collect_file(parent, file_path: Path):
    if file_path.suffix in (".yaml", ".yml") and file_path.parent.name == "tests" and (file_path.parent.parent / "game.yaml").exists():
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self):
        try:
            loaded = load_scenarios(self.path)
        except LudolexError as error:
            raise self.CollectError(str(error)) from None
        for item in loaded:
            yield ScenarioItem.from_parent(self, name=item.scenario.name, loaded=item)


class ScenarioItem(pytest.Item):
    def __init__(self, *, loaded, **kwargs):
        super().__init__(**kwargs)
        self.loaded = loaded
        for rule in loaded.scenario.rules:
            self.user_properties.append(("rule", rule))

    def runtest(self):
        run_scenario(_ruleset_for(self.path), self.loaded.scenario)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, (ScenarioFailure, LudolexError, RuleRuntimeError)):
            rules = ", ".join(self.loaded.scenario.rules)
            return f"{self.loaded.position}: scenario `{self.name}` ({rules}) failed:\n{excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, self.loaded.position.line - 1, f"scenario: {self.name} [{', '.join(self.loaded.scenario.rules)}]"
