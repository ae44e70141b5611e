#!/usr/bin/env python3
"""Issue 33's spike, third step: one rules kernel on each candidate backend and data layout, on the
same positions, in one run.

    pip install -e '.[native]' wasmtime     # lupa (LuaJIT) and wasmtime (Cranelift): wheels, nothing compiled
    python tools/spike_backends.py --reps 200

The kernel is Cernunos's placement rule as its rules write it: `can_place(p, k, s)` for every kind
and square (96 pairs), with `power` (the run of the owner's tokens beneath, the owner's Deer
around, the enemy Wolves on the diagonals). Positions: 30 from random games (seeds 0-9, decisions
10, 20 and 30), each a new state (no value of an earlier state kept). The sides:

- generated Python backend: the engine's own compiled functions (cached values dropped per position);
- Lua backend as it is: the chunk's own `F.can_place`, the state keyed by strings;
- Lua, integer layout: the same rules written as the backend would with kinds, players, locations
  and components numbered and the state in arrays;
- WebAssembly, integer layout: the same, as WebAssembly text compiled by wasmtime (Cranelift), the
  state in its linear memory.

Each side counts the legal pairs (the same count, checked) and its time per position is printed
with its ratio to the generated Python backend.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter import Game, load
from interpreter.backends.lua.program import LuaGame, LuaProgram

KINDS = ("tree", "boar", "deer", "wolf", "squirrel", "fox", "crow", "fire")
TREE, DEER, WOLF, FIRE = 1, 3, 4, 8
PLAYERS = ("green", "purple")
MAX_HEIGHT, MAX_NEIGHBOURS = 32, 8


def positions(ruleset):
    """(Python game, the choices that led to it) at decisions 10, 20 and 30 of random games."""
    found = []
    for seed in range(10):
        game, rng, choices = Game(ruleset, seed=seed), random.Random(seed), []
        while not game.finished and len(choices) < 31:
            if len(choices) in (10, 20, 30):
                found.append((Game.replay(ruleset, seed, choices), seed, list(choices)))
            index = rng.randrange(len(game.decision.options))
            choices.append(index)
            game.choose(index)
    return found


def python_side(ruleset, games, reps):
    can_place = ruleset.program.functions["can_place"]
    locations = ruleset.board.locations
    count, start = 0, time.process_time()
    for _ in range(reps):
        for game in games:
            rt, player = game.runtime, game.decision.player
            rt.state.changed()
            for kind in KINDS:
                for square in locations:
                    if can_place(rt, player, kind, square):
                        count += 1
    return count, time.process_time() - start


LUA_AS_IS = """
return function(F, games, players, kinds, locations, reps)
  local n = 0
  for _ = 1, reps do
    for g = 1, #games do
      local G, p = games[g], players[g]
      G.S.version = G.S.version + 1
      for k = 1, #kinds do
        for l = 1, #locations do
          if F.can_place(G, p, kinds[k], locations[l]) then n = n + 1 end
        end
      end
    end
  end
  return n
end
"""

LUA_INTEGERS = """
local TREE, DEER, WOLF, FIRE = 1, 3, 4, 8
local function power(S, t)
  local zone, owner, kind = S.zone[t], S.owner, S.kind
  local stack, mine, count = S.stacks[zone], owner[t], 0
  for i = S.pos[t] - 1, 1, -1 do
    if owner[stack[i]] ~= mine then break end
    count = count + 1
  end
  local around = S.orthogonal[zone]
  for i = 1, #around do
    local s = S.stacks[around[i]]
    local v = s[#s]
    if v ~= nil and kind[v] == DEER and owner[v] == mine then count = count + 1 end
  end
  local diagonals = S.diagonal[zone]
  for i = 1, #diagonals do
    local s = S.stacks[diagonals[i]]
    local v = s[#s]
    if v ~= nil and kind[v] == WOLF and owner[v] ~= mine then count = count - 1 end
  end
  return count
end

local function can_place(S, p, k, square)
  local stack = S.stacks[square]
  local t = stack[#stack]
  if t == nil then return true end
  if k == TREE and S.kind[t] == FIRE then return false end
  return S.owner[t] == p or power(S, t) <= 0
end

return function(states, players, reps)
  local n = 0
  for _ = 1, reps do
    for g = 1, #states do
      local S, p = states[g], players[g]
      for k = 1, 8 do
        for square = 1, 12 do
          if can_place(S, p, k, square) then n = n + 1 end
        end
      end
    end
  end
  return n
end
"""

# Linear memory, in i32 words: each component's kind, owner, square and place in its stack; each
# square's height and stack; each square's orthogonal neighbours and diagonal ray (count, then items).
KIND, OWNER, ZONE, POS = 0, 64, 128, 192
HEIGHT, STACKS = 256, 272
ORTHO_N, ORTHO = STACKS + 12 * MAX_HEIGHT, STACKS + 12 * MAX_HEIGHT + 16
DIAG_N = ORTHO + 12 * MAX_NEIGHBOURS
DIAG = DIAG_N + 16
WORDS = DIAG + 12 * MAX_NEIGHBOURS

WAT = f"""
(module
  (memory (export "memory") 1)
  (func $get (param $at i32) (result i32) (i32.load (i32.shl (local.get $at) (i32.const 2))))
  (func $top (param $s i32) (result i32)
    (local $h i32)
    (local.set $h (call $get (i32.add (i32.const {HEIGHT}) (local.get $s))))
    (if (result i32) (i32.eqz (local.get $h))
      (then (i32.const 0))
      (else (call $get (i32.add (i32.const {STACKS})
        (i32.add (i32.mul (local.get $s) (i32.const {MAX_HEIGHT})) (i32.sub (local.get $h) (i32.const 1))))))))
  (func $power (param $t i32) (result i32)
    (local $zone i32) (local $mine i32) (local $count i32) (local $i i32) (local $n i32) (local $v i32)
    (local.set $zone (call $get (i32.add (i32.const {ZONE}) (local.get $t))))
    (local.set $mine (call $get (i32.add (i32.const {OWNER}) (local.get $t))))
    (local.set $i (i32.sub (call $get (i32.add (i32.const {POS}) (local.get $t))) (i32.const 2)))
    (block $done (loop $beneath
      (br_if $done (i32.lt_s (local.get $i) (i32.const 0)))
      (local.set $v (call $get (i32.add (i32.const {STACKS})
        (i32.add (i32.mul (local.get $zone) (i32.const {MAX_HEIGHT})) (local.get $i)))))
      (br_if $done (i32.ne (call $get (i32.add (i32.const {OWNER}) (local.get $v))) (local.get $mine)))
      (local.set $count (i32.add (local.get $count) (i32.const 1)))
      (local.set $i (i32.sub (local.get $i) (i32.const 1)))
      (br $beneath)))
    (local.set $n (call $get (i32.add (i32.const {ORTHO_N}) (local.get $zone))))
    (local.set $i (i32.const 0))
    (block $done (loop $around
      (br_if $done (i32.ge_s (local.get $i) (local.get $n)))
      (local.set $v (call $top (call $get (i32.add (i32.const {ORTHO})
        (i32.add (i32.mul (local.get $zone) (i32.const {MAX_NEIGHBOURS})) (local.get $i))))))
      (if (i32.and (i32.ne (local.get $v) (i32.const 0))
                   (i32.and (i32.eq (call $get (i32.add (i32.const {KIND}) (local.get $v))) (i32.const {DEER}))
                            (i32.eq (call $get (i32.add (i32.const {OWNER}) (local.get $v))) (local.get $mine))))
        (then (local.set $count (i32.add (local.get $count) (i32.const 1)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $around)))
    (local.set $n (call $get (i32.add (i32.const {DIAG_N}) (local.get $zone))))
    (local.set $i (i32.const 0))
    (block $done (loop $diagonals
      (br_if $done (i32.ge_s (local.get $i) (local.get $n)))
      (local.set $v (call $top (call $get (i32.add (i32.const {DIAG})
        (i32.add (i32.mul (local.get $zone) (i32.const {MAX_NEIGHBOURS})) (local.get $i))))))
      (if (i32.and (i32.ne (local.get $v) (i32.const 0))
                   (i32.and (i32.eq (call $get (i32.add (i32.const {KIND}) (local.get $v))) (i32.const {WOLF}))
                            (i32.ne (call $get (i32.add (i32.const {OWNER}) (local.get $v))) (local.get $mine))))
        (then (local.set $count (i32.sub (local.get $count) (i32.const 1)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $diagonals)))
    (local.get $count))
  (func $can_place (param $p i32) (param $k i32) (param $s i32) (result i32)
    (local $t i32)
    (local.set $t (call $top (local.get $s)))
    (if (i32.eqz (local.get $t)) (then (return (i32.const 1))))
    (if (i32.and (i32.eq (local.get $k) (i32.const {TREE}))
                 (i32.eq (call $get (i32.add (i32.const {KIND}) (local.get $t))) (i32.const {FIRE})))
      (then (return (i32.const 0))))
    (if (i32.eq (call $get (i32.add (i32.const {OWNER}) (local.get $t))) (local.get $p)) (then (return (i32.const 1))))
    (i32.le_s (call $power (local.get $t)) (i32.const 0)))
  (func (export "count") (param $p i32) (param $reps i32) (result i32)
    (local $n i32) (local $r i32) (local $k i32) (local $s i32)
    (block $end (loop $rep
      (br_if $end (i32.ge_s (local.get $r) (local.get $reps)))
      (local.set $k (i32.const 1))
      (block $kinds_done (loop $kinds
        (br_if $kinds_done (i32.gt_s (local.get $k) (i32.const 8)))
        (local.set $s (i32.const 0))
        (block $squares_done (loop $squares
          (br_if $squares_done (i32.ge_s (local.get $s) (i32.const 12)))
          (local.set $n (i32.add (local.get $n) (call $can_place (local.get $p) (local.get $k) (local.get $s))))
          (local.set $s (i32.add (local.get $s) (i32.const 1)))
          (br $squares)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $kinds)))
      (local.set $r (i32.add (local.get $r) (i32.const 1)))
      (br $rep)))
    (local.get $n)))
"""


def integer_state(game, board):
    """The position in the integer layout: components numbered from 1 (0: none), squares from 0."""
    state = game.state
    squares = list(board.locations)
    index = {name: i for i, name in enumerate(squares)}
    numbers = {c.id: n for n, c in enumerate((c for c in state.components.values() if c.zone in index), 1)}
    stacks = [[numbers[c.id] for c in state.zones[square]] for square in squares]
    component = {n: c for c in state.components.values() if (n := numbers.get(c.id))}
    orthogonal = [[index[x] for x in board.adjacent(square, ("orthogonal",))] for square in squares]
    diagonal = [[index[x] for x in board.ray(square, ("diagonal",), 2)] for square in squares]
    return {
        "kind": {n: KINDS.index(c.kind) + 1 for n, c in component.items()},
        "owner": {n: PLAYERS.index(c.owner) + 1 for n, c in component.items()},
        "zone": {n: index[c.zone] for n, c in component.items()},
        "pos": {n: stack.index(n) + 1 for stack in stacks for n in stack},
        "stacks": stacks, "orthogonal": orthogonal, "diagonal": diagonal,
    }


def lua_integers_side(rules, states, players, reps):
    runtime = rules.runtime
    kernel = runtime.execute(LUA_INTEGERS)
    tables = []
    for state in states:
        table = runtime.table_from({k: v for k, v in state.items() if k not in ("stacks", "orthogonal", "diagonal")},
                                   recursive=True)
        for name in ("stacks", "orthogonal", "diagonal"):  # Lua's squares count from 1
            table[name] = runtime.table_from([runtime.table_from([x + 1 for x in items] if name != "stacks" else items)
                                              for items in state[name]])
        table.zone = runtime.table_from({n: z + 1 for n, z in state["zone"].items()})
        tables.append(table)
    start = time.process_time()
    count = kernel(runtime.table_from(tables), runtime.table_from(players), reps)
    return count, time.process_time() - start


def wasm_side(states, players, reps):
    import wasmtime

    engine = wasmtime.Engine()
    store = wasmtime.Store(engine)
    instance = wasmtime.Instance(store, wasmtime.Module(engine, WAT), [])
    memory, count_pairs = instance.exports(store)["memory"], instance.exports(store)["count"]
    count, elapsed = 0, 0.0
    for state, player in zip(states, players):
        words = [0] * WORDS
        for name, base in (("kind", KIND), ("owner", OWNER), ("zone", ZONE), ("pos", POS)):
            for n, value in state[name].items():
                words[base + n] = value
        for square, stack in enumerate(state["stacks"]):
            words[HEIGHT + square] = len(stack)
            for i, n in enumerate(stack):
                words[STACKS + square * MAX_HEIGHT + i] = n
        for name, count_at, items_at in (("orthogonal", ORTHO_N, ORTHO), ("diagonal", DIAG_N, DIAG)):
            for square, items in enumerate(state[name]):
                words[count_at + square] = len(items)
                for i, x in enumerate(items):
                    words[items_at + square * MAX_NEIGHBOURS + i] = x
        memory.write(store, b"".join(w.to_bytes(4, "little") for w in words), 0)
        start = time.process_time()
        count += count_pairs(store, player, reps)
        elapsed += time.process_time() - start
    return count, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=200)
    args = parser.parse_args()
    ruleset = load("rulesets/cernunos")
    rules = LuaProgram(ruleset).compile()
    found = positions(ruleset)
    games = [game for game, _, _ in found]
    lua_games = []
    for _, seed, choices in found:
        lua = LuaGame(rules, seed=seed)
        for index in choices:
            lua.choose(index)
        lua_games.append(lua.G)
    names = [game.decision.player for game in games]
    numbers = [PLAYERS.index(p) + 1 for p in names]
    states = [integer_state(game, ruleset.board) for game in games]
    runtime = rules.runtime
    as_is = runtime.execute(LUA_AS_IS)
    locations = runtime.table_from(list(ruleset.board.locations))

    def lua_as_is(reps):
        start = time.process_time()
        count = as_is(rules.compiled.F, runtime.table_from(lua_games), runtime.table_from(names),
                      runtime.table_from(list(KINDS)), locations, reps)
        return count, time.process_time() - start

    sides = {
        "generated Python backend": lambda reps: python_side(ruleset, games, reps),
        "Lua backend as it is (strings, tables)": lua_as_is,
        "Lua, integer layout": lambda reps: lua_integers_side(rules, states, numbers, reps),
        "WebAssembly (wasmtime), integer layout": lambda reps: wasm_side(states, numbers, reps),
    }
    python_reps = max(1, args.reps // 20)
    results = {}
    for name, side in sides.items():
        reps = python_reps if name.startswith("generated") else args.reps
        side(max(1, reps // 10))  # warm-up: LuaJIT's traces, wasmtime's compilation
        count, elapsed = side(reps)
        results[name] = (count // reps, elapsed / (reps * len(games)))
    counts = {count for count, _ in results.values()}
    assert len(counts) == 1, f"the sides disagree on the legal pairs: {results}"
    base = results["generated Python backend"][1]
    print(f"Cernunos's can_place over 96 pairs, {len(games)} positions ({counts.pop()} legal pairs in all)")
    print(f"{'':42} {'µs per position':>16} {'x generated Python':>19}")
    for name, (_, per_position) in results.items():
        print(f"{name:42} {per_position * 1e6:16.2f} {base / per_position:19.1f}")


if __name__ == "__main__":
    main()
