"""JSON Schemas of the YAML files a designer writes, exported from the pydantic models."""
from __future__ import annotations

import json
from pathlib import Path

from interpreter.agents.rule_of_thumb import PolicyFile
from interpreter.content.manifest import Manifest
from interpreter.content.models import ContentFile
from interpreter.content.table_view import TableView
from interpreter.scenarios.files import ScenarioFile

SCHEMAS = {
    "content": (ContentFile, "cards/<game>/*.yaml: players, board, pieces"),
    "game": (Manifest, "rulesets/<game>/game.yaml: the manifest of a ruleset"),
    "scenarios": (ScenarioFile, "rulesets/<game>/tests/*.yaml: scenario tests"),
    "bot": (PolicyFile, "rulesets/<game>/bots/*.yaml: a rule-of-thumb bot"),
    "table": (TableView, "rulesets/<game>/table.yaml: what a game's table shows (docs/tables.md)"),
}


def write_schemas(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (model, description) in SCHEMAS.items():
        schema = model.model_json_schema(by_alias=True)
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        schema["title"] = f"ludolex {name} file"
        schema["description"] = description
        path = folder / f"ludolex-{name}.schema.json"
        path.write_text(json.dumps(schema, indent=2) + "\n", encoding="utf-8")
        written.append(path)
    return written
