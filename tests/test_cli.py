"""The `ludolex` command, as a user runs it."""
import json
import os
import re
import shutil
import sys
from pathlib import Path

import processes
from click.testing import CliRunner

from interpreter.engine.runtime import Result
from interpreter.interfaces.cli import main
from interpreter.interfaces.display import result_sentence

ROOT = Path(__file__).resolve().parent.parent
LUDOLEX = Path(sys.executable).with_name("ludolex")  # the command installed next to the Python running the tests


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_validate_a_good_ruleset_exits_0():
    result = run("validate", ROOT / "rulesets" / "cernunos")
    assert result.exit_code == 0 and "no errors" in result.output


def test_validate_a_typo_exits_1_with_file_line_and_column(tmp_path):
    shutil.copytree(ROOT / "rulesets" / "cernunos", tmp_path / "rulesets" / "cernunos")
    shutil.copytree(ROOT / "cards" / "cernunos", tmp_path / "cards" / "cernunos")
    rules = tmp_path / "rulesets" / "cernunos" / "cernunos.rules"
    rules.write_text(rules.read_text().replace("if empty(reserve(you)):", "if emty(reserve(you)):"))
    result = run("validate", tmp_path / "rulesets" / "cernunos")
    assert result.exit_code == 1
    line = next(n for n, text in enumerate(rules.read_text().splitlines(), 1) if "emty(" in text)
    assert f"cernunos.rules:{line}:8: error LX303: unknown function `emty`" in result.output
    assert "did you mean `empty`?" in result.output


def test_validate_a_missing_path_is_a_usage_error(tmp_path):
    assert run("validate", tmp_path / "nothing").exit_code == 2


def test_simulate_keeps_games_resumes_and_reports(tmp_path):
    db = tmp_path / "results.sqlite"
    first = run("simulate", "cernunos", "--games", 20, "--seed", 5, "--jobs", 1, "--db", db)
    assert first.exit_code == 0, first.output
    assert "20 to play" in first.output and "green" in first.output and "%" in first.output
    again = run("simulate", "cernunos", "--games", 30, "--seed", 5, "--jobs", 2, "--db", db)
    assert "20 game(s) already" in again.output and "10 to play" in again.output
    report = run("report", db, "--plots", tmp_path / "plots")
    assert report.exit_code == 0, report.output
    assert (tmp_path / "plots" / "report.html").exists() and "30 game(s)" in report.output
    replayed = run("replay", db, "--game", "cernunos", "--seed", 7)
    assert replayed.exit_code == 0 and "result:" in replayed.output


def test_compare_two_versions_on_the_same_seeds(tmp_path):
    changed = tmp_path / "rulesets" / "cernunos"
    shutil.copytree(ROOT / "rulesets" / "cernunos", changed)
    shutil.copytree(ROOT / "cards" / "cernunos", tmp_path / "cards" / "cernunos")
    tokens = tmp_path / "cards" / "cernunos" / "tokens.yaml"
    tokens.write_text(tokens.read_text().replace("  wolf:\n    per_player: 2", "  wolf:\n    per_player: 4"))
    result = run("compare", ROOT / "rulesets" / "cernunos", changed, "--games", 40, "--jobs", 1, "--db", tmp_path / "c.sqlite")
    assert result.exit_code == 0, result.output
    assert "p" in result.output and "significant" in result.output


def test_play_saves_a_game_that_replays(tmp_path):
    saved = tmp_path / "game.json"
    played = run("play", "cernunos", "--seed", 4, "--save", saved)
    assert played.exit_code == 0, played.output
    assert "result:" in played.output
    replayed = run("replay", saved)
    assert replayed.exit_code == 0, replayed.output
    assert len(json.loads(saved.read_text())["choices"]) == replayed.output.count(". ")


def test_a_human_types_a_label(tmp_path):
    result = CliRunner().invoke(main, ["play", "cernunos", "--human", "green", "--seed", 2], input="tree a1\n" * 200)
    assert "green place: tree a1" in result.output


def test_play_piped_names_the_owner_of_each_piece_and_who_won():
    environment = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR")}
    played = processes.run([LUDOLEX, "play", "cernunos", "--seed", "1"], capture_output=True, text=True, check=False,
                           env=environment, cwd=ROOT)
    assert played.returncode == 0, played.stderr
    pieces = "tree|boar|deer|wolf|squirrel|fox|crow|fire"
    assert re.search(rf"purple ({pieces})\b", played.stdout) and re.search(rf"green ({pieces})\b", played.stdout)
    last = played.stdout.splitlines()[-1]
    assert last.startswith("result: purple wins with the most held (purple 6, green 5), after "), last
    assert "ranking" not in last


def test_result_sentence_of_a_ranking_a_tie_break_and_a_draw():
    scores = {"green": 5, "purple": 6}
    assert result_sentence(Result("purple", scores, "ranking", "most held"), 16) == \
        "purple wins with the most held (purple 6, green 5), after 16 turns"
    assert result_sentence(Result("green", {"green": 6, "purple": 6}, "ranking", "fewest burned_trees"), 17) == \
        "green wins with the fewest burned_trees, breaking a tie (green 6, purple 6), after 17 turns"
    assert result_sentence(Result(None, {"green": 5, "purple": 5}, "draw"), 15) == \
        "a draw: tied at the top (green 5, purple 5), after 15 turns"


def test_result_sentence_of_a_rule_that_ends_the_game():
    assert result_sentence(Result("purple", {}, "purple wins"), 16) == "purple wins, after 16 turns"
    assert result_sentence(Result("purple", {}, "green loses"), 9) == "purple wins (green loses), after 9 turns"
    assert result_sentence(Result(None, {}, "green loses"), 1) == "green loses, after 1 turn"
    assert result_sentence(Result(None, {}, "draw"), 4) == "a draw, after 4 turns"
    assert result_sentence(None, 3) == "unfinished, after 3 turns"


WITHOUT_REPORT_EXTRA = [sys.executable, "-c", ("import sys  # as if the report extra (and scipy) were absent\n"
                                               "sys.modules.update(dict.fromkeys(['scipy', 'numpy', 'matplotlib']))\n"
                                               "from interpreter.interfaces.cli import main; main()")]


def test_without_the_report_extra_only_the_plots_are_missing(tmp_path):
    db = tmp_path / "r.sqlite"
    done = processes.run(WITHOUT_REPORT_EXTRA + ["simulate", "cernunos", "--games", "3", "--jobs", "1", "--db", db],
                         capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "cernunos: 3 game(s): 3 finished" in done.stdout and "Who moved first" in done.stdout
    assert "pip install" not in done.stderr
    report = processes.run(WITHOUT_REPORT_EXTRA + ["report", db], capture_output=True, text=True, cwd=ROOT)
    assert report.returncode == 0, report.stderr
    assert "Win rate [95% CI]" in report.stdout
    plots = processes.run(WITHOUT_REPORT_EXTRA + ["report", db, "--plots", tmp_path / "plots"], capture_output=True,
                          text=True, cwd=ROOT)
    assert plots.returncode == 2 and "Traceback" not in plots.stderr
    assert "this command needs matplotlib, which comes with the `report` extra" in plots.stderr
    assert "pip install 'ludolex[report]'" in plots.stderr
    compared = processes.run(WITHOUT_REPORT_EXTRA + ["compare", "cernunos", "cernunos", "--games", "3", "--jobs", "1",
                                                     "--db", db], capture_output=True, text=True, cwd=ROOT)
    assert compared.returncode == 0, compared.stderr


def test_play_shows_a_human_their_own_hand_and_only_counts_of_the_others_and_of_the_deck():
    from interpreter import Game, load

    played = processes.run([LUDOLEX, "play", "root", "--human", "marquise", "--seed", "1"], input="0\n" * 12,
                           capture_output=True, text=True, cwd=ROOT)
    assert played.returncode == 130 and "game abandoned" in played.stdout  # the input ran out
    eyrie_hand = Game(load("root"), seed=1).state.zones["hand/eyrie"]
    hands = [line for line in played.stdout.splitlines() if line.lstrip().startswith("hand/")]
    assert hands and all("3 hidden" in line for line in hands if "hand/eyrie" in line)
    assert all("hidden" not in line for line in hands if "hand/marquise" in line)
    deck_lines = [line for line in played.stdout.splitlines() if line.lstrip().startswith("deck ")]
    assert deck_lines and all("hidden" in line for line in deck_lines)
    assert not any(card.kind in line for card in eyrie_hand for line in hands if "hand/eyrie" in line)


def test_watching_bots_shows_only_what_is_public_unless_all_is_asked():
    public = processes.run([LUDOLEX, "play", "root", "--seed", "1"], capture_output=True, text=True, cwd=ROOT)
    everything = processes.run([LUDOLEX, "play", "root", "--seed", "1", "--all"], capture_output=True, text=True,
                               cwd=ROOT)
    assert public.returncode == everything.returncode == 0
    first_hand = next(line for line in public.stdout.splitlines() if line.lstrip().startswith("hand/eyrie"))
    assert "hidden" in first_hand
    first_hand_all = next(line for line in everything.stdout.splitlines() if line.lstrip().startswith("hand/eyrie"))
    assert "hidden" not in first_hand_all


def test_play_without_a_seed_deals_a_new_game_and_prints_the_seed_that_plays_it_again():
    first, second = run("play", "cernunos"), run("play", "cernunos")
    seeds = [re.search(r"^Cernunos, seed (\d+)$", played.output, re.MULTILINE).group(1) for played in (first, second)]
    assert seeds[0] != seeds[1]
    assert run("play", "cernunos", "--seed", seeds[0]).output == first.output


def test_play_seats_the_players_named_and_refuses_a_human_who_is_not_at_the_table():
    # a designer plays the table they simulate: here two of Root's expansion factions, not the default four
    watched = run("play", "root", "--players", "eyrie,riverfolk", "--seed", 3, "--bots", "rule_of_thumb")
    assert watched.exit_code == 0, watched.output
    assert re.search(r"result: (eyrie|riverfolk) wins", watched.output)
    assert "marquise" not in watched.output.split("result:")[-1]
    refused = run("play", "root", "--players", "eyrie,riverfolk", "--human", "marquise")
    assert refused.exit_code == 2 and "the players at the table are eyrie, riverfolk" in refused.output
    assert run("play", "root", "--players", "marquise,clockwork").exit_code == 2  # CM-1: never at one table


def test_a_table_the_rules_refuse_is_said_once_before_any_game():
    # SU-1: five corner factions need the Advanced Setup, which the seeds do not give (`refuse` in the rules)
    refused = run("simulate", "root", "--players", "marquise,eyrie,duchy,hundreds,keepers", "--games", 2)
    assert refused.exit_code == 2 and "--players: five factions or more start in a corner" in refused.output
    assert "seed 0" not in refused.output


def test_version_and_h_for_help_everywhere():
    from importlib.metadata import version

    assert run("--version").output == f"ludolex {version('ludolex')}\n"
    for command in ([], ["validate"], ["play"], ["variant", "new"], ["test"]):
        shown = run(*command, "-h")
        assert shown.exit_code == 0 and shown.output.startswith("Usage: ") and "-h, --help" in shown.output


NOTED = """
players: [red, blue]
board:
  grid: {columns: 2, rows: 1}
pieces:
  stone: {per_player: 2, starts_in: supply, properties: {provisional: M1}}
"""
NOTED_RULES = """
zone supply per player
play:
    turn red:
        choose s in locations as put
        move top(supply(you)) to s
    win red
"""


def test_validate_leaves_notes_out_when_asked_and_from_github_annotations(tmp_path):
    from toy import toy_folder

    folder = toy_folder(tmp_path, NOTED, toy=NOTED_RULES)
    assert "note LX" in run("validate", folder).output  # a provisional value, worth knowing, never a failure
    quiet = run("validate", folder, "--no-notes")
    assert quiet.exit_code == 0 and quiet.output == "ok: no errors\n1 note(s) left out (--notes shows them)\n"
    assert run("validate", folder, "--format", "github").output == ""  # annotations: the problems to fix
    assert run("validate", folder, "--format", "github", "--notes").output.startswith("::notice ")
    assert run("validate", folder, "--format", "json", "--no-notes").output == ""


def scenario_game(tmp_path, scenarios: str) -> Path:
    from toy import toy_folder

    folder = toy_folder(tmp_path, NOTED.replace(", properties: {provisional: M1}", ""), toy=NOTED_RULES)
    (folder / "tests").mkdir()
    (folder / "tests" / "put.yaml").write_text(scenarios)
    return folder


PUT = """scenarios:
  - {name: red puts a stone on a1, rules: [T-1], choices: [put: a1], expect: {board: {a1: [red stone]}}}
  - {name: red puts a stone on b1, rules: [T-2], choices: [put: b1], expect: {board: {b1: [red stone]}}}
  - {name: red wins at once, rules: [T-3], choices: [put: a1], expect: {winner: blue}}
  - {name: red wins in the end, rules: [T-3], choices: [put: b1], expect: {winner: blue}}
"""


def ludolex_test(*args, cwd, command=(LUDOLEX,)):
    return processes.run([*command, "test", *map(str, args)], capture_output=True, text=True, cwd=cwd)


def test_ludolex_test_runs_several_games_chosen_by_words_and_stops_at_the_first_failure(tmp_path):
    one, other = scenario_game(tmp_path / "one", PUT), scenario_game(tmp_path / "other", PUT)
    both = ludolex_test(one, other, "-k", "PUTS or T-2", cwd=tmp_path)  # a rule ID, or a word of the name, any case
    assert both.returncode == 0, both.stdout + both.stderr
    assert both.stdout.splitlines() == ["one/game/tests/put.yaml: 2 passed", "other/game/tests/put.yaml: 2 passed",
                                        "4 passed, 0 failed, 4 not chosen (-k)"]
    first = ludolex_test(one, other, "-x", "-q", cwd=tmp_path)
    assert first.returncode == 1 and first.stdout.endswith("\n2 passed, 1 failed\n"), first.stdout
    assert first.stdout.startswith("FAIL ") and "red wins at once" in first.stdout
    assert ludolex_test(one, "-k", "nothing", cwd=tmp_path).returncode == 1  # no scenario chosen
    refused = ludolex_test(one, "-k", "wins and", cwd=tmp_path)
    assert refused.returncode == 2 and "-k `wins and`: a word expected at the end" in refused.stderr
    assert ludolex_test(one, "no_such_game", cwd=tmp_path).returncode == 2


def test_ludolex_test_hands_the_run_to_pytest_with_what_follows_two_dashes(tmp_path):
    one, other = scenario_game(tmp_path / "one", PUT), scenario_game(tmp_path / "other", PUT)
    listed = ludolex_test(one, "-k", "wins", "--", "--collect-only", cwd=tmp_path)
    assert listed.returncode == 0 and "2/4 tests collected (2 deselected)" in listed.stdout, listed.stdout
    first = ludolex_test(one, other, "-x", "--", "-p", "no:cacheprovider", cwd=tmp_path)
    assert first.returncode == 1 and "1 failed, 2 passed" in first.stdout, first.stdout


WITHOUT_PYTEST = [sys.executable, "-c", ("import sys  # as if pytest (the test extra) were absent\n"
                                         "sys.modules['pytest'] = None\n"
                                         "from interpreter.interfaces.cli import main; main()")]


def test_ludolex_test_needs_pytest_only_for_what_follows_two_dashes(tmp_path):
    folder = scenario_game(tmp_path, PUT)
    done = ludolex_test(folder, "-k", "puts", cwd=tmp_path, command=WITHOUT_PYTEST)
    assert done.returncode == 0 and done.stdout.endswith("2 passed, 0 failed, 2 not chosen (-k)\n"), done.stderr
    refused = ludolex_test(folder, "--", "-n", "2", cwd=tmp_path, command=WITHOUT_PYTEST)
    assert refused.returncode == 2 and "pip install 'ludolex[test]'" in refused.stderr


def test_watching_bots_shows_the_board_at_the_start_and_the_end_each_move_between_and_how_many():
    watched = run("play", "cernunos", "--seed", 1)
    assert watched.exit_code == 0, watched.output
    lines = watched.output.splitlines()
    assert lines[1] == "players: green (bot random), purple (bot random)"
    moves = [line for line in lines if re.match(r"(green|purple) (place|push|crow|swap|grow|first|last): ", line)]
    assert len(moves) > 20 and lines[-2] == f"game over after {len(moves)} move(s)" and lines[-1].startswith("result: ")
    tops = sum(line.startswith("┌") for line in lines)  # the board's first line
    assert tops == 2
    every = run("play", "cernunos", "--seed", 1, "--every-move")
    assert sum(line.startswith("┌") for line in every.output.splitlines()) == len(moves) + 1
