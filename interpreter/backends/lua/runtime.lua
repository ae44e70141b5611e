-- The Lua backend's runtime: what generated rules run against (see backends/lua/__init__.py).
--
-- A game is one table, G: its state (G.S), the frames of the rules running (G.stack), its random
-- generator (G.mt) and counters. Everything in G is plain data (numbers, strings, tables, and the
-- functions of the compiled rules, shared), so that `copy` copies a game at any decision.
--
-- A rule that may stop for a decision runs as a frame: a table holding its locals and `pc`, the
-- place it resumes at, and `fn`, its compiled function `fn(G, f)`. The function returns nil when the
-- rule is done, CALL when it pushed a frame (or unwound some), SUSPEND when it waits for an answer
-- from outside. `run` runs the frame on top until the stack is empty or a decision is pending.
local R = {}
local LIMITS = ...  -- the engine's limits on untrusted rules, from Python
local CALL, SUSPEND = 1, 2
R.CALL, R.SUSPEND = CALL, SUSPEND

local floor = math.floor
local band, bxor, rshift, lshift = bit.band, bit.bxor, bit.rshift, bit.lshift

-- Errors -----------------------------------------------------------------------------------------
-- A rule's runtime error is a table {where = the place's number, message = text}; Python turns the
-- number into a file, line and column.
function R.fail(where, message)
  error({where = where, message = message}, 0)
end

-- Python's random.Random, exactly: MT19937 seeded as CPython seeds it with an int, and randrange ------
local function u32(x) return x % 4294967296 end
local function mul32(a, b)  -- (a * b) mod 2^32 for a, b below 2^32, exact in doubles
  local high, low = floor(a / 65536), a % 65536
  return (low * b + ((high * b) % 65536) * 65536) % 4294967296
end

local function init_genrand(mt, s)
  mt[0] = s
  for i = 1, 623 do
    local prev = mt[i - 1]
    mt[i] = u32(mul32(1812433253, u32(bxor(prev, rshift(prev, 30)))) + i)
  end
end

function R.seeded(seed)
  -- CPython seeds with the 32-bit words of abs(seed), least significant first ([0] for 0)
  local key, n = {}, math.abs(seed)
  repeat
    key[#key + 1] = n % 4294967296
    n = floor(n / 4294967296)
  until n == 0
  local mt = {}
  init_genrand(mt, 19650218)
  local i, j = 1, 0
  for _ = 1, math.max(624, #key) do
    local prev = mt[i - 1]
    mt[i] = u32(u32(bxor(mt[i], mul32(u32(bxor(prev, rshift(prev, 30))), 1664525))) + key[j + 1] + j)
    i, j = i + 1, j + 1
    if i >= 624 then mt[0] = mt[623]; i = 1 end
    if j >= #key then j = 0 end
  end
  for _ = 1, 623 do
    local prev = mt[i - 1]
    mt[i] = u32(u32(bxor(mt[i], mul32(u32(bxor(prev, rshift(prev, 30))), 1566083941))) - i)
    i = i + 1
    if i >= 624 then mt[0] = mt[623]; i = 1 end
  end
  mt[0] = 2147483648
  mt.index = 624
  return mt
end

local function twist(mt)
  for k = 0, 623 do
    local y = u32(band(mt[k], 0x80000000) + band(mt[(k + 1) % 624], 0x7fffffff))
    local value = bxor(mt[(k + 397) % 624], rshift(y, 1))
    if y % 2 == 1 then value = bxor(value, 0x9908b0df) end
    mt[k] = u32(value)
  end
  mt.index = 0
end

local function genrand(mt)
  if mt.index >= 624 then twist(mt) end
  local y = mt[mt.index]
  mt.index = mt.index + 1
  y = bxor(y, rshift(y, 11))
  y = bxor(y, band(lshift(y, 7), 0x9d2c5680))
  y = bxor(y, band(lshift(y, 15), 0xefc60000))
  y = bxor(y, rshift(y, 18))
  return u32(y)
end

-- randrange(n) for 0 < n < 2^32: getrandbits of n's bit length, drawn again while too large
function R.randbelow(mt, n)
  local bits, m = 0, n
  while m > 0 do bits = bits + 1; m = floor(m / 2) end
  local shift = 32 - bits
  local r = floor(genrand(mt) / 2 ^ shift)
  while r >= n do r = floor(genrand(mt) / 2 ^ shift) end
  return r
end

-- Copies -------------------------------------------------------------------------------------------
local function deep(value, seen)
  if type(value) ~= "table" then return value end
  local done = seen[value]
  if done then return done end
  local copy = {}
  seen[value] = copy
  for k, v in next, value do copy[k] = deep(v, seen) end
  return copy
end

-- A game's copy, taking nothing from the original: state, frames, generator and counters.
function R.copy(G)
  local shared = G.bot  -- a function: shared, as the rules' functions in the frames are
  local memo = G.memo
  G.memo = {}  -- values of the rules' functions: worked out again in the copy
  local copy = deep(G, {})
  G.memo = memo
  copy.bot = shared
  return copy
end

-- Running ------------------------------------------------------------------------------------------
function R.push(G, fn, f)
  f.fn, f.pc = fn, 0
  local stack = G.stack
  stack[#stack + 1] = f
  return CALL
end

-- Runs the rules until a decision waits for an answer from outside (true) or the game is over (false).
function R.run(G)
  local stack = G.stack
  while true do
    local n = #stack
    if n == 0 then return false end
    local f = stack[n]
    local r = f.fn(G, f)
    if r == nil then
      if stack[n] == f then stack[n] = nil end
    elseif r == SUSPEND then
      return true
    end
  end
end

function R.step(G, where)
  local steps = G.steps + 1
  G.steps = steps
  if steps > G.step_limit then
    R.fail(where, "the rules ran past the limit of " .. G.step_limit .. " steps between two decisions: a loop that never ends?")
  end
end

-- A decision: the index (from 1) of the option taken, answered inside by the game's bot; nil when
-- it goes out, its options kept in G.pending for the caller.
function R.ask(G, name, player, count, options, optional)
  local decisions = G.decisions + 1
  G.decisions = decisions
  if decisions > G.decision_limit then
    R.fail(nil, "the game went past " .. G.decision_limit .. " decisions: do the rules ever end it?")
  end
  G.step_limit = G.steps + G.steps_per_decision
  local bot = G.bot
  if bot then return bot(G, name, player, count) end
  G.pending = {name = name, player = player, count = count, options = options, optional = optional}
  return nil
end

function R.random_bot(G, name, player, count)
  return R.randbelow(G.mt, count) + 1
end

-- `end turn`: back to the frame of the innermost turn, at the place after its body.
function R.end_turn(G)
  local marks = G.turn_marks
  local mark = marks[#marks]
  local stack = G.stack
  for i = #stack, mark.depth + 1, -1 do stack[i] = nil end
  stack[mark.depth].pc = mark.pc
  return CALL
end

-- The game is over: `result` holds its winners (a list), scores, reason and ending.
function R.finish(G, result)
  G.result = result
  local stack = G.stack
  for i = #stack, 1, -1 do stack[i] = nil end
  return CALL
end

-- The state ----------------------------------------------------------------------------------------
function R.remove(list, item)
  for i = #list, 1, -1 do
    if list[i] == item then table.remove(list, i); return end
  end
end

function R.move(G, c, destination, where)
  if destination == nil then R.fail(where, "cannot move to nowhere (the destination is none)") end
  local S = G.S
  local zones = S.zones
  R.remove(zones[S.zone[c]], c)
  local to = zones[destination]
  to[#to + 1] = c
  S.zone[c] = destination
  S.version = S.version + 1
  R.settle(G)
end

function R.settle(G)
  if G.batch > 0 or G.settling then return end
  local rules = G.always
  if #rules == 0 then return end
  G.settling = true
  local S = G.S
  for _ = 1, G.settle_rounds do
    local version = S.version
    for i = 1, #rules do rules[i](G) end
    if S.version == version then G.settling = false; return end
  end
  G.settling = false
  R.fail(nil, "the continuous (`always`) rules still change the state after " .. G.settle_rounds .. " rounds")
end

function R.contains(list, item)
  for i = 1, #list do
    if list[i] == item then return true end
  end
  return false
end

function R.truthy(x)
  return x ~= nil and x ~= false and x ~= 0 and x ~= ""
end

function R.top(G, zone)
  if zone == nil then return nil end
  local z = G.S.zones[zone]
  return z[#z]
end

function R.bottom(G, zone)
  if zone == nil then return nil end
  return G.S.zones[zone][1]
end

function R.pieces(G, zone)
  local z, copy = G.S.zones[zone], {}
  for i = 1, #z do copy[i] = z[i] end
  return copy
end

function R.tops(G, locations)
  local zones, found = G.S.zones, {}
  for i = 1, #locations do
    local z = zones[locations[i]]
    if #z > 0 then found[#found + 1] = z[#z] end
  end
  return found
end

function R.occupied(G, locations)
  local zones, found = G.S.zones, {}
  for i = 1, #locations do
    if #zones[locations[i]] > 0 then found[#found + 1] = locations[i] end
  end
  return found
end

function R.empty(G, zone)
  return #G.S.zones[zone] == 0
end

-- The components under c in its zone, nearest first.
function R.beneath(G, c)
  local z, found = G.S.zones[G.S.zone[c]], {}
  local at = 0
  for i = #z, 1, -1 do
    if z[i] == c then at = i; break end
  end
  for i = at - 1, 1, -1 do found[#found + 1] = z[i] end
  return found
end

-- The distinct kinds of a zone, in the content's order.
function R.kinds(G, zone, kind_order)
  local present, kind = {}, G.S.kind
  local z = G.S.zones[zone]
  for i = 1, #z do present[kind[z[i]]] = true end
  local found = {}
  for i = 1, #kind_order do
    if present[kind_order[i]] then found[#found + 1] = kind_order[i] end
  end
  return found
end

function R.next_player(G, player)
  local players = G.players
  for i = 1, #players do
    if players[i] == player then return players[i % #players + 1] end
  end
  return nil
end

-- `end game ranked by`: keys are {most (true) or fewest (false), function of a player, its name}.
function R.rank(G, keys)
  local players, table_ = G.players, {}
  for _, p in ipairs(players) do
    local values = {}
    for i, key in ipairs(keys) do
      local v = key[2](G, p)
      values[i] = key[1] and v or -v
    end
    table_[p] = values
  end
  local leaders, decided_by = {}, ""
  for i, p in ipairs(players) do leaders[i] = p end
  for i, key in ipairs(keys) do
    local best = nil
    for _, p in ipairs(leaders) do
      if best == nil or table_[p][i] > best then best = table_[p][i] end
    end
    local still = {}
    for _, p in ipairs(leaders) do
      if table_[p][i] == best then still[#still + 1] = p end
    end
    leaders = still
    if #leaders == 1 then decided_by = (key[1] and "most " or "fewest ") .. key[3]; break end
  end
  local scores = {}
  for _, p in ipairs(players) do scores[p] = keys[1][2](G, p) end
  if #leaders == 1 then
    return R.finish(G, {winners = leaders, scores = scores, reason = "ranking", decided_by = decided_by})
  end
  return R.finish(G, {winners = {}, scores = scores, reason = "draw", decided_by = decided_by})
end

-- `lose P`: the one player left wins; with more, nobody.
function R.lose(G, named, where)
  if named == nil then R.fail(where, "`lose` names none, which is not a player of this game") end
  local others = {}
  for _, p in ipairs(G.players) do
    if p ~= named then others[#others + 1] = p end
  end
  return R.finish(G, {winners = #others == 1 and others or {}, scores = {}, reason = named .. " loses"})
end

-- A number or list a variable keeps, within the limits (a loop could otherwise double it each turn).
function R.bounded(value, where)
  local kind = type(value)
  if kind == "number" and (value > LIMITS.largest_number or value < -LIMITS.largest_number) then
    R.fail(where, "the number " .. value .. " is larger than " .. LIMITS.largest_number)
  elseif kind == "table" and #value > LIMITS.longest_list then
    R.fail(where, "a list of " .. #value .. " items is longer than " .. LIMITS.longest_list)
  end
  return value
end

-- A game at the start of `play:`, from state S (built by Python), seated `players`, its decisions
-- drawn by `bot` (nil: asked from outside) from Python's generator seeded with `seed`.
function R.new_game(S, players, seed, compiled)
  return {
    S = S, players = players, mt = R.seeded(seed), always = compiled.always,
    stack = {{fn = compiled.play, pc = 0}}, turn_marks = {}, batch = 0, settling = false,
    decisions = 0, steps = 0, step_limit = LIMITS.steps_per_decision, steps_per_decision = LIMITS.steps_per_decision,
    decision_limit = LIMITS.decisions_per_game, settle_rounds = LIMITS.settle_rounds, memo = {},
  }
end

-- A copy of game G (at its start) whose decisions draw from the generator seeded with `seed`.
function R.reseeded(G, seed)
  local copy = R.copy(G)
  copy.mt = R.seeded(seed)
  return copy
end

-- Runs `R.run` and returns (true, waiting) or (false, the error).
function R.protected_run(G)
  return pcall(R.run, G)
end

-- Plays the game to its end inside Lua, each decision drawn at random; with `trace`, each decision
-- is noted there as {name, player, count, index from 0}.
function R.play_random(G, trace)
  if trace then
    G.bot = function(G, name, player, count)
      local i = R.randbelow(G.mt, count)
      trace[#trace + 1] = {name, player, count, i}
      return i + 1
    end
  else
    G.bot = R.random_bot
  end
  local pending = G.pending
  if pending then  -- the decision waiting is the bot's first
    G.answer, G.pending = G.bot(G, pending.name, pending.player, pending.count), nil
  end
  return pcall(R.run, G)
end

return R
