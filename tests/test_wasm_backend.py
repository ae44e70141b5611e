"""The WebAssembly backend (issue 33's choice): Cernunos compiled to one module plays the games of the
hand-written oracle and of the generated Python backend, copies a game as memory, keeps the engine's
step limit, reaches nothing outside its memory, and says what it cannot compile yet with its place."""
import random
from pathlib import Path

import pytest

pytest.importorskip("wasmtime")

import cernunos_baseline as baseline
from toy import toy_folder

from interpreter import Game, load
from interpreter.backends.wasm.expressions import NotOnWasm
from interpreter.backends.wasm.program import WasmGame, WasmProgram
from interpreter.engine.decisions import DECIDER, EVERYTHING
from interpreter.safety.limits import LimitExceeded


@pytest.fixture(scope="module")
def rules(cernunos):
    return WasmProgram(cernunos).compile()


def test_random_games_inside_the_module_are_the_hand_written_ones(rules):
    for seed in range(150):
        expected = [(name, player, len(options), index) for name, player, options, index
                    in baseline.trace_random_game(seed)]
        game = WasmGame(rules, seed=seed)
        assert game.play_random(trace=True) == expected, f"seed {seed}"
        result = baseline.play_random_game(seed)
        assert (game.result.winner, game.result.scores) == (result["winner"], result["scores"]), f"seed {seed}"


def test_decisions_asked_from_python_are_the_generated_backends(cernunos, rules):
    for seed in range(12):
        python, wasm, rng = Game(cernunos, seed=seed), WasmGame(rules, seed=seed), random.Random(seed)
        while not python.finished:
            assert not wasm.finished
            assert (wasm.decision.name, wasm.decision.player) == (python.decision.name, python.decision.player)
            assert wasm.decision.labels() == python.decision.labels()
            index = rng.randrange(len(python.decision.options))
            python.choose(index)
            wasm.choose(index)
        assert wasm.finished
        assert (wasm.result.winners, wasm.result.scores, wasm.result.reason) == \
            (python.result.winners, python.result.scores, python.result.reason)


def assert_same_games(ruleset, seeds, players=None, labels=DECIDER, compiled_for=None):
    """Random games on the generated Python backend and on the module, at this table: the same decisions,
    options and labels (as `labels` sees them: the module shows every component), and the same results.
    `compiled_for`: the order of the players the module is compiled for, if not the games' own."""
    rules = WasmProgram(ruleset, compiled_for or players).compile()
    for seed in seeds:
        python, wasm = Game(ruleset, seed=seed, players=players), WasmGame(rules, seed, players)
        rng = random.Random(seed)
        while not python.finished:
            assert not wasm.finished, f"seed {seed}: the module ended, Python asks {python.decision.name}"
            expected = (python.decision.name, python.decision.player, python.decision.labels(labels))
            assert (wasm.decision.name, wasm.decision.player, wasm.decision.labels()) == expected, f"seed {seed}"
            index = rng.randrange(len(python.decision.options))
            python.choose(index)
            wasm.choose(index)
        assert wasm.finished, f"seed {seed}: Python ended, the module asks {wasm.decision}"
        assert vars(wasm.result) == vars(python.result), f"seed {seed}"


THREE_WITH_CHIPS = """\
    players: [red, blue, green]
    board:
      locations: {}
    pieces:
      chip: {per_player: 3, starts_in: supply}
    """

SHOUTING = """\
    zone supply per player
    zone pot
    variable current = first(p in players)
    variable score per player = 0
    variable mood = "calm"

    play:
        repeat:
            turn current:
                choose action in ["bet", "rest", "shout"] as act
                if action = "bet":
                    choose chip in pieces(supply(you)) as bet or pass
                    if chip != none:
                        move chip to pot
                        set score(you) = score(you) + 2
                elif action = "shout" and mood = "calm":
                    set mood = "loud"
                    set score(you) = score(you) + 1
                elif action = "shout":
                    lose you by "shouting twice"
                if score(you) >= 5:
                    win you by "five points"
                if count(p in players where empty(supply(p))) >= 2:
                    draw
            set current = next(current)
    """


@pytest.mark.parametrize("players", [None, ["blue", "green"], ["green", "red"]])
def test_texts_variables_of_each_player_endings_and_partial_tables(tmp_path, players):
    assert_same_games(load(toy_folder(tmp_path, THREE_WITH_CHIPS, shouting=SHOUTING)), range(40), players)


def test_one_module_serves_every_order_of_its_players(tmp_path):
    """The order is written into each game (who plays first, who follows whom, the variables it sets)."""
    ruleset = load(toy_folder(tmp_path, THREE_WITH_CHIPS, shouting=SHOUTING))
    for order in (["green", "red", "blue"], ["blue", "green", "red"]):
        assert_same_games(ruleset, range(20), order, compiled_for=["red", "blue", "green"])


SCOUTING_CONTENT = """\
    players: [red, blue]
    board:
      locations:
        a: {terrain: hill, worth: 2}
        b: {terrain: lake, worth: 1}
        c: {terrain: hill, worth: 3}
      connections:
        - {from: a, to: b, type: road}
        - {from: b, to: c, type: river}
        - {from: a, to: c, type: road}
    pieces:
      scout: {per_player: 3, starts_in: supply, properties: {speed: 2, tags: [fast, small]}}
      tower: {per_player: 1, starts_in: supply, properties: {speed: 0, tags: [slow]}}
      card: {count: 8, starts_in: deck, properties: {value: 3, suits: [sun, moon]}}
    """
SCOUTING = """\
    zone supply per player
    zone deck
    zone discard
    variable current = red
    variable score per player = 0
    variable seen = []
    variable log = []
    property hurt = 0
    event scouted(s, spot)

    when scouted(s, spot) if s.speed > 1:
        set score(s.owner) = score(s.owner) + worth_of(spot)
        set log = log + [[s.kind, spot]]

    when start of turn:
        set score(you) = score(you) + size(pieces_in(select(l in locations where not empty(l)))) mod 3

    when end of scouting:
        set seen = distinct(seen + [you])

    function worth_of(l) = l.worth / 1 + (if l.terrain = "hill" then 1 else 0)
    function routes(p) = if p = red then [road] else [road, river]
    function best(p) = max(x in [score(p), 0])

    procedure scout_somewhere():
        choose s in pieces(supply(you)), spot in locations where s.speed >= 0 as place
        move s to spot
        emit scouted(s, spot)
        flip s face down
        if s is face down and s.controller = you:
            set s.hurt = s.hurt + roll(6)

    play:
        shuffle deck
        repeat:
            turn current:
                phase scouting:
                    repeat 2 times:
                        if empty(supply(you)):
                            end turn
                        scout_somewhere()
                phase drawing:
                    let n = 0
                    while n < 2 and not empty(deck):
                        move top(deck) to discard
                        set n = n + 1
                    repeat n times:
                        set score(you) = score(you) + nth(reverse(numbers(1, 3)), 0) - 3
                    let sorted_pieces = sorted(x in pieces_in(locations) by most x.hurt, fewest x.speed)
                    as next(you):
                        if random([1, 2, 3]) = 2 and size(subsets([1, 2, 3])) = 8:
                            set score(you) = score(you) + 1
                    choose l in adjacent(first(x in locations), routes(you)) as travel or pass
                    if [1, 2] = [1, 2] and log != [] and first(t in [[1]]) = [1] and "sun" in card.suits:
                        set score(you) = score(you) + min(v in [3, 1, 2])
            if score(current) >= 12 or all(p in players where empty(supply(p))):
                end game ranked by most best
            set current = next(current)
    """


def test_lists_kept_by_variables_builtins_events_phases_and_sorting(tmp_path):
    """`when` rules of events, of the start of a turn and of the end of a phase (the turn ending inside
    it), lists made, compared, sorted and kept in a variable, fixed values of kinds and locations,
    connections worked out in the game, shuffles, dice and draws."""
    assert_same_games(load(toy_folder(tmp_path, SCOUTING_CONTENT, scouting=SCOUTING)), range(40))


GUARDED_CONTENT = """\
    players: [red, blue]
    board:
      locations:
        a: {}
        b: {}
        c: {}
      connections:
        - {from: a, to: b, type: road}
        - {from: b, to: c, type: road}
    pieces:
      pawn: {per_player: 4, starts_in: supply}
      gem: {count: 6, starts_in: bag}
    """
GUARDED = """\
    zone supply per player
    zone bag unordered
    zone vault per player
    zone graveyard
    variable current = red
    variable score per player = 0
    variable moves = 0

    cannot place x in site if site = c and count(p in pieces(site) where p.owner = x.owner) >= 2
    cannot move x from origin to target if target = a and x.owner = blue
    cannot remove x from site if site = b and x.owner = red

    when moved(things, origin, target) if target in locations:
        set moves = moves + size(things)
        if origin = none:
            choose g in pieces(bag) as loot or pass
            if g != none:
                move g to vault(you)

    function value(p) = score(p) + 2 * size(vault(p))
    override value(p) = 100 if p = red and size(vault(p)) >= 3
    override value(p) = 50 if size(vault(p)) >= 2 precedence 1

    function own(p) = pieces(supply(p)) + select(x in pieces_in(locations) where x.owner = p)

    procedure gain(n):
        set score(you) = score(you) + n

    instead of gain(n) if n > 1 as double:
        proceed
        set score(you) = score(you) + n

    instead of gain(n) if n > 2 as halve:
        set score(you) = score(you) + n / 2

    procedure act():
        choose x in own(you), spot in locations + [graveyard] as act or pass
        if x = none:
            return
        move x to spot
        gain(size(pieces(spot)))

    procedure bury():
        let victims = select(p in pieces_in(locations) where p.owner != you)
        move victims to graveyard
        move first(g in pieces(bag)) to bag at bottom face down

    play:
        repeat:
            turn current:
                act()
                act()
                if moves > 8:
                    bury()
            if value(current) >= 50 or moves > 30 or empty(supply(current)):
                end game ranked by most value
            set current = next(current)
    """


def test_cannot_rules_moves_announced_bags_instead_of_and_overrides(tmp_path):
    """`cannot place / move / remove`, a `moved` rule that asks, a move into an unordered zone and to the
    bottom face down, `instead of` rules (two that hold: the acting player orders them; `proceed`),
    `override` with `precedence`."""
    assert_same_games(load(toy_folder(tmp_path, GUARDED_CONTENT, guarded=GUARDED)), range(40))


@pytest.fixture(scope="module")
def root():
    return load("rulesets/root")


def test_root_games_are_the_python_backends(root):
    """Root's four base factions, every construct of its rules, decision for decision."""
    assert_same_games(root, range(2), labels=EVERYTHING)


@pytest.mark.parametrize("game, seeds, max_turns", [("cernunos", range(4), None), ("root", range(2), 6)])
def test_simulated_games_are_recorded_as_on_the_python_backend(game, seeds, max_turns, monkeypatch):
    """`simulate` plays random bots inside the module: the same records (log, choices counted, score
    curve, points by reason, first mover, kinds moved), to the turn limit."""
    from interpreter.simulation import runner
    from interpreter.simulation.native import play_native
    ruleset, table = load(f"rulesets/{game}"), runner.Table(max_turns=max_turns)
    monkeypatch.setenv("LUDOLEX_NATIVE", "1")
    for seed in seeds:
        native = play_native(ruleset, seed, table, table.seating(seed, ruleset.program.table))
        with monkeypatch.context() as python:
            python.setenv("LUDOLEX_NATIVE", "0")
            assert native == runner.play_one(ruleset, seed, table), f"seed {seed}"


def test_the_duchy_sways_with_sets_of_cards_as_on_the_python_backend(root):
    """Options that are lists (`subsets` of a hand) are labelled as the Python backend labels them."""
    assert_same_games(root, range(7030, 7040), ["lizards", "riverfolk", "corvids", "duchy"], labels=EVERYTHING)


def test_other_bots_and_options_are_played_on_the_python_backend(cernunos, monkeypatch):
    from interpreter.simulation import runner
    from interpreter.simulation.native import play_native
    seats = list(cernunos.program.table)
    assert play_native(cernunos, 1, runner.Table(), seats) is None  # without LUDOLEX_NATIVE=1
    monkeypatch.setenv("LUDOLEX_NATIVE", "1")
    assert play_native(cernunos, 1, runner.Table(), seats) is not None
    assert play_native(cernunos, 1, runner.Table(bots=("rule_of_thumb",)), seats) is None
    assert play_native(cernunos, 1, runner.Table(check=True), seats) is None


def _play(game, rng):
    while not game.finished:
        game.choose(rng.randrange(len(game.decision.options)))
    return game.result.winners, game.result.scores


def test_a_copy_goes_on_as_the_original_and_alone(rules):
    game, rng = WasmGame(rules, seed=3), random.Random(3)
    for _ in range(20):
        game.choose(rng.randrange(len(game.decision.options)))
    copy, pending = game.copy(), game.decision.labels()
    assert copy.decision.labels() == pending
    ended = _play(copy, random.Random(99))
    assert game.decision.labels() == pending
    assert _play(game.copy(), random.Random(99)) == ended
    assert _play(game, random.Random(99)) == ended


def test_the_module_imports_nothing(rules):
    assert list(rules.module.imports) == []
    assert "(import" not in rules.writer.source


def test_the_step_limit_holds_and_says_where(rules):
    game = WasmGame(rules, seed=0)
    game.words[rules.writer.mem.STEP_BUDGET >> 2] = 1  # one step between two decisions
    game.words[rules.writer.mem.STEP_LIMIT >> 2] = game.words[rules.writer.mem.STEPS >> 2] + 1
    with pytest.raises(LimitExceeded) as caught:
        game.choose(0)  # placing a Tree, then the second placement: three steps
    assert "steps between two decisions" in str(caught.value)
    assert caught.value.position is not None and caught.value.position.file.endswith(".rules")


def test_what_is_not_compiled_yet_is_said_at_its_place():
    with pytest.raises(NotOnWasm) as caught:
        WasmProgram(load("rulesets/seventh_citadel"))
    assert caught.value.pos is not None and "seventh_citadel" in caught.value.pos.file


def test_the_search_bot_searches_on_native_copies(cernunos, monkeypatch):
    from interpreter.agents.bots import make_agent
    game, rng = Game(cernunos, seed=5), random.Random(5)
    agent = make_agent("search:30", cernunos, game, 1)
    assert agent.native is not None  # Cernunos hides nothing, and its rules compile
    for _ in range(6):  # its own decisions and the random answers of the other side
        decision = game.decision
        index = agent.choose(decision) if decision.player == game.players[0] else rng.randrange(len(decision.options))
        assert 0 <= index < len(decision.options)
        game.choose(index)
    assert agent.native is not None and agent.synced == len(game.log) - 1  # the shadow followed every choice


def test_without_the_native_backend_the_search_bot_replays(cernunos, monkeypatch):
    from interpreter.agents.bots import make_agent
    monkeypatch.setenv("LUDOLEX_NATIVE", "0")
    game = Game(cernunos, seed=5)
    agent = make_agent("search:10", cernunos, game, 1)
    assert agent.native is None
    assert 0 <= agent.choose(game.decision) < len(game.decision.options)


def test_no_name_from_a_file_can_end_an_identifier():
    from interpreter.backends.wasm.expressions import identifier
    assert identifier("red.bonus_2") == "red.bonus_2"
    for name in ["a) (call $x", "b\"", "c d", "é"]:
        with pytest.raises(NotOnWasm):
            identifier(name)


def test_it_plays_under_a_cap_on_address_space():
    """wasmtime's default reserves 4 GiB per instance; under `ulimit -v` the backend reserves less."""
    import subprocess
    import sys
    code = ("import resource; resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))\n"
            "from interpreter import load\n"
            "from interpreter.backends.wasm.program import WasmGame, WasmProgram\n"
            "game = WasmGame(WasmProgram(load('rulesets/cernunos')).compile(), seed=1)\n"
            "game.play_random()\n"
            "print(game.result.winners)\n")
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=root,
                          check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() in ("['green']", "['purple']", "[]")
