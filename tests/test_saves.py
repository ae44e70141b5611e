"""An adventure saved as it goes and resumed: `ludolex play GAME --save FILE`, later `--load FILE`."""
import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import processes
import pytest
from click.testing import CliRunner
from processes import CEILING, started, wait_for
from toy import toy_folder

from interpreter import load
from interpreter.interfaces.cli import main
from interpreter.play import saves
from interpreter.play.saves import NotASave, SaveError, read_save, restore

ROOT = Path(__file__).resolve().parent.parent
LUDOLEX = Path(sys.executable).with_name("ludolex")


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def abandoned(tmp_path, moves=3, seed=3) -> Path:
    """A Cernunos game with green typed at the terminal, abandoned (end of input) after `moves` of green's choices."""
    path = tmp_path / "adventure.json"
    result = run("play", "cernunos", "--human", "green", "--seed", seed, "--save", path, input="0\n" * moves)
    assert result.exit_code == 130, result.output
    return path


def test_a_bot_game_is_saved_after_every_decision(tmp_path, monkeypatch):
    written = []
    atomic = saves.write_atomically
    monkeypatch.setattr(saves, "write_atomically", lambda path, text: (written.append(json.loads(text)), atomic(path, text)))
    path = tmp_path / "game.json"
    played = run("play", "cernunos", "--seed", 4, "--save", path)
    assert played.exit_code == 0, played.output
    assert played.output.rstrip().endswith(f"saved to {path}")
    final = json.loads(path.read_text())
    assert [len(w["choices"]) for w in written] == list(range(1, len(final["choices"]) + 1))  # one write a decision
    assert all(w["choices"] == final["choices"][:len(w["choices"])] for w in written)
    assert written[-1] == final and final["result"] is not None and all(w["result"] is None for w in written[:-1])
    assert final["format"] == saves.SAVE_FORMAT and final["version"] == load("cernunos").content_hash()
    assert len(final["decisions"]) == len(final["choices"])
    assert final["decisions"][0][:2] == ["green", "place"]
    assert [f"{p} {n}: {label}" for p, n, label in final["decisions"]][:3] == \
        [line.split(". ", 1)[1] for line in run("replay", path).output.splitlines() if ". " in line][:3]
    assert not [p for p in tmp_path.iterdir() if p != path]  # no temporary file left behind


def test_a_game_abandoned_midway_says_where_it_is_saved_and_goes_on_from_there(tmp_path):
    path = abandoned(tmp_path)
    saved = json.loads(path.read_text())
    count = len(saved["choices"])
    assert count >= 3 and saved["result"] is None  # green's three choices and purple's between them
    output = run("play", "cernunos", "--human", "green", "--seed", 3, "--save", path, input="0\n" * 3).output
    assert f"saved to {path} after {count} choice(s); continue with `ludolex play cernunos --load {path} --human green`" \
        in output
    assert run("replay", path).exit_code == 0  # a save in progress replays too
    resumed = run("play", "cernunos", "--load", path)
    assert resumed.exit_code == 0, resumed.output
    assert f"{path}: {count} choice(s) replayed" in resumed.output and "note" not in resumed.output
    assert "result:" in resumed.output and f"saved to {path}" in resumed.output
    finished = json.loads(path.read_text())  # the adventure goes on in its file
    assert finished["choices"][:count] == saved["choices"] and finished["decisions"][:count] == saved["decisions"]
    assert len(finished["choices"]) > count and finished["result"] is not None
    again = run("play", "cernunos", "--load", path)  # over: shown, and the file left as it is
    assert again.exit_code == 0 and "already over" in again.output and "saved to" not in again.output
    assert json.loads(path.read_text()) == finished


def test_load_with_save_goes_on_in_the_other_file(tmp_path):
    path = abandoned(tmp_path)
    before = path.read_bytes()
    other = tmp_path / "other.json"
    resumed = run("play", "cernunos", "--load", path, "--save", other, "--human", "purple", input="0\n" * 2)
    assert resumed.exit_code == 130 and f"saved to {other} after" in resumed.output
    assert path.read_bytes() == before
    assert json.loads(other.read_text())["choices"][:len(json.loads(before)["choices"])] == json.loads(before)["choices"]


@pytest.mark.parametrize("flags", [["--seed", "3"], ["--seed", "0"], ["--option", "x=y"]])
def test_seed_and_options_come_from_the_save(tmp_path, flags):
    path = abandoned(tmp_path)
    result = run("play", "cernunos", "--load", path, *flags)
    assert result.exit_code == 2 and f"{flags[0]} with --load" in result.output


def changed_cernunos(tmp_path, change=lambda rules: rules + "\n# a comment: another version, the same game\n") -> Path:
    folder = tmp_path / "rulesets" / "cernunos"
    shutil.copytree(ROOT / "rulesets" / "cernunos", folder)
    shutil.copytree(ROOT / "cards" / "cernunos", tmp_path / "cards" / "cernunos")
    rules = folder / "cernunos.rules"
    rules.write_text(change(rules.read_text()))
    return folder


def test_rules_changed_in_a_way_the_save_can_follow_replay_with_a_note(tmp_path):
    path = abandoned(tmp_path)
    saved = json.loads(path.read_text())
    folder = changed_cernunos(tmp_path)
    version = load(folder).content_hash()
    assert version != saved["version"]
    resumed = run("play", folder, "--load", path)
    assert resumed.exit_code == 0, resumed.output
    assert (f"note: the rules of cernunos changed since the save (version {saved['version']}, now {version}); "
            "the adventure was replayed under the new ones") in resumed.output
    assert "result:" in resumed.output
    finished = json.loads(path.read_text())
    assert finished["version"] == version and finished["choices"][:len(saved["choices"])] == saved["choices"]


def test_a_choice_is_found_by_its_label_when_the_options_moved(tmp_path):
    saved = json.loads(abandoned(tmp_path).read_text())
    ruleset = load("cernunos")
    moved = dict(saved, version="0" * 16, choices=[0] + saved["choices"][1:] if saved["choices"][0] else [1] + saved["choices"][1:])
    restored = restore(ruleset, moved, "moved.json")
    assert restored.game.log == saved["choices"] and restored.moved == 1 and "changed since the save" in restored.note
    same_version = restore(ruleset, dict(moved, version=saved["version"]), "moved.json")
    assert same_version.game.log == saved["choices"] and "ludolex itself changed" in same_version.note
    assert restore(ruleset, saved, "saved.json").note is None


def test_a_recorded_choice_no_longer_offered_is_a_clear_error(tmp_path):
    path = abandoned(tmp_path)
    saved = json.loads(path.read_text())
    saved["version"] = "0123456789abcdef"
    player, name, _ = saved["decisions"][1]
    saved["decisions"][1][2] = "fire z9"
    path.write_text(json.dumps(saved))
    before = path.read_bytes()
    result = run("play", "cernunos", "--load", path)
    assert result.exit_code == 1
    assert result.output.count("\n") == 1 and "Traceback" not in result.output
    assert f"{path}: choice 2 of {len(saved['choices'])}: the save recorded {player} `{name}`: fire z9, but the rules now ask " \
        f"{player} `{name}` with options: " in result.output
    assert "the rules changed since the save (version 0123456789abcdef, now " in result.output
    assert "in a way it cannot follow" in result.output
    assert path.read_bytes() == before


def test_a_save_that_goes_on_after_the_game_ended_is_a_clear_error(tmp_path):
    path = tmp_path / "game.json"
    assert run("play", "cernunos", "--seed", 4, "--save", path).exit_code == 0
    saved = json.loads(path.read_text())
    saved.update(version="0" * 16, choices=saved["choices"] + [0], decisions=saved["decisions"] + [["green", "place", "tree a1"]])
    path.write_text(json.dumps(saved))
    result = run("play", "cernunos", "--load", path)
    assert result.exit_code == 1
    assert f"choice {len(saved['choices'])} of {len(saved['choices'])}: the save recorded green `place`: tree a1, " \
           "but the rules now ask nothing: the game is over" in result.output


def test_a_changed_rule_that_asks_another_decision_is_a_clear_error(tmp_path):
    path = abandoned(tmp_path)
    folder = changed_cernunos(tmp_path, lambda rules: rules.replace(" as place", " as put"))
    result = run("play", folder, "--load", path)
    assert result.exit_code == 1, result.output
    assert "choice 1 of" in result.output and "the save recorded green `place`" in result.output
    assert "the rules now ask green `put`" in result.output and "the rules changed since the save" in result.output


@pytest.mark.parametrize("damage", [
    lambda text: text[: len(text) // 2],  # cut short
    lambda text: "not json",
    lambda text: "[1, 2, 3]",
    lambda text: b"\xff\xfe{",
    lambda text: json.dumps(dict(json.loads(text), format=99)),
    lambda text: json.dumps(dict(json.loads(text), version=7)),
    lambda text: json.dumps(dict(json.loads(text), decisions=json.loads(text)["decisions"][1:])),
    lambda text: json.dumps(dict(json.loads(text), decisions=[["green", "place", 3]] * len(json.loads(text)["choices"]))),
    lambda text: json.dumps(dict(json.loads(text), choices="many")),
    lambda text: json.dumps(dict(json.loads(text), players=["green", "nobody"])),
], ids=["cut", "not-json", "list", "not-utf8", "newer-format", "version", "decisions-count", "label-not-text",
        "choices", "players"])
def test_a_damaged_file_is_refused_in_one_line_and_left_as_it_is(tmp_path, damage):
    path = abandoned(tmp_path)
    damaged = damage(path.read_text())
    path.write_bytes(damaged if isinstance(damaged, bytes) else damaged.encode())
    before = path.read_bytes()
    result = run("play", "cernunos", "--load", path)
    assert result.exit_code == 2, result.output
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1 and str(path) in result.output
    assert path.read_bytes() == before and sorted(tmp_path.iterdir()) == [path]


def test_a_file_too_large_is_refused(tmp_path, monkeypatch):
    path = abandoned(tmp_path)
    monkeypatch.setattr(saves, "MAX_SAVE_BYTES", 100)
    result = run("play", "cernunos", "--load", path)
    assert result.exit_code == 2 and "larger than 100 bytes" in result.output


def test_a_missing_file_is_refused(tmp_path):
    result = run("play", "cernunos", "--load", tmp_path / "nothing.json")
    assert result.exit_code == 2 and "not a file" in result.output


def test_a_save_of_another_game_is_refused(tmp_path):
    path = abandoned(tmp_path)
    before = path.read_bytes()
    result = run("play", "root", "--load", path)
    assert result.exit_code == 2 and f"{path}: a saved game of cernunos, not of root" in result.output
    assert path.read_bytes() == before


def test_replay_checks_the_new_fields(tmp_path):
    path = abandoned(tmp_path)
    saved = json.loads(path.read_text())
    path.write_text(json.dumps(dict(saved, decisions=saved["decisions"][:1])))
    result = run("replay", path)
    assert result.exit_code == 2 and "`decisions` is not a list" in result.output
    old = {key: saved[key] for key in ("game", "seed", "players", "choices")}  # as `play --save` wrote before
    path.write_text(json.dumps(old))
    assert run("replay", path).exit_code == 0
    assert run("play", "cernunos", "--load", path).exit_code == 0


def test_the_saves_module_raises_plain_errors(tmp_path):
    (tmp_path / "x.json").write_text("{")
    with pytest.raises(NotASave, match="not a saved game"):
        read_save(tmp_path / "x.json")
    assert issubclass(NotASave, SaveError) and NotASave.misuse and not SaveError.misuse


BETS = """\
players: [red, blue]
board:
  grid: {columns: 3, rows: 1, connections: [orthogonal]}
pieces:
  chip: {per_player: 3, starts_in: supply}
"""

BET_RULES = """\
zone supply per player

play:
    repeat 3 times:
        simultaneously for each p in players:
            choose chip in pieces(supply(p)), spot in locations as bet by p
            move chip to spot
    win players by "all bet"
"""


def test_secret_answers_are_saved_once_the_group_is_complete(tmp_path):
    folder = toy_folder(tmp_path, BETS, toy=BET_RULES)
    path = tmp_path / "bets.json"
    # red and blue at one terminal: three complete groups would take 6 answers; 3 complete one group and start another
    result = run("play", folder, "--human", "red", "--human", "blue", "--save", path, input="0\n" * 3)
    assert result.exit_code == 130, result.output
    saved = json.loads(path.read_text())
    assert saved["choices"] == [0, 0] and [d[:2] for d in saved["decisions"]] == [["red", "bet"], ["blue", "bet"]]
    assert saved["decisions"][0][2] == "red-chip-1 a1"
    resumed = run("play", folder, "--load", path)
    assert resumed.exit_code == 0, resumed.output
    finished = json.loads(path.read_text())
    assert len(finished["choices"]) == 6 and [d[0] for d in finished["decisions"]] == ["red", "blue"] * 3


def test_sigterm_leaves_the_last_save(tmp_path):
    path = tmp_path / "game.json"
    with started([LUDOLEX, "play", "cernunos", "--human", "green", "--save", path], stdin=subprocess.PIPE,
                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT) as process:
        process.stdin.write("0\n0\n")
        process.stdin.flush()
        wait_for(lambda: path.exists() and len(json.loads(path.read_text())["choices"]) >= 3, "3 choices saved",
                 process)
        process.send_signal(signal.SIGTERM)
        output, _ = process.communicate(timeout=CEILING)
    assert process.returncode == 143
    count = len(json.loads(path.read_text())["choices"])
    assert f"saved to {path} after {count} choice(s)" in output


def test_kill_9_at_any_moment_leaves_a_complete_save(tmp_path):
    path = tmp_path / "game.json"
    for delay in (0.0, 0.15, 0.4):  # the moments of the kill, after the first save: any is a pass
        with started([LUDOLEX, "play", "root", "--seed", "1", "--save", path], stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL, cwd=ROOT) as process:
            wait_for(path.exists, "the game saved", process)
            time.sleep(delay)
            process.send_signal(signal.SIGKILL)
            process.wait()
        restored = restore(load("root"), read_save(path), path)  # whole: it reads and replays
        assert len(restored.game.log) == len(json.loads(path.read_text())["choices"]) > 0
        path.unlink()


def test_check_saves_resumes_saves_in_fresh_processes():
    done = processes.run([sys.executable, ROOT / "tools" / "check_saves.py", "--points", "3", "--jobs", "2"],
                         capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 saves loaded in fresh processes: 3 played on to the same end" in done.stdout


def test_ctrl_c_in_the_middle_of_a_choice_saves_the_game_as_of_the_last_complete_one(tmp_path, monkeypatch):
    from interpreter.play.game import Game

    choose, calls = Game.choose, []

    def interrupted(self, choice, by=None):  # the 5th choice is stopped halfway: in the log, not applied
        calls.append(choice)
        if len(calls) == 5:
            self.log.append(choice)
            raise KeyboardInterrupt
        return choose(self, choice, by)

    monkeypatch.setattr(Game, "choose", interrupted)
    path = tmp_path / "game.json"
    result = run("play", "cernunos", "--seed", 4, "--save", path)
    assert result.exit_code == 130 and f"saved to {path} after 4 choice(s)" in result.output
    monkeypatch.setattr(Game, "choose", choose)
    saved = read_save(path)
    assert len(saved["choices"]) == len(saved["decisions"]) == 4
    assert restore(load("cernunos"), saved, path).note is None  # the state saved is that after the 4th choice


def test_replay_follows_a_save_by_label_when_changed_rules_moved_its_options(tmp_path):
    path = abandoned(tmp_path)
    saved = json.loads(path.read_text())
    folder = changed_cernunos(tmp_path, lambda rules: rules.replace(
        "square in locations where can_place(you, kind, square) as place",
        "square in sorted(s in locations by fewest s.column) where can_place(you, kind, square) as place"))
    saved["game"] = str(folder)
    path.write_text(json.dumps(saved))
    assert restore(load(folder), saved, path).moved > 0  # by index, the replay would be another game
    result = run("replay", path)
    assert result.exit_code == 0, result.output
    assert "note: the rules of cernunos changed since the save" in result.output
    for number, (player, name, label) in enumerate(saved["decisions"], 1):
        assert f"{number:>4}. {player} {name}: {label}\n" in result.output


def test_replay_of_a_save_the_changed_rules_cannot_follow_says_where_in_one_line(tmp_path):
    path = abandoned(tmp_path)
    saved = json.loads(path.read_text())
    folder = changed_cernunos(tmp_path, lambda rules: rules.replace(" as place", " as put"))
    saved["game"] = str(folder)
    path.write_text(json.dumps(saved))
    result = run("replay", path)
    assert result.exit_code == 1 and result.output.count("\n") == 1 and "Traceback" not in result.output
    first = saved["decisions"][0][2]
    assert f"{path}: choice 1 of {len(saved['choices'])}: the save recorded green `place`: {first}, " \
           "but the rules now ask green `put` with options: " in result.output
    assert "the rules changed since the save" in result.output


def test_undo_after_loading_goes_back_into_the_saved_game(tmp_path):
    path = abandoned(tmp_path)  # green's three choices and purple's between them
    saved = json.loads(path.read_text())
    result = run("play", "cernunos", "--load", path, "--human", "green", input="undo\nundo\n")
    assert result.exit_code == 130, result.output
    greens = [i for i, step in enumerate(saved["decisions"]) if step[0] == "green"]
    assert f"undone: green's `place` ({saved['decisions'][greens[-1]][2]})" in result.output
    assert f"undone: green's `place` ({saved['decisions'][greens[-2]][2]})" in result.output
    assert json.loads(path.read_text())["decisions"] == saved["decisions"][:greens[-2]]  # --load's file follows


@pytest.mark.parametrize("seed", [-1, saves.LARGEST_SEED + 1, 2**100], ids=["negative", "just-past", "huge"])
def test_a_seed_out_of_range_is_refused_in_one_line(tmp_path, seed):
    """`play --load`, `replay` and `serve SAVE` read a save through `read_save`: a seed no game is
    played with (`--seed` takes 0 to 2**62, simulate stores a few more) is a damaged save."""
    path = abandoned(tmp_path)
    path.write_text(json.dumps(dict(json.loads(path.read_text()), seed=seed)))
    for command in (("play", "cernunos", "--load", path), ("replay", path)):
        result = run(*command)
        assert result.exit_code == 2, result.output
        assert result.output.endswith(f"Error: {path}: not a saved game: `seed` is not between 0 and {saves.LARGEST_SEED:,}\n")
        assert result.exception is None or isinstance(result.exception, SystemExit)
    with pytest.raises(NotASave, match="`seed` is not between"):
        read_save(path)


def test_every_seed_a_game_is_played_or_stored_with_is_accepted(tmp_path):
    path = abandoned(tmp_path)
    saved = json.loads(path.read_text())
    for seed in (0, 2**62, saves.LARGEST_SEED):  # `play --seed`'s largest, and simulate's stored ones above it
        assert saves.check_save(dict(saved, seed=seed), path)["seed"] == seed
