"""Checking a scenario file against its ruleset before it runs: names the game lacks, positions it cannot set."""
from __future__ import annotations

import json
import re
from pathlib import Path

from interpreter.content.yaml_source import Locator
from interpreter.diagnostics.diagnostic import Diagnostic, Position
from interpreter.diagnostics.errors import LudolexError
from interpreter.diagnostics.suggestions import did_you_mean
from interpreter.language.statements import ANYTIME
from interpreter.loading.ruleset import Ruleset
from interpreter.safety.files import Boundary, read_source
from interpreter.safety.limits import LIMITS
from interpreter.scenarios.files import NOBODY, Checkpoint, ScenarioFile, parse_scenario_file, with_faction_names
from interpreter.scenarios.fixtures import with_fixtures
from interpreter.scenarios.flow import parse_call
from interpreter.scenarios.position import FACE, FACE_DOWN, on_top_zone, parse_label, split_label


def check_scenarios(ruleset: Ruleset, path: Path, parsed: ScenarioFile | None = None) -> list:
    """Problems of meaning in a scenario file: names the game lacks, positions needing more components."""
    boundary = ruleset.boundary or Boundary.of_ruleset(ruleset.directory)
    parsed = parsed or parse_scenario_file(path, boundary)
    locate = Locator(path, boundary)
    found = []
    game = ruleset  # each scenario is checked against the game it plays: with its fixtures, if it has any
    players = ruleset.content.players
    totals_by_options: dict[tuple, dict | None] = {}

    def totals_for(options: dict) -> dict | None:
        """kind -> owner -> how many components a game with these options has (as the runtime creates
        them: every player of the content has theirs, seated or not); None for options it refuses (LX332)."""
        key = (id(game), *sorted((str(k), str(v)) for k, v in options.items()))
        if key not in totals_by_options:
            try:
                totals_by_options[key] = by_kind(game.component_totals(dict(options)))
            except ValueError:
                totals_by_options[key] = None
        return totals_by_options[key]

    def where(*steps):
        return locate(*steps)

    def unknown(what, name, known, *steps):
        found.append(Diagnostic("LX327", f"the game has no {what} `{name}`", where(*steps), hint=did_you_mean(str(name), known)))

    def check_label(label, *steps):
        if isinstance(label, dict):  # `{"owner kind": {property: value}}`: a component with its state
            label = str(next(iter(label), ""))
        if len(label.removesuffix(FACE_DOWN).split()) not in (1, 2):
            found.append(Diagnostic("LX327", f"`{label}` is not a component: write `owner kind` (or `kind`), "
                                    "one per item of the list", where(*steps), hint="is a comma missing?"))
            return None
        owner, kind = parse_label(label)
        if kind not in game.content.pieces:
            unknown("kind of piece", kind, game.content.pieces, *steps)
            return None
        if owner is not None and owner not in players:
            unknown("player", owner, players, *steps)
            return None
        return owner, kind

    def check_player(name, *steps):
        if name is not None and name not in players and name != "draw":
            unknown("player", name, players, *steps)

    failed_fixtures = set()
    words_of: dict[int, set[str]] = {}  # id of a game -> the words its options may hold
    for i, scenario in enumerate(parsed.scenarios):
        try:
            game = with_fixtures(ruleset, *scenario._fixtures) if scenario._fixtures else ruleset
        except LudolexError as error:  # reported once for the fixtures of a file, shared by its scenarios
            found += [d for d in error.diagnostics if (d.code, d.message, d.sort_key()) not in failed_fixtures]
            failed_fixtures |= {(d.code, d.message, d.sort_key()) for d in error.diagnostics}
            continue
        kinds, symbols = game.content.pieces, game.program.symbols
        scenario = with_faction_names(scenario, symbols)
        totals = totals_for(scenario.options)
        found += _flow_problems(game, scenario, lambda *steps: where("scenarios", i, *steps), check_player)
        for j, name in enumerate(scenario.players or []):
            check_player(name, "scenarios", i, "players", j)
        for j, choice in enumerate(scenario.choices):
            if isinstance(choice, dict) and "by" in choice:
                check_player(choice["by"], "scenarios", i, "choices", j, "by")
        if id(game) not in words_of:
            words_of[id(game)] = option_words(game, boundary)
        found += _choice_problems(game, scenario, words_of[id(game)], locate, i)
        checked = [("position", scenario.position, ("scenarios", i, "position")),
                   ("expect", scenario.expect, ("scenarios", i, "expect"))]
        checked += [("expect", choice.expect, ("scenarios", i, "choices", j, "expect"))
                    for j, choice in enumerate(scenario.choices) if isinstance(choice, Checkpoint)]
        for name, value in scenario.options.items():
            try:
                game.program.chosen_options({name: value})
            except ValueError as error:
                found.append(Diagnostic("LX332", str(error), where("scenarios", i, "options", name)))
        for part, spec, at in checked:
            if spec is None:
                continue
            found += _state_problems(spec, symbols.properties, lambda *steps: where(*at, *steps))
            # what the part needs, as the runtime looks for it: (how, owner, kind) -> how many, where `how`
            # is OWN (a position takes the owner's own, else an ownerless one), EXACT (an expectation
            # reads components of that owner only) or ANY (a player's zone in `expect.zones` counts
            # whatever lies there, whoever owns it)
            needed: dict[tuple, int] = {}

            def need(how, owner, kind, count=1):
                needed[(how, owner, kind)] = needed.get((how, owner, kind), 0) + count

            laid = OWN if part == "position" else EXACT  # a label of `expect.board` is compared as written
            for location, stack in spec.board.items():
                if location not in game.board.index:
                    unknown("location", location, game.board.locations, *at, "board", location)
                for j, label in enumerate(stack):
                    key = check_label(label, *at, "board", location, j)
                    if key is not None:
                        need(laid, *key)
            for zone, labels in getattr(spec, "on_top", {}).items():
                if on_top_zone(game.program, zone) is None:
                    unknown("zone (or player's zone, `bag(alice)`)", zone, game.program.zones,
                            *at, "on_top", zone)
                for j, label in enumerate(labels):
                    key = check_label(label, *at, "on_top", zone, j)
                    if key is not None:
                        need(OWN, *key)
            for zone, owners in spec.zones.items():
                if zone not in game.program.zones:
                    unknown("zone", zone, game.program.zones, *at, "zones", zone)
                per_player = game.program.zones.get(zone, (False, ""))[0]
                for owner, counts in owners.items():
                    if owner not in players and owner != NOBODY:
                        unknown("player", owner, players, *at, "zones", zone, owner)
                        continue
                    holder = None if owner == NOBODY else owner
                    # the runtime's `zone_key` (scenarios/position.py): a player's own zone holds anybody's components
                    how = OWN if part == "position" else ANY if per_player and holder else EXACT
                    for kind, count in counts.items():
                        if kind not in kinds:
                            unknown("kind of piece", kind, kinds, *at, "zones", zone, owner, kind)
                            continue
                        need(how, holder, kind, len(count) if isinstance(count, list) else count)  # or their states
            if part == "expect":
                for source in spec.values:
                    found += _expression_problems(game, str(source), lambda: where(*at, "values", source))
                for player, sources in spec.sees.items():
                    check_player(player, *at, "sees", player)
                    for source in sources:
                        found += _expression_problems(game, str(source),
                                                      lambda: where(*at, "sees", player, source))
                if isinstance(spec.winner, list):
                    for j, name in enumerate(spec.winner):
                        check_player(name, *at, "winner", j)
                else:
                    check_player(spec.winner, *at, "winner")
                for table in ("scores", "points"):
                    for player in getattr(spec, table):
                        check_player(player, *at, table, player)
                if spec.decision is not None:
                    check_player(spec.decision.player, *at, "decision", "player")
            if part == "position":
                for name, value in spec.variables.items():
                    if name not in game.program.symbols.variables:
                        unknown("variable", name, game.program.symbols.variables, *at, "variables", name)
                    elif game.program.symbols.variable_types.get(name) == "number":
                        found += _not_numbers(name, value, game.program.symbols.variables[name],
                                              lambda *steps: where(*at, "variables", name, *steps))
            for label, count, have, hint in shortfalls(needed, totals) if totals is not None else ():
                found.append(Diagnostic("LX328", f"the {part} needs {count} `{label}` but the game has {have}",
                                        where(*at), hint=hint))
    return found


OWN, EXACT, ANY = "own", "exact", "any"  # how a scenario asks for components (see `needed` above)


def by_kind(totals: dict[tuple, int]) -> dict[str, dict]:
    """`Ruleset.component_totals` as kind -> owner (None: ownerless) -> how many."""
    kinds: dict[str, dict] = {}
    for (owner, kind), count in totals.items():
        kinds.setdefault(kind, {})[owner] = count
    return kinds


def shortfalls(needed: dict[tuple, int], totals: dict[str, dict]) -> list[tuple]:
    """(label, how many needed, how many the game has, hint) for each lack of components: exactly
    where the runtime would fail for want of them. `needed`: (how, owner, kind) -> how many;
    `totals`: what the game has, as `by_kind` gives it.

    A position takes each component as `_take` in scenarios/position.py does: the owner's own, else an
    ownerless one (a card in a hand), never another player's; `kind` alone takes an ownerless one.
    An expectation counts components of the owner written (`board`, a shared zone), or of any owner
    (a player's own zone in `zones`: red's bag may hold a token of blue's)."""
    asked: dict[str, dict[tuple, int]] = {}
    for (how, owner, kind), count in needed.items():
        if count > 0:
            asked.setdefault(kind, {})[(how, owner)] = count
    problems = []
    for kind, wants in asked.items():
        have = totals.get(kind, {})
        shared, everyone = have.get(None, 0), sum(have.values())

        def label(owner):
            return f"{owner} {kind}" if owner else kind

        def hint(owner):  # another player's components are laid under their own name
            owners = [o for o in have if o is not None and o != owner]
            if have.get(owner) or not owners:
                return None
            return (f"the game's `{kind}` are {' and '.join(owners)}'s: write `{owners[0]} {kind}` in `board` "
                    f"or `on_top`, or `{owners[0]}` as their owner in a shared zone of `zones`")

        own = {owner: n for (how, owner), n in wants.items() if how == OWN}
        spill = sum(n if owner is None else max(0, n - have.get(owner, 0)) for owner, n in own.items())
        if spill > shared:  # more than the ownerless ones left once each owner's own are taken
            if shared:  # a kind of ownerless components (a content kind is either shared or owned)
                total = sum(own.values())
                problems.append((kind, total, everyone, None) if total > everyone else (kind, spill, shared, None))
            else:
                problems += [(label(owner), n, have.get(owner, 0), hint(owner))
                             for owner, n in own.items() if n > have.get(owner, 0)]
        exact = {owner: n for (how, owner), n in wants.items() if how == EXACT}
        problems += [(label(owner), n, have.get(owner, 0), None)
                     for owner, n in exact.items() if n > have.get(owner, 0)]
        anyone = sum(n for (how, _), n in wants.items() if how == ANY)
        if anyone:
            taken = sum(min(n, have.get(owner, 0)) for owner, n in exact.items())
            if anyone + taken > everyone:
                problems.append((kind, anyone + taken, everyone, None))
    return problems


_WORD = re.compile(r"[^\s\[\],]+")  # the words of a label: values, or the items of a list `[a, b]`
_NAME = re.compile(r"[^\W\d][\w.]*")  # a name in the rules: `place`, `eyrie.roost`
_TEXT = re.compile(r'"((?:[^"\\]|\\.)*)"')  # a text in the rules: `"march"`
_NUMBER = re.compile(r"-?[0-9]+")
_COMPONENT = re.compile(r"(?:(\w+)-)?(\w+)-[0-9]+")  # a component's id: `green-boar-2`, `ambush-1`
# a component its decider cannot tell apart: its handle, its back and where it lies (`chip@a1`,
# `card@hand(red)#2`, see engine/knowledge.handle)
_HANDLE = re.compile(r"(\w+)@([\w.]+)(?:\((\w+)\))?(?:#[0-9]+)?")


def option_words(game: Ruleset, boundary: Boundary) -> set[str]:
    """Every word an option of the game may be written with: the names of its kinds, traits, players,
    locations and zones, the values of its content, and every word of its rules (a text a `choose`
    picks from, `"march"`, is written there). More than any one decision offers: a word outside it
    names nothing in the game, and no option is ever labelled with it."""
    symbols, content = game.program.symbols, game.content
    words = {"pass", "none", "true", "false", *symbols.kinds, *symbols.traits, *symbols.players,
             *game.board.locations, *game.program.zones, *symbols.decisions}
    values = [spec.model_dump() for spec in content.pieces.values()]
    if content.board is not None:
        values.append(content.board.model_dump())
    while values:
        value = values.pop()
        if isinstance(value, dict):
            values += value.values()
        elif isinstance(value, list):
            values += value
        elif isinstance(value, str):  # a property's value, an ability's text...
            words.update(_written(value), _WORD.findall(value))
    for path in game.rule_files:
        words.update(_written(read_source(path, boundary)))
    return words


def _written(source: str) -> set[str]:
    """The names of a text of the rules, and the words of the texts in it."""
    return {*_NAME.findall(source), *(w for text in _TEXT.findall(source) for w in _WORD.findall(text))}


def _choice_problems(game: Ruleset, scenario, words: set[str], locate: Locator, index: int) -> list:
    """LX327 for a choice that can never be an option: a word of it names nothing in the game
    (`place: boar a9` where the board has no a9), or its decision is one the rules never ask."""
    problems, symbols = [], game.program.symbols
    for j, choice in enumerate(scenario.choices):
        if isinstance(choice, Checkpoint):
            continue
        named = {k: v for k, v in choice.items() if k != "by"} if isinstance(choice, dict) else {None: choice}
        if len(named) != 1:  # the run says how to write it
            continue
        (decision, label), = named.items()
        steps = ("scenarios", index, "choices", j) + ((decision,) if decision is not None else ())
        if decision is not None and not _asked(decision, symbols, words):
            problems.append(Diagnostic("LX327", f"the rules ask no decision `{decision}`", locate(*steps),
                                       hint=did_you_mean(decision, symbols.decisions)))
            continue
        label = str(label)
        for word in _WORD.finditer(label):
            text = word.group()
            if _known(text, words, game):
                continue
            start, block = locate.text(*steps)  # a label written on one line: the word's own place
            where = start if block or "\n" in label else Position(start.file, start.line, start.column + word.start(),
                                                                   len(text))
            shown = f"`{decision}: {label}`" if decision is not None else f"`{label}`"
            problems.append(Diagnostic("LX327", f"{shown} can never be an option: nothing in the game is named `{text}`",
                                       where, hint=did_you_mean(text, [*game.board.locations, *symbols.kinds,
                                                                       *symbols.players])))
            break
    return problems


def _asked(decision: str, symbols, words: set[str]) -> bool:
    """Whether the rules may ask `decision`: a `choose`'s, `anytime` (a window's), or one the engine
    asks of a rule's events, `order_EVENT` (which handler first) or `replace_NAME` (which replacement)."""
    engine = decision.removeprefix("order_").removeprefix("replace_")
    return decision in symbols.decisions or decision == ANYTIME or (engine != decision and engine in words)


def _known(word: str, words: set[str], game: Ruleset) -> bool:
    """Whether an option may hold `word`: a word of the game, a number, a component's id or handle."""
    if word in words or _NUMBER.fullmatch(word):
        return True
    handle = _HANDLE.fullmatch(word)
    if handle:
        return all(part in words for part in handle.groups() if part)
    component = _COMPONENT.fullmatch(word)
    return bool(component) and component.group(2) in game.content.pieces \
        and component.group(1) in (None, *game.content.players)


def _flow_problems(game: Ruleset, scenario, where, check_player) -> list:
    """Where a scenario starts (`position.start`, `position.phase`) and stops (`until`): names the game lacks."""
    problems, symbols = [], game.program.symbols
    position = scenario.position
    if position is not None and position.phase and position.phase not in symbols.phases:
        problems.append(Diagnostic("LX327", f"the game has no phase `{position.phase}`", where("position", "phase"),
                                   hint=did_you_mean(position.phase, symbols.phases)))
    if scenario.until:
        what, name = ("event", scenario.until.split()[1]) if scenario.until.startswith("event ") else \
            ("phase", scenario.until.split()[-1])
        known = symbols.events if what == "event" else symbols.phases if scenario.until != "end of turn" else {"turn"}
        if name not in known:
            problems.append(Diagnostic("LX327", f"the game has no {what} `{name}`", where("until"),
                                       hint=did_you_mean(name, known)))
    start = position.start if position is not None else None
    if start is not None:
        problems += _start_problems(game, start.call, lambda: where("position", "start", "call"))
        if start.by is not None and start.by not in game.content.players:
            problems.append(Diagnostic("LX327", f"the game has no player `{start.by}`", where("position", "start", "by"),
                                       hint=did_you_mean(start.by, game.content.players)))
    return problems


def _start_problems(game: Ruleset, call: str, where) -> list:
    """`position.start`: a procedure of the rules, called with as many values as it takes, each an expression."""
    symbols = game.program.symbols
    parsed = parse_call(call)
    if parsed is None:
        return [Diagnostic("LX327", f"`{call}` is not a procedure call: write `name(value, ...)`", where())]
    written, values = parsed
    name = symbols.outside_name(written)
    if name not in symbols.procedures:
        return [Diagnostic("LX327", f"the game has no procedure `{written}`", where(),
                           hint=did_you_mean(written, symbols.procedures))]
    if len(values) != symbols.procedures[name]:
        return [Diagnostic("LX307", f"`{name}` takes {symbols.procedures[name]} value(s), not {len(values)}", where())]
    problems = []
    for value in values:
        problems += _expression_problems(game, value, where)
    return problems


def _state_problems(spec, properties: dict, where) -> list:
    """The states a position or an expectation gives components: declared properties, of their type."""
    laid = [(item, ("board", place, j)) for place, stack in spec.board.items() for j, item in enumerate(stack)]
    laid += [(item, ("on_top", zone, j)) for zone, items in getattr(spec, "on_top", {}).items() for j, item in enumerate(items)]
    states = [(split_label(item)[1], (*steps, split_label(item)[0])) for item, steps in laid if isinstance(item, dict)]
    states += [(given, ("zones", zone, owner, kind, j)) for zone, owners in spec.zones.items()
               for owner, counts in owners.items() for kind, count in counts.items()
               if isinstance(count, list) for j, given in enumerate(count)]
    problems = []
    for state, steps in states:
        for name, value in state.items():
            default = properties.get(name)
            if name == FACE and FACE not in properties:
                if value not in ("up", "down"):
                    problems.append(Diagnostic("LX327", f"`face` is `up` or `down`, not `{value}`", where(*steps, name)))
            elif name not in properties:
                problems.append(Diagnostic("LX327", f"the game has no property `{name}` (a `property` of the rules)",
                                           where(*steps, name), hint=did_you_mean(name, properties)))
            elif default is not None and value is not None and type(value) is not type(default):
                problems.append(Diagnostic("LX323", f"property `{name}` holds {type(default).__name__} values "
                                                    f"(it starts as {json.dumps(default)}), not {json.dumps(value)}",
                                           where(*steps, name)))
    return problems


def _not_numbers(name: str, value, per_player: bool, where) -> list:
    """LX323 for a text, true or false, or nothing (`vp: {red: }`) given to a variable that starts
    as a number: the rules would compute with it; LX205 for a number larger than a game holds."""
    values = value.items() if per_player and isinstance(value, dict) else [((), value)]
    found = [Diagnostic("LX323", f"variable `{name}` holds a number (it starts as one), not {json.dumps(item)}",
                        where(*((player,) if player != () else ())))
             for player, item in values if item is None or isinstance(item, (str, bool))]
    return found + [Diagnostic("LX205", f"variable `{name}`: the number {item} is larger than {LIMITS.largest_number:,}, "
                                        "the largest a game holds (LUDOLEX_LARGEST_NUMBER)",
                               where(*((player,) if player != () else ())))
                    for player, item in values if type(item) is int and abs(item) > LIMITS.largest_number]


def _expression_problems(ruleset: Ruleset, source: str, where) -> list:
    """The diagnostics of an expression of the rules written in a scenario; `where()` finds its place,
    which is slow: only when there is a problem to report."""
    def problems(at: Position) -> list:
        try:
            return ruleset.program.compile_value(source, at.file, (), at.line, at.column)[1]
        except LudolexError as error:  # a syntax error
            return error.diagnostics

    return problems(where()) if problems(Position("", 1, 1)) else []
