"""`ludolex validate --format ...`: the same diagnostics for people, for scripts and for CI."""
import json

from interpreter.diagnostics.codes import CODES
from interpreter.diagnostics.diagnostic import Diagnostic, Position
from interpreter.diagnostics.formats import render

DIAGNOSTICS = [
    Diagnostic("LX302", "unknown name `stoen`", Position("rules/toy.rules", 3, 7, 5), hint="did you mean `stone`?"),
    Diagnostic("LX325", "procedure `spare` is never used", Position("rules/toy.rules", 9, 1, 5)),
]


def test_text_shows_the_line_a_caret_and_a_summary():
    text = render(DIAGNOSTICS, "text")
    assert "rules/toy.rules:3:7: error LX302: unknown name `stoen`" in text
    assert "hint: did you mean `stone`?" in text and text.endswith("1 error(s), 1 warning(s)")
    assert "\033[" not in text


def test_json_lines_one_object_each():
    lines = [json.loads(line) for line in render(DIAGNOSTICS, "json").splitlines()]
    assert lines[0] == {"code": "LX302", "severity": "error", "message": "unknown name `stoen`",
                        "hint": "did you mean `stone`?", "file": "rules/toy.rules", "line": 3, "column": 7, "end_column": 12}
    assert lines[1]["severity"] == "warning"


def test_github_annotations():
    first, second = render(DIAGNOSTICS, "github").splitlines()
    assert first == "::error file=rules/toy.rules,line=3,col=7,endColumn=12,title=LX302::unknown name `stoen` (did you mean `stone`?)"
    assert second.startswith("::warning file=rules/toy.rules,line=9,col=1")


def test_sarif_2_1_0_lists_every_rule_and_each_result_with_its_region():
    log = json.loads(render(DIAGNOSTICS, "sarif"))
    assert log["version"] == "2.1.0"
    run = log["runs"][0]
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == list(CODES)
    result = run["results"][0]
    assert result["ruleId"] == "LX302" and result["level"] == "error"
    assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == "LX302"
    region = result["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 3, "startColumn": 7, "endColumn": 12}
