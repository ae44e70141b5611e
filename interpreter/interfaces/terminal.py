"""A game at the terminal (`ludolex play GAME --human SEAT`): each person sees only what their seat
observes, answers a decision by its number or by its label (the start of each word is enough, in
any case), and may type instead:

    why LABEL    why that option is not offered (the rule's conditions, with file and line)
    undo         back to this player's previous decision (the game is replayed from its seed)
    save [FILE]  save the game now (to FILE, else to the --save file or a new file it names)
    show         the game again, as this seat sees it
    help         these commands

Ctrl-C (or SIGTERM) saves the game before leaving, to the --save file or else to a new file in
the current folder, and says where and how to go on with it.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from rich.columns import Columns
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from interpreter.engine.decisions import EVERYTHING, Decision
from interpreter.interfaces.display import result_sentence, show
from interpreter.interfaces.table_reading import reading
from interpreter.play.saves import Autosave, Journal, SaveError, write_save

COMMANDS = ("why", "undo", "save", "show", "help")
HELP = """\
  NUMBER       the option of that number
  LABEL        the option of that label: the start of each word is enough,
               in any case (`tr a1` for `tree a1`); a word typed whole
               goes first (`tr a1` is `tree a1`, not `tree a10`)
  why LABEL    why that option is not offered: the condition of the rules
               that refused it, and where it is written
  undo         back to your previous decision (the moves since are taken back)
  save [FILE]  save the game now (to FILE, else to the game's save file)
  show         the game again, as your seat sees it
  help         this list
  Ctrl-C       save the game and leave"""
SHOWN_CANDIDATES = 12  # options listed when what was typed could be several


def candidates(text: str, labels: list[str]) -> list[int]:
    """The options `text` may name: the one labelled so (any case), else those whose words start with
    the words typed (`tr a1` names `tree a1`), and of those the ones with the most words typed whole
    (`work c1` names `workshop c1`, not `workshop c10`). A number names the option of that number."""
    typed = text.lower().split()
    if not typed:
        return []
    if len(typed) == 1 and typed[0].isdigit():
        number = int(typed[0])
        return [number] if number < len(labels) else []
    wanted = " ".join(typed)
    exact = [i for i, label in enumerate(labels) if label.lower() == wanted]
    if exact:
        return exact[:1]
    found = {}  # option -> how many of its words were typed whole
    for i, label in enumerate(labels):
        words = label.lower().split()
        if len(typed) <= len(words) and all(word.startswith(part) for part, word in zip(typed, words)):
            found[i] = sum(part == word for part, word in zip(typed, words))
    most = max(found.values(), default=0)
    return [i for i, whole in found.items() if whole == most]


def options_view(labels: list[str], texts: list[str | None] | None = None) -> Columns:
    """The options numbered, in columns read downwards; each label followed by its text in the game's
    words, where the table description gives one (`[3] c1 c5  c1 fox → c5 rabbit`)."""
    width = len(str(len(labels) - 1))
    shown = []
    for i, (label, text) in enumerate(zip(labels, texts or [None] * len(labels))):
        item = Text(f"[{i:>{width}}] {label}")
        if text:
            item.append(f"  {text}", style="dim")
        shown.append(item)
    return Columns(shown, column_first=True, padding=(0, 3))


def free_path(name: str) -> Path:
    """A file of the current folder to save a game to, that does not exist yet: `NAME.json`, `NAME-2.json`..."""
    path, number = Path(f"{name}.json"), 1
    while path.exists():
        number += 1
        path = Path(f"{name}-{number}.json")
    return path


class Session:
    """One game played at the terminal: the humans' decisions asked here, the others' of bots.

    `make_bots(game)` gives the bots of the other seats for a game (made again when a move is taken
    back: a bot may keep the game it plays). `target` is the --save file (None: none), written after
    every choice; `resume(path)` the command that goes on with a game saved in `path`."""

    def __init__(self, console: Console, journal: Journal, humans: tuple[str, ...], make_bots: Callable,
                 target: Path | None, resume: Callable[[Path], str], show_all: bool = False, holds: bool = False,
                 ask: Callable[[str], str] = input, every_move: bool = True):
        self.console, self.journal, self.humans, self.every_move = console, journal, humans, every_move
        self.shown = None  # the version of the state last shown
        self.make_bots, self.bots = make_bots, make_bots(journal.game)
        self.target, self.resume, self.show_all, self.ask = target, resume, show_all, ask
        self.saving = Autosave(journal, target, holds=holds) if target is not None or humans else None
        self.viewer = EVERYTHING if show_all else (humans[0] if humans else None)

    def show(self) -> None:
        """The game as the viewer sees it."""
        show(self.console, self.game, self.viewer)
        self.shown = self.game.state.version

    @property
    def game(self):
        return self.journal.game

    def say(self, text: str) -> None:
        self.console.print(escape(text), soft_wrap=True)

    def run(self) -> None:
        """Play to the end. On Ctrl-C, SIGTERM or the end of input, the game is saved (see the
        module), then the exception goes on up; a SaveError says a save could not be written."""
        try:
            self.show()
            while not self.game.finished:
                self.turn()
            if self.shown != self.game.state.version:  # watching bots: the game as it ends
                self.show()
            self.say(f"game over after {len(self.game.log)} move(s)")
        except (EOFError, KeyboardInterrupt, SystemError) as stop:
            if isinstance(stop, SystemError):  # Ctrl-C while a signal handler (the watchdog's) was in a
                if not isinstance(stop.__cause__, KeyboardInterrupt):  # built-in function: CPython wraps it
                    raise
                stop = stop.__cause__
            self.console.print("\ngame abandoned")
            self.leave(interrupted=isinstance(stop, KeyboardInterrupt))
            raise stop from None
        self.console.print("[bold]result:[/bold] " + escape(result_sentence(self.game.result, self.game.state.turns)))
        if self.target is not None:
            self.saving.write()  # a game loaded already over is left as it is
            if self.saving.wrote:
                self.say(f"saved to {self.target}")

    def leave(self, interrupted: bool) -> None:
        """Save the game as of its last complete choice: to the --save file, or when `interrupted`
        (Ctrl-C, SIGTERM; not at the end of input) with a person at the table, to a new file."""
        if self.saving is None or (self.target is None and not interrupted):
            return
        if self.saving.path is None:
            self.saving.path = free_path(f"{self.game.ruleset.name}-{self.game.seed}")
        self.saving.write()
        self.say(f"saved to {self.saving.path} after {self.saving.choices} choice(s); "
                 f"continue with `{self.resume(self.saving.path)}`")

    def keep(self) -> None:
        """After a complete choice: the game written to the --save file, or kept to be saved on Ctrl-C."""
        if self.saving is None:
            return
        if self.target is not None:
            self.saving.record()
        else:
            self.saving.take()

    def turn(self) -> None:
        game, decision = self.game, self.game.decision
        human = decision.player in self.humans
        if human and decision.player != self.viewer and not self.show_all:  # hot-seat: the next seat
            self.viewer = decision.player
            self.say(f"--- {self.viewer}'s seat ---")
            self.show()
        index = self.ask_person(decision) if human else self.bots[decision.player].choose(decision)
        if index is None:  # a move taken back
            return
        version, at_once = game.state.version, game.at_once
        if self.journal.choose(index):
            self.keep()
        answered = [(decision, index)]
        if at_once:  # a secret answer: told once everyone has answered
            answered = game.last_group if any(d is decision for d, _ in game.last_group) else []
            if not answered:
                self.console.print(f"[bold]{escape(decision.player)}[/bold] {escape(decision.name)}: (in secret)")
        read = reading(game, self.viewer) if answered else None  # the options in the game's words, if it says them
        for part, chosen in answered:
            label = part.label(chosen, self.viewer)  # after the choice: a card played face up is known to all
            text = read.option_text(part, chosen, label) if read else None
            self.console.print(f"[bold]{escape(part.player)}[/bold] {escape(part.name)}: {escape(label)}"
                               + (f" [dim]({escape(text)})[/dim]" if text else ""))
        if game.state.version != version and self.every_move:
            self.show()

    # --- a person's decision ------------------------------------------------------------------
    def ask_person(self, decision: Decision) -> int | None:
        """The option the person picks (its index), or None when they took a move back."""
        who = f"{' or '.join(decision.group)} (any of you)" if len(decision.group) > 1 else decision.player
        ranged = decision.number_range
        read = reading(self.game, decision.player)  # the decision in the game's words, if it says them
        title = read.title(decision) if read else None
        if ranged is not None:
            low, high = ranged
            wanted = f"a number from {low} to {high}" + (", or pass" if len(decision.options) > high - low + 1 else "")
            self.say(f"{who}, {decision.name}: " + (f"{title}: " if title else "") + wanted)
            labels = []
        else:
            labels = decision.labels()
            self.say(f"{who}, {decision.name}:" + (f" {title}" if title else ""))
            self.console.print(options_view(labels, read.option_texts(decision, labels) if read else None))
            wanted = f"a number from 0 to {len(labels) - 1}, the start of an option"
        while True:
            text = " ".join(self.ask(f"{decision.player} > ").split())
            if not text:
                continue
            if ranged is not None:
                try:
                    return decision.index_of(text)
                except ValueError:
                    pass
            found = candidates(text, labels)
            if len(found) == 1 and (text.isdigit() or labels[found[0]].lower() == text.lower()):
                return found[0]  # a number or a whole label: an option, even one named like a command
            command, _, rest = text.partition(" ")
            if command.lower() in COMMANDS and (rest or command.lower() != "why"):
                if self.command(command.lower(), rest, decision):
                    return None
                continue
            if len(found) == 1:
                return found[0]
            if found:
                shown = ", ".join(labels[i] for i in found[:SHOWN_CANDIDATES])
                more = f", ... ({len(found)} options)" if len(found) > SHOWN_CANDIDATES else ""
                self.say(f"  `{text}` could be {shown}{more}: type more of it, or its number")
            elif text.isdigit() and ranged is None:
                self.say(f"  no option {text}: the options are numbered 0 to {len(labels) - 1}")
            elif command.lower() == "why":
                self.say("  why what? type `why` and an option, e.g. `why " + (labels[0] if labels else "5") + "`")
            else:
                self.explain(text, decision)
                self.say(f"  type {wanted}, or `help`")

    def command(self, command: str, rest: str, decision: Decision) -> bool:
        """Run a command typed at a decision; whether the decision is no longer the pending one."""
        if command == "help":
            self.console.print(Text(HELP))
        elif command == "why":
            self.explain(rest, decision)
        elif command == "show":
            self.show()
        elif command == "save":
            self.save_now(Path(rest).expanduser() if rest else None)
        elif command == "undo":
            return self.undo(decision.player)
        return False

    def explain(self, label: str, decision: Decision) -> None:
        for line in self.game.why_not(label, by=decision.player).lines():
            self.say("  " + line)

    def save_now(self, path: Path | None) -> None:
        """`save [FILE]`: to FILE, else to the file the game is saved to (made now if there is none)."""
        if path is None:
            path = self.saving.path or free_path(f"{self.game.ruleset.name}-{self.game.seed}")
            self.saving.path = path  # Ctrl-C saves there too
        try:
            write_save(path, self.journal.save())
        except SaveError as error:
            self.say(f"  {error}")
            return
        self.say(f"  saved to {path}; continue with `{self.resume(path)}`")

    def undo(self, player: str) -> bool:
        """Back to `player`'s previous decision: the game replayed from its seed through the choices before it."""
        steps, undone = self.journal.steps, self.journal.undone(player)
        if undone is None:
            self.say(f"  nothing to undo: this is {player}'s first decision")
            return False
        self.journal, back = undone
        game = self.journal.game
        self.bots = self.make_bots(game)
        if self.saving is not None:
            self.saving.journal = self.journal
            self.keep()
        taken = len(steps) - back
        self.say(f"  undone: {player}'s `{steps[back][1]}` ({steps[back][2]})"
                 + (f" and the {taken - 1} choice(s) after it" if taken > 1 else ""))
        self.show()
        return True
