"""The VS Code extension of editors/vscode: what its package.json names exists, and its client starts `ludolex lsp`.

Built and packaged with node in the usual way (`npm install`, `npx @vscode/vsce package`); read here as text."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from interpreter.interfaces.cli import main as ludolex

EXTENSION = Path(__file__).resolve().parents[1] / "editors" / "vscode"


@pytest.fixture(scope="module")
def manifest() -> dict:
    return json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def client() -> str:
    return (EXTENSION / "extension.js").read_text(encoding="utf-8")


def test_the_files_package_json_names_exist(manifest):
    contributes = manifest["contributes"]
    named = [manifest["main"]] + [c["configuration"] for c in contributes["languages"]]
    named += [g["path"] for g in contributes["grammars"]]
    for path in named:
        assert (EXTENSION / path).is_file(), path


def test_rules_files_are_the_ludolex_language_coloured_by_its_grammar(manifest):
    [language] = manifest["contributes"]["languages"]
    assert (language["id"], language["extensions"]) == ("ludolex", [".rules"])
    [grammar] = manifest["contributes"]["grammars"]
    textmate = json.loads((EXTENSION / grammar["path"]).read_text(encoding="utf-8"))
    assert grammar["language"] == "ludolex"
    assert grammar["scopeName"] == textmate["scopeName"] == "source.ludolex"


def test_the_client_starts_ludolex_lsp_with_the_command_of_the_setting(manifest, client):
    setting = manifest["contributes"]["configuration"]["properties"]["ludolex.command"]
    assert setting["default"] == "ludolex"
    assert re.search(r'getConfiguration\("ludolex"\)\.get\("command"\)', client)
    assert re.search(r'args: \["lsp"\]', client)
    assert "lsp" in ludolex.commands, "the extension starts `ludolex lsp`: the command line has no `lsp`"


def test_the_client_serves_rules_files_and_the_games_yaml(client):
    selector = re.search(r"const DOCUMENTS = \[(.*?)\];", client, re.S).group(1)
    assert '{ scheme: "file", language: "ludolex" }' in selector
    for folder in ("cards", "rulesets"):
        assert f'language: "yaml", pattern: "**/{folder}/**/*.yaml"' in selector


def test_the_restart_command_is_declared_and_registered(manifest, client):
    [command] = manifest["contributes"]["commands"]
    assert f'registerCommand("{command["command"]}"' in client


def test_comments_brackets_and_indentation_follow_the_language():
    configuration = json.loads((EXTENSION / "language-configuration.json").read_text(encoding="utf-8"))
    assert configuration["comments"] == {"lineComment": "#"}
    assert configuration["brackets"] == [["(", ")"], ["[", "]"]]  # the brackets a line may go on inside
    opens_a_block = re.compile(configuration["indentationRules"]["increaseIndentPattern"])
    assert opens_a_block.match("procedure activate(t):")
    assert opens_a_block.match("    if twice and on_top(t):        # CN-55: once more")
    assert not opens_a_block.match("# CN-5: every token starts here")
    assert not opens_a_block.match("    move t to burned")
    closes_a_block = re.compile(configuration["indentationRules"]["decreaseIndentPattern"])
    assert closes_a_block.match("    else:") and closes_a_block.match("    elif x > 1:")
    assert not closes_a_block.match("    let a = if b then 1 else 2")


def test_what_npm_and_vsce_make_stays_out_of_the_repository():
    ignored = (EXTENSION / ".gitignore").read_text(encoding="utf-8").split()
    assert {"node_modules/", "*.vsix"} <= set(ignored)
    assert (EXTENSION / ".vscodeignore").is_file()
