"""The terminal player as a person uses it: `ludolex play GAME --human SEAT` in a pseudo-terminal,
typed at and read from, Ctrl-C included."""
import json
import re
import sys
from pathlib import Path

import processes
import pytest
from processes import CEILING, kill_group, sigint_acted_on
from toy import chips_game, toy_folder

from interpreter import Game, load
from interpreter.engine.knowledge import knows
from interpreter.interfaces.terminal import candidates
from interpreter.play.saves import read_save, restore

pexpect = pytest.importorskip("pexpect")  # the test extra: pip install '.[test]'

ROOT = Path(__file__).resolve().parent.parent
LUDOLEX = Path(sys.executable).with_name("ludolex")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Terminal:
    """A command run in a pseudo-terminal: what it wrote (colours taken out), read up to each text awaited.
    Each wait is for a text written; CEILING only ends a test that would hang."""

    def __init__(self, *args: str, cwd: Path):
        # pexpect starts the command in a session of its own (the terminal's): its pid is its group's
        sigint_acted_on()  # the Ctrl-C typed (sendintr) is a SIGINT: not ignored by the command
        self.child = pexpect.spawn(str(LUDOLEX), list(args), cwd=str(cwd), encoding="utf-8", timeout=CEILING,
                                   dimensions=(60, 250))
        self.screen, self.read_to = "", 0

    def wait(self, text: str) -> str:
        """Read until `text` is written (after what was awaited before); what came before it."""
        while text not in self.screen[self.read_to:]:
            try:
                self.screen += ANSI.sub("", self.child.read_nonblocking(65536, timeout=CEILING)).replace("\r", "")
            except (pexpect.EOF, pexpect.TIMEOUT) as stop:
                raise AssertionError(f"{type(stop).__name__} before {text!r} was written; the program wrote:\n"
                                     f"{self.screen[-3000:]}") from None
        start = self.screen.index(text, self.read_to)
        before, self.read_to = self.screen[self.read_to:start], start + len(text)
        return before

    def type(self, line: str) -> None:
        self.child.sendline(line)

    def ended(self) -> int:
        self.child.expect(pexpect.EOF)
        self.screen += ANSI.sub("", self.child.before or "").replace("\r", "")
        self.child.wait()  # its status once it has exited (close() alone, on a slow machine, may signal it first)
        self.child.close()
        return self.child.exitstatus

    def kill(self) -> None:
        """The command and all it started killed, if not ended and waited for yet; its terminal closed."""
        if not self.child.terminated:  # not waited for: its pid is still its group's, never another's
            kill_group(self.child.pid)
        self.child.close(force=True)


@pytest.fixture
def terminal():
    """Starts commands in terminals (`terminal(*args, cwd=...)`), each killed at the end of the test."""
    started = []

    def start(*args: str, cwd: Path) -> Terminal:
        started.append(Terminal(*args, cwd=cwd))
        return started[-1]

    yield start
    for term in started:
        term.kill()


def line_of(path: str, text: str) -> int:
    lines = (ROOT / "rulesets" / path).read_text().splitlines()
    return next(number for number, line in enumerate(lines, 1) if text in line)


def test_a_move_by_prefix_a_why_help_an_undo_a_save_and_ctrl_c_that_saves(tmp_path, terminal):
    term = terminal("play", "cernunos", "--human", "green", "--seed", "2", cwd=tmp_path)
    term.wait("green > ")
    term.type("tr")  # the start of twelve options
    term.wait("`tr` could be tree a1, tree b1, tree c1")
    term.type("FI B2")  # the start of each word, any case
    term.wait("green place: fire b2")
    term.wait("green > ")  # green's second placement
    term.type("why tree b2")
    place = line_of("cernunos/cernunos.rules", "where can_place(you, kind, square) as place")
    tree_on_fire = line_of("cernunos/cernunos.rules", "not (k = tree and top(s) is fire)")
    term.wait(f"`tree b2` is not an option of `place`: `can_place(green, tree, b2)` is false (cernunos.rules:{place})")
    term.wait(f"- `top(b2) is fire` is true: top(b2) is green-fire-1 (cernunos.rules:{tree_on_fire})")
    term.type("help")
    term.wait("undo         back to your previous decision")
    term.type("tree b2")  # refused: the answer says why at once
    term.wait("`top(b2) is fire` is true")
    term.type("sq c3")
    term.wait("green place: squirrel c3")
    term.wait("purple place: ")
    term.wait("green > ")  # green's next turn, after purple's
    term.type("undo")
    term.wait("undone: green's `place` (squirrel c3) and the ")  # purple's choices after it: taken back too
    term.wait("green > ")
    term.type("save middle.json")
    term.wait("saved to middle.json; continue with `ludolex play cernunos --load middle.json --human green`")
    assert json.loads((tmp_path / "middle.json").read_text())["decisions"] == [["green", "place", "fire b2"]]
    term.wait("green > ")
    term.child.sendintr()  # Ctrl-C
    term.wait("game abandoned")
    term.wait("saved to cernunos-2.json after 1 choice(s); "
              "continue with `ludolex play cernunos --load cernunos-2.json --human green`")
    assert term.ended() == 130
    assert "Traceback" not in term.screen
    restored = restore(load("cernunos"), read_save(tmp_path / "cernunos-2.json"), "cernunos-2.json")
    assert restored.journal.steps == [("green", "place", "fire b2")] and restored.game.decision.player == "green"


def test_a_seat_in_root_never_shows_what_another_player_holds(tmp_path, terminal):
    term = terminal("play", "root", "--human", "marquise", "--seed", "1", cwd=tmp_path)
    for _ in range(5):
        term.wait("marquise > ")
        term.type("0")
    term.wait("marquise > ")
    term.type("show")
    term.wait("hand/eyrie")
    term.child.sendintr()
    term.wait("saved to root-1.json")
    assert term.ended() == 130
    game = restore(load("root"), read_save(tmp_path / "root-1.json"), "root-1.json").game
    hidden = [c for c in game.state.components.values() if not knows(game.runtime, "marquise", c)]
    seen_kinds = {c.kind for c in game.state.components.values() if knows(game.runtime, "marquise", c)}
    assert hidden and any(c.zone == "hand/eyrie" for c in hidden)
    for component in hidden:
        assert component.id not in term.screen
        if component.kind not in seen_kinds:
            assert not re.search(rf"\b{component.kind}\b", term.screen), component.kind
    hands = [line for line in term.screen.splitlines() if line.lstrip().startswith("hand/")]
    assert any("hand/eyrie" in line and "3 hidden" in line for line in hands)


def test_why_about_a_card_in_another_hand_tells_nothing_about_it(tmp_path, terminal):
    card = Game(load("root"), seed=1).state.zones["hand/eyrie"][0]
    term = terminal("play", "root", "--human", "marquise", "--seed", "1", cwd=tmp_path)
    term.wait("marquise > ")
    term.type(f"why {card.id}")
    answer = term.wait("marquise > ")
    assert f"`{card.id}` is not a component you can see" in answer and "eyrie" not in answer
    term.child.sendintr()
    assert term.ended() == 130


def test_a_game_without_a_board_shows_its_zones(tmp_path):
    game = chips_game(tmp_path)
    played = processes.run([LUDOLEX, "play", game, "--human", "red", "--human", "blue"],
                           input="red-chip-1\n0\npass\n", capture_output=True, text=True)
    assert played.returncode == 0, played.stdout + played.stderr
    assert "red bet: red-chip-1" in played.stdout and "blue bet: blue-chip-1" in played.stdout
    assert re.search(r"pot +chip 2", played.stdout) and "result: blue wins" in played.stdout


@pytest.mark.parametrize("typed, expected", [
    ("3", [3]), ("9", []), ("tree a1", [0]), ("TREE A1", [0]), ("tr a", [0, 1]), ("t", [0, 1, 2]),
    ("b a", [3]), ("boar", [3]), ("x", []), ("tree a1 more", []),
])
def test_what_a_person_types_names_the_options_whose_words_it_starts(typed, expected):
    assert candidates(typed, ["tree a1", "tree a2", "tree b1", "boar a1"]) == expected


def test_a_word_typed_whole_answers_before_the_words_it_starts(tmp_path):
    # squares a1 to a10: `work a1` starts both `workshop a1` and `workshop a10`, and is `a1` whole
    folder = toy_folder(tmp_path, """
        players: [red, blue]
        board:
          grid: {columns: 1, rows: 10}
        pieces:
          workshop: {per_player: 1, starts_in: supply}
        """, build="""
        zone supply per player
        play:
            turn red:
                choose k in kinds(supply(you)), s in locations as build
                move top(supply(you)) to s
            win red
        """)
    played = processes.run([LUDOLEX, "play", folder, "--human", "red"], input="work a\nwork a1\n",
                           capture_output=True, text=True)
    assert played.returncode == 0, played.stdout + played.stderr
    assert "`work a` could be workshop a1, workshop a2" in played.stdout  # no word whole: all ten
    assert "red build: workshop a1\n" in played.stdout and "result: red wins" in played.stdout


@pytest.mark.parametrize("typed, expected", [("work c1", [0]), ("work c", [0, 1, 2]), ("workshop c1", [0]),
                                             ("w c10", [1])])
def test_the_options_with_the_most_words_typed_whole_go_first(typed, expected):
    assert candidates(typed, ["workshop c1", "workshop c10", "workshop c2", "wood c3"]) == expected


def test_root_reads_through_its_table_description(tmp_path, terminal):
    """Root ships a table description (rulesets/root/table.yaml): each faction's VP and cards in a table,
    the turn line, a clearing by its name and suit with each faction's pieces counted behind its mark
    (or its name, without colour), and each option in words beside its label."""
    term = terminal("play", "root", "--human", "marquise", "--seed", "1", cwd=tmp_path)
    first = term.wait("marquise > ")
    assert re.search(r"turn 0, marquise's turn\n", first)
    assert re.search(r"player +VP +cards +warriors on the map *\n(M )?marquise +0 +3 +0 *\n(E )?eyrie +0 +3", first)
    assert "marquise, keep_corner: the Marquise's keep: which corner clearing" in first
    assert re.search(r"\[0\] c1  c1 fox +\[1\] c2  c2 mouse", first)
    assert re.search(r"hand/eyrie +3 hidden", first) and "empty" not in first  # empty zones are left out
    term.type("0")
    term.wait("marquise keep_corner: c1 (c1 fox)")
    placed = term.wait("marquise > ")
    assert re.search(r"c1 fox +(M|marquise) warrior, keep *\n", placed)
    assert re.search(r"c6 fox +(M|marquise) warrior · ruin", placed)
    assert re.search(r"(M )?marquise +0 +3 +11", placed)
    assert "[ 0] sawmill c1  sawmill in c1 fox" in placed
    term.child.sendintr()
    assert term.ended() == 130
