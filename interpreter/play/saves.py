"""An adventure saved as it goes and resumed: the file `ludolex play --save` writes after every
decision, and `ludolex play --load` resumes.

A game is its seed and its choices (every random draw comes from the seeded generator), so a save
holds what `Game.to_json` holds, and a little more to resume it under rules that changed since:

    game, seed, players, options   the table (`options`: only those chosen otherwise than their default)
    choices                        the index of every choice, in order (as `Game.log`)
    state, result                  the state after the last choice (a check), and the result once over
    format                         SAVE_FORMAT (a file without it is format 1: a finished game, as
                                   `play --save` wrote before; `ludolex replay` reads every format)
    version                        the ruleset's `content_hash()` when saved
    decisions                      for each choice [player, decision, label]: who decided, the name of
                                   the decision, and the option as that player saw it

Resuming replays the choices. Under the same version, by index; under another one, by label: each
decision asked must be the one recorded (same player, same name) and the recorded option must
still be among its options, wherever it now stands in the list; else the rules changed in a way
the save cannot follow, and `SaveError` says at which choice. Answers given in secret to a group
of decisions that is not complete (`simultaneously`) are not saved: the group is asked again.

A file is written whole or not at all: into a temporary file of the same folder, then renamed over
the save (`write_atomically`), so a game stopped at any moment leaves the last complete save.
"""
from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from interpreter.diagnostics.errors import RuleRuntimeError
from interpreter.engine.decisions import Decision
from interpreter.loading.ruleset import Ruleset
from interpreter.play.game import Game

SAVE_FORMAT = 2
MAX_SAVE_BYTES = 200_000_000  # a saved game of a million decisions is some tens of megabytes
SHOWN_LABELS = 8  # options named in an error about a choice the rules no longer offer
LARGEST_SEED = 2**62 + 10_000_000  # `play --seed` takes up to 2**62; `simulate` stores up to 10 million more (STORED_SEEDS of the cli)


class SaveError(Exception):
    """The save cannot be resumed: the rules no longer go as it recorded (exit status 1)."""

    misuse = False


class NotASave(SaveError):
    """The file is not a save of this game (not JSON, wrong fields, too large, another game): exit status 2."""

    misuse = True


def _whole_number(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _options_table(options) -> bool:
    return options is None or isinstance(options, dict) and all(
        isinstance(k, str) and isinstance(v, (str, int, float, bool)) for k, v in options.items())


def _decisions_list(decisions, choices) -> bool:
    return decisions is None or isinstance(decisions, list) and len(decisions) == len(choices) and all(
        isinstance(d, list) and len(d) == 3 and all(isinstance(part, str) for part in d) for d in decisions)


def check_save(saved, where) -> dict:
    """A saved game (any format, or a game of a results database), checked field by field; a
    NotASave that names `where` and the first wrong field."""
    players = saved.get("players") if isinstance(saved, dict) else None
    form = saved.get("format", 1) if isinstance(saved, dict) else None
    problem = (
        "not a JSON object" if not isinstance(saved, dict)
        else "`game` is not a text" if not isinstance(saved.get("game"), str)
        else "`seed` is not a whole number" if not _whole_number(saved.get("seed"))
        else f"`seed` is not between 0 and {LARGEST_SEED:,}" if not 0 <= saved["seed"] <= LARGEST_SEED
        else "`choices` is not a list of whole numbers"
        if not (isinstance(saved.get("choices"), list) and all(map(_whole_number, saved["choices"])))
        else "`players` is not a list of names"
        if not (players is None or isinstance(players, list) and all(isinstance(p, str) for p in players))
        else "`options` is not a table of names and values" if not _options_table(saved.get("options"))
        else "`format` is not a whole number" if not _whole_number(form) or form < 1
        else f"saved by a newer ludolex (save format {form}; this one reads formats 1 to {SAVE_FORMAT})"
        if form > SAVE_FORMAT
        else "`version` is not a text" if not isinstance(saved.get("version", ""), str)
        else "`decisions` is not a list of [player, decision, label], one for each choice"
        if not _decisions_list(saved.get("decisions"), saved["choices"])
        else None)
    if problem:
        raise NotASave(f"{where}: not a saved game: {problem}")
    return saved


def read_save(path: Path) -> dict:
    """The save in file `path`, checked (`check_save`); a one-line NotASave if it is none."""
    path = Path(path)
    if not path.is_file():
        raise NotASave(f"{path}: not a file")
    try:
        with path.open("rb") as opened:
            data = opened.read(MAX_SAVE_BYTES + 1)
        if len(data) > MAX_SAVE_BYTES:
            raise NotASave(f"{path}: not a saved game (larger than {MAX_SAVE_BYTES:,} bytes)")
        saved = json.loads(data.decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as error:
        raise NotASave(f"{path}: not a saved game ({type(error).__name__}: {str(error)[:200]})") from None
    return check_save(saved, path)


class Journal:
    """A game with what each of its choices meant: `steps[i]` is (player, decision, label) of
    `game.log[i]`, the label as the deciding player saw the options when deciding. Answer the
    game's decisions through `choose`, and `save` gives the save of the game so far."""

    def __init__(self, game: Game, version: str, steps: list[tuple[str, str, str]] | None = None):
        self.game, self.version = game, version
        self.steps = list(steps) if steps is not None else []
        if len(self.steps) != len(game.log):
            raise ValueError("one step for each choice of the game")
        self._secret: list[tuple[Decision, str]] = []  # answers of a group not complete yet

    def choose(self, index: int) -> bool:
        """Answer the pending decision (`game.decision`) with option `index`; whether the game's
        choices grew (not when the answer is a secret one of a group still waiting for others)."""
        game = self.game
        decision, before = game.decision, len(game.log)
        label = decision.label(index)  # before the choice: what the decider saw, and a replay sees
        grouped = game.at_once
        game.choose(index)
        if not grouped:
            self.steps.append((decision.player, decision.name, label))
        else:
            self._secret.append((decision, label))
            if len(game.log) > before:  # the group is complete: its answers join the log, in the group's order
                self.steps += [(part.player, part.name, next(text for d, text in self._secret if d is part))
                               for part, _ in game.last_group]
                self._secret = []
        return len(game.log) > before

    def undone(self, player: str) -> tuple[Journal, int] | None:
        """The journal as it was before `player`'s last decision (the game replayed from its seed
        through the choices before it), and that decision's place in `steps`; None if `player` has
        made no decision yet."""
        earlier = [i for i, step in enumerate(self.steps) if step[0] == player]
        if not earlier:
            return None
        back = earlier[-1]
        return Journal(self.game.clone(choices=self.game.log[:back]), self.version, self.steps[:back]), back

    def save(self) -> dict:
        data = self.game.to_json()
        saved = {"format": SAVE_FORMAT, "game": data.pop("game"), "version": self.version}
        for key in ("seed", "players", "options", "choices"):
            if key in data:
                saved[key] = data.pop(key)
        saved["decisions"] = [list(step) for step in self.steps]
        saved.update(data)  # the result, the state, and whatever else the game keeps
        return saved


class Autosave:
    """A game saved to `path` as it goes. `record()`, after each choice that grew the game's log,
    takes its save (`take()`) and writes it; `write()` writes the last save taken unless the file holds it
    already (a game abandoned while a choice was halfway is saved as of its last complete choice).
    `holds`: the file already holds the game as it stands (it was loaded from there)."""

    def __init__(self, journal: Journal, path: Path, holds: bool = False):
        self.journal, self.path = journal, path
        self.saved, self.choices = journal.save(), len(journal.game.log)
        self.written = self.choices if holds else None  # how many choices the file holds
        self.wrote = False  # whether this run wrote the file

    def take(self) -> None:
        """Take the save of the game as it stands (after a complete choice), without writing it."""
        self.saved, self.choices = self.journal.save(), len(self.journal.game.log)

    def record(self) -> None:
        self.take()
        self.write()

    def write(self) -> None:
        """Write the last save taken, if the file does not hold it yet; a SaveError says why it could not."""
        if self.written != self.choices:
            write_save(self.path, self.saved)
            self.written, self.wrote = self.choices, True


def dumps(saved: dict) -> str:
    """A save as JSON text: one key a line, one decision a line."""
    lines = []
    for key, value in saved.items():
        if key == "decisions" and value:
            inner = ",\n".join("  " + json.dumps(step, ensure_ascii=False) for step in value)
            lines.append(f' "decisions": [\n{inner}\n ]')
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False, separators=(',', ':'))}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def write_atomically(path: Path, text: str) -> None:
    """Write `text` to `path` whole or not at all: a temporary file in the same folder, flushed to
    disk, then renamed over `path`. An OSError says why it could not."""
    path = Path(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        try:
            mode = os.stat(path).st_mode & 0o777
        except OSError:  # a new file: as open() would make it
            mask = os.umask(0)
            os.umask(mask)
            mode = 0o666 & ~mask
        os.fchmod(handle, mode)
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def write_save(path: Path, saved: dict) -> None:
    """Write a save (`Journal.save()`) to `path`, atomically; a SaveError says why it could not."""
    try:
        write_atomically(path, dumps(saved))
    except OSError as error:
        raise SaveError(f"cannot save to {path}: {error.strerror or error}") from None


@dataclass
class Restored:
    """A saved game brought back: its `journal` (the game and what each choice meant), and `note`,
    a sentence when it was replayed under rules (or a ludolex) other than those of the save."""

    journal: Journal
    note: str | None = None
    moved: int = 0  # choices found by their label at another place in the list of options

    @property
    def game(self) -> Game:
        return self.journal.game


def _asked(decision: Decision | None, game: Game) -> str:
    if decision is None:
        return "nothing: the game " + ("is over" if game.finished else "stopped")
    count = len(decision.options)  # the options may be made on demand (a range of numbers): name a few
    shown = ", ".join(decision.label(i) for i in range(min(count, SHOWN_LABELS)))
    return f"{decision.player} `{decision.name}` with options: {shown}" + (
        f", ... ({count:,} options)" if count > SHOWN_LABELS else "")


def _find(decision: Decision, index: int, label: str) -> int | None:
    """The option of `decision` labelled `label`: the one at `index` if so, else the first so labelled."""
    if 0 <= index < len(decision.options) and decision.label(index) == label:
        return index
    try:
        return decision.index_of(label)
    except ValueError:
        return None


def _same_folder(game: str, directory: Path) -> bool:
    """Whether `game` (as a save names it: the ruleset's name, or a folder) is the folder `directory`."""
    try:
        return Path(game).resolve() == Path(directory).resolve()
    except (OSError, ValueError, RuntimeError):
        return False


def restore(ruleset: Ruleset, saved: dict, where) -> Restored:
    """The game of a checked save (`read_save`), replayed under `ruleset` (see the module's
    documentation); a SaveError (NotASave if the file is not a save of this game) names `where`,
    the choice and what went wrong."""
    if saved["game"] != ruleset.name and not _same_folder(saved["game"], ruleset.directory):
        raise NotASave(f"{where}: a saved game of {saved['game']}, not of {ruleset.name}")
    version, recorded = ruleset.content_hash(), saved.get("decisions")
    same = saved.get("version") == version
    if same:
        why = "the rules are the same version as when saved, but they no longer go as the save recorded " \
              "(ludolex itself changed since?)"
    elif "version" in saved:
        why = f"the rules changed since the save (version {saved['version']}, now {version}) in a way it cannot follow"
    else:
        why = "the save has no version, and the rules no longer go as it recorded"
    try:
        game = Game(ruleset, seed=saved["seed"], players=saved.get("players"), options=saved.get("options"))
    except ValueError as error:
        raise NotASave(f"{where}: {error}") from None
    except RuleRuntimeError as error:
        raise SaveError(f"{where}: the rules stop on an error before the first choice: {error}") from None
    choices, steps, moved = saved["choices"], [], 0
    for number, index in enumerate(choices, 1):
        decision = game.decision
        step = recorded[number - 1] if recorded else None
        was = f"{step[0]} `{step[1]}`: {step[2]}" if step else f"option {index}"
        at = f"{where}: choice {number} of {len(choices)}: the save recorded {was}"
        if decision is None:
            raise SaveError(f"{at}, but the rules now ask {_asked(decision, game)}; {why}")
        if step is not None:
            player, name, label = step
            found = _find(decision, index, label) if (decision.player, decision.name) == (player, name) else None
            if found is None:
                raise SaveError(f"{at}, but the rules now ask {_asked(decision, game)}; {why}")
            index, moved = found, moved + (found != index)
        elif not 0 <= index < len(decision.options):
            raise SaveError(f"{at}, but the rules now ask {_asked(decision, game)}; {why}")
        else:
            label = decision.label(index)
        steps.append((decision.player, decision.name, label))
        try:
            game.choose(index)
        except RuleRuntimeError as error:
            raise SaveError(f"{at}: the rules now stop on an error there ({error}); {why}") from None
    journal = Journal(game, version, steps)
    reached = "state" not in saved or game.state.to_json() == saved["state"]
    if not reached and recorded is None:
        raise SaveError(f"{where}: replaying its {len(choices)} choice(s) does not reach the saved state; {why}")
    note = None
    if not same and "version" in saved:
        note = (f"the rules of {ruleset.name} changed since the save (version {saved['version']}, now {version}); "
                "the adventure was replayed under the new ones")
    elif not same and not reached:
        note = "the save has no version; the adventure was replayed under the rules as they are now"
    elif moved or not reached:
        note = ("the game no longer replays exactly as saved, though the rules are the same version "
                "(ludolex itself changed since?); the adventure was replayed following its recorded choices")
    return Restored(journal, note, moved)
