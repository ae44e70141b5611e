"""The documentation's examples as a reader copies them: the tutorial's game checks, plays and passes
its scenarios; the variants of the language reference name files and kinds that exist."""
import os
import re
import sys
from pathlib import Path

import processes
from ruamel.yaml import YAML

from interpreter import load

ROOT = Path(__file__).resolve().parent.parent
LUDOLEX = Path(sys.executable).with_name("ludolex")


def test_the_tutorials_game_checks_plays_and_passes_its_scenarios(tmp_path):
    tutorial = (ROOT / "docs" / "tutorial.md").read_text()
    written = re.findall(r"^`((?:rulesets|cards)/pebbles/[\w/]+\.(?:yaml|rules))`[^\n]*\n\n```\w+\n(.*?)```", tutorial,
                         re.S | re.M)
    assert len(written) == 4  # the manifest, the content, the rules, the scenarios
    for name, text in written:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)

    def ludolex(*args):
        return processes.run([LUDOLEX, *args], capture_output=True, text=True, cwd=tmp_path)

    checked = ludolex("validate", "rulesets/pebbles")
    assert checked.returncode == 0 and checked.stdout == "ok: no errors\n", checked.stdout
    tested = ludolex("test", "pebbles")
    assert tested.returncode == 0 and "2 passed" in tested.stdout, tested.stdout + tested.stderr
    played = ludolex("play", "pebbles", "--seed", "3")
    assert played.returncode == 0 and "game over after 8 move(s)" in played.stdout, played.stdout + played.stderr


def test_the_variants_of_the_language_reference_name_what_exists():
    reference = (ROOT / "docs" / "language.md").read_text()
    section = reference[reference.index("### Variants"):reference.index("### Players")]
    manifests = [YAML(typ="safe").load(block) for block in re.findall(r"```yaml\n(.*?)```", section, re.S)]
    assert len(manifests) == 3
    for manifest in manifests:
        folder = ROOT / "rulesets" / manifest["name"]  # where it would be: paths are read from there
        content = manifest.get("content", [])
        for path in [*([content] if isinstance(content, str) else content), *manifest.get("rules", []),
                     *manifest.get("add", [])]:
            assert Path(os.path.normpath(folder / path)).exists(), f"{manifest['name']}: {path}"  # (folder or not)
        if "base" in manifest:
            base = load(ROOT / "rulesets" / manifest["base"])
            assert set(manifest.get("overrides") or {}) <= set(base.content.pieces)
            assert all(any(f.name == name for f in base.rule_files + base.content.files)
                       for name in manifest.get("remove", []))
