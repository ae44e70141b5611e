#!/usr/bin/env python3
"""Issue 33's spike, first figures: what LuaJIT (through lupa) costs and gains at the places a game
core in Lua would touch Python, against the same work in CPython, measured in one run.

    pip install lupa==2.8      # a wheel with LuaJIT 2.1 inside: nothing is compiled
    .venv/bin/python tools/spike_lua_boundary.py

Three measures, each as time per step and as a ratio to CPython's:
- decisions asked across the boundary: a Lua coroutine yields a decision (a list of options) and
  Python resumes it with an answer, as a core in Lua would ask a bot in Python; against a Python
  generator doing the same;
- decisions kept inside Lua: the coroutine answered by a Lua bot (random), as a playout would run;
- a rules kernel: on a 4 x 3 grid of stacks, for every square, the owner's tokens among the tops of
  its orthogonal neighbours (the shape of Cernunos's `linked` and power counts).

And the sandbox: the runtime keeps only the libraries a rules backend needs (no `io`, `os`,
`load`, `require`, `debug`), which the script checks.
"""
from __future__ import annotations

import argparse
import random
import time

try:
    from lupa import luajit21 as lua
except ImportError:
    raise SystemExit("this spike needs lupa: pip install lupa==2.8") from None

SANDBOX = """
io, os, load, loadfile, dofile, require, debug, package, loadstring, collectgarbage, python = nil
"""

LUA_CODE = """
function game(steps, options)
  local total = 0
  for step = 1, steps do
    local choice = coroutine.yield(options)
    total = total + choice
  end
  return total
end

function play_inside(steps, options, seed)
  local co = coroutine.create(function() return game(steps, options) end)
  local state = seed
  local ok, asked = coroutine.resume(co)
  while coroutine.status(co) ~= "dead" do
    state = (state * 1103515245 + 12345) % 2147483648
    ok, asked = coroutine.resume(co, asked[(state % #asked) + 1])
  end
  return asked
end

function linked_counts(stacks, owners, columns, rows, rounds)
  local total = 0
  for round = 1, rounds do
    for x = 0, columns - 1 do
      for y = 0, rows - 1 do
        local square = x * rows + y + 1
        local stack = stacks[square]
        local top = stack[#stack]
        if top then
          local owner = owners[top]
          local count = 0
          if x > 0 then local s = stacks[square - rows]; local t = s[#s]; if t and owners[t] == owner then count = count + 1 end end
          if x < columns - 1 then local s = stacks[square + rows]; local t = s[#s]; if t and owners[t] == owner then count = count + 1 end end
          if y > 0 then local s = stacks[square - 1]; local t = s[#s]; if t and owners[t] == owner then count = count + 1 end end
          if y < rows - 1 then local s = stacks[square + 1]; local t = s[#s]; if t and owners[t] == owner then count = count + 1 end end
          total = total + count
        end
      end
    end
  end
  return total
end
"""


def python_game(steps: int, options: list[int]):
    total = 0
    for _ in range(steps):
        total += yield options
    return total


def python_linked_counts(stacks, owners, columns, rows, rounds):
    total = 0
    for _ in range(rounds):
        for x in range(columns):
            for y in range(rows):
                square = x * rows + y
                stack = stacks[square]
                if not stack:
                    continue
                owner = owners[stack[-1]]
                count = 0
                for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                    nx, ny = x + dx, y + dy
                    if 0 <= nx < columns and 0 <= ny < rows:
                        other = stacks[nx * rows + ny]
                        if other and owners[other[-1]] == owner:
                            count += 1
                total += count
    return total


def timed(work) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def best_of(repeats: int, work) -> float:
    return min(timed(work) for _ in range(repeats))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200_000, help="decisions per measure")
    parser.add_argument("--rounds", type=int, default=20_000, help="passes of the rules kernel over the grid")
    parser.add_argument("--repeats", type=int, default=5, help="the best of this many runs is kept")
    args = parser.parse_args()

    runtime = lua.LuaRuntime(register_eval=False, register_builtins=False)
    runtime.execute(SANDBOX)
    runtime.execute(LUA_CODE)
    leaks = [name for name in ("io", "os", "load", "require", "debug", "loadstring", "python")
             if runtime.eval(f"rawget(_G, '{name}')") is not None]
    print(f"LuaJIT {runtime.eval('jit.version')}, lupa sandbox: {'open: ' + ', '.join(leaks) if leaks else 'no io, os, load, require, debug, python'}")

    options_py = list(range(1, 9))
    options_lua = runtime.table_from(options_py)
    rng = random.Random(1)

    def across_python():
        game = python_game(args.steps, options_py)
        asked = next(game)
        try:
            while True:
                asked = game.send(asked[rng.randrange(len(asked))])
        except StopIteration:
            pass

    def across_lua():
        resume = runtime.globals().game.coroutine(args.steps, options_lua).send
        asked = resume(None)
        for _ in range(args.steps):  # the last answer comes back with the game's return value
            asked = resume(asked[rng.randrange(len(asked)) + 1])

    play_inside = runtime.globals().play_inside
    decisions = [("decisions, bot in Python", across_python, across_lua),
                 ("decisions, bot inside (playout)", across_python, lambda: play_inside(args.steps, options_lua, 7))]
    print(f"{'measure':34} {'CPython':>12} {'LuaJIT':>12} {'ratio':>8}")
    for name, python_work, lua_work in decisions:
        python_s, lua_s = best_of(args.repeats, python_work), best_of(args.repeats, lua_work)
        print(f"{name:34} {1e9 * python_s / args.steps:9.0f} ns {1e9 * lua_s / args.steps:9.0f} ns "
              f"{python_s / lua_s:7.1f}x")

    columns, rows = 4, 3
    layout = random.Random(2)
    owners = {n: layout.choice(["green", "purple"]) for n in range(24)}
    stacks = [[layout.randrange(24) for _ in range(layout.randrange(4))] for _ in range(columns * rows)]
    lua_stacks = runtime.table_from([runtime.table_from([t + 1 for t in stack]) for stack in stacks])
    lua_owners = runtime.table_from([owners[n] for n in range(24)])
    python_s = best_of(args.repeats, lambda: python_linked_counts(stacks, owners, columns, rows, args.rounds))
    lua_s = best_of(args.repeats, lambda: runtime.globals().linked_counts(lua_stacks, lua_owners, columns, rows,
                                                                          args.rounds))
    same = python_linked_counts(stacks, owners, columns, rows, 1) == \
        runtime.globals().linked_counts(lua_stacks, lua_owners, columns, rows, 1)
    print(f"{'rules kernel, per grid pass':34} {1e9 * python_s / args.rounds:9.0f} ns "
          f"{1e9 * lua_s / args.rounds:9.0f} ns {python_s / lua_s:7.1f}x  (same counts: {'yes' if same else 'NO'})")


if __name__ == "__main__":
    main()
