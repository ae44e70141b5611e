"""Cernunos, hand-written in plain Python and written for speed: reference implementation.

This module is an independent, hand-written Python 3.11 implementation of the two-player board
game Cernunos, following the rules digest `shared/rules/cernunos.md` (rule IDs CN-1..CN-87, with
the recommended readings of ambiguities A1..A30). It shares no code with the engine and reads no
rules file. It has two uses:

* the speed baseline for the rules engine (`tools/bench_cernunos.py`, `tools/bench.py`): the
  figure the engine is compared with, so it is written the way a Python expert would write a
  fast Cernunos, not the most readable way, and
* a differential-test oracle (`tests/test_differential.py`): every player decision goes through
  `chooser(name, player, options) -> index`, with the option lists built in the fixed order of
  the digest's "Decision points" table, so a seeded random game can be replayed decision by
  decision against the engine.

Why it looks the way it does (speed, without changing a single decision):

* Board: 12 squares a1..d3, index = 4 * (row - 1) + column (a1=0, d1=3, a2=4, d3=11). A square
  is a list of token ids, bottom -> top, and a parallel list `top` keeps the code of each
  square's top token (or EMPTY), so "what is on top of n" is one list lookup.
* A token is an int: `serial << 4 | kind << 1 | owner`. The low 4 bits (`t & 15`) are its
  *code* (kind and owner), `t & 1` its owner, `t & 14 == 14` "is a Fire". Tokens need an
  identity, because the activation guard (CN-15), the Squirrel repeat (CN-53..59) and the Fox's
  "covered or burned before its turn" (CN-64) are about one particular token: the serial is the
  owner's reserve count of that kind just before the token left the reserve, so no two tokens
  of a game share an id, and every id is below 13 << 4 = 208 (a cached small int, never
  allocated; an index into a list of flags).
* Adjacency, the Wolf's area, the Boar's push destinations, the Fox's neighbourhood and every
  option label (tuples of strings) are computed once at import, in tables indexed by square.
* One game is one call of `play_game`: its state is a handful of plain lists, and the rules are
  closures over them (a closure variable is as fast to read as a local), so there is no object
  and no attribute lookup on the hot path.
* The hot path is the list of legal placements (CN-20..25), built twice a turn: the power of a
  square (CN-28..30) is computed once per square, not once per (kind, square), and only for
  squares the placing player does not occupy; the labels come ready-made from a table.
* Burning (CN-73..78) is skipped while both Fires are still in their reserves (a Fire never
  leaves the board once placed, CN-4), which is most of the game.

Usage: python tools/cernunos_baseline.py --games 1000
"""

import argparse
import random
import time

GREEN, PURPLE = "green", "purple"
PLAYERS = (GREEN, PURPLE)                  # player 0 is green, player 1 purple
KINDS = ("tree", "boar", "deer", "wolf", "squirrel", "fox", "crow", "fire")
COUNTS = {"tree": 12, "boar": 3, "deer": 3, "wolf": 2,
          "squirrel": 1, "fox": 1, "crow": 1, "fire": 1}          # CN-2
ACTIVABLE = ("tree", "boar", "fox", "crow")

ROWS, COLS = 3, 4
NSQ = ROWS * COLS
SQUARES = range(NSQ)
NAMES = [f"{'abcd'[i % COLS]}{i // COLS + 1}" for i in SQUARES]
INDEX = {name: i for i, name in enumerate(NAMES)}


def other(player):
    return PURPLE if player == GREEN else GREEN


# ---------------------------------------------------------------- codes
# code = kind << 1 | owner; a token is serial << 4 | code.
TREE, BOAR, DEER, WOLF, SQUIRREL, FOX, CROW, FIRE = (k << 1 for k in range(8))
EMPTY = 16            # `top` of an empty square: kind bits 0 (not a Fire), >= 2 (not a Tree)
KIND_OF_NAME = {name: k << 1 for k, name in enumerate(KINDS)}
# Reserve at the start, indexed by code (CN-2, CN-5).
START_RESERVE = [COUNTS[KINDS[code >> 1]] for code in range(16)]
TOKENS, WOLVES, FIRES = sum(COUNTS.values()), COUNTS["wolf"], COUNTS["fire"]
TOKEN_IDS = (max(COUNTS.values()) + 1) << 4     # every token id is below this
# Indexed by code (EMPTY included): may this token activate at all (CN-70)?
IS_ACTIVABLE = [code < 16 and KINDS[code >> 1] in ACTIVABLE for code in range(17)]
# Codes whose placement activates the token at once (CN-12): Boar, Fox, Crow.
ACTIVATE_ON_PLACE = [code < 16 and code >> 1 in (BOAR >> 1, FOX >> 1, CROW >> 1)
                     for code in range(17)]


# ---------------------------------------------------------------- tables

def _square(r, c):
    """Index of (row, col), or None when off the board (no wrap)."""
    if 0 <= r < ROWS and 0 <= c < COLS:
        return r * COLS + c
    return None


ORTHO = ((-1, 0), (0, -1), (0, 1), (1, 0))
DIAG = ((-1, -1), (-1, 1), (1, -1), (1, 1))

# Orthogonal neighbours (no wrap), by index, in increasing order.
ADJ = [tuple(sorted(s for dr, dc in ORTHO
                    if (s := _square(i // COLS + dr, i % COLS + dc)) is not None))
       for i in SQUARES]
# 8-neighbourhood (no wrap), by index: the Fox's area (CN-61).
NBHD = [tuple(sorted(s for dr, dc in ORTHO + DIAG
                     if (s := _square(i // COLS + dr, i % COLS + dc)) is not None))
        for i in SQUARES]
# Wolf area: 1 or 2 steps along each diagonal, no wrap (CN-50, A12). The relation is
# symmetric, so WOLF_AREA[i] is also the set of squares from which a Wolf reaches square i.
WOLF_AREA = [tuple(sorted(s for dr, dc in DIAG for k in (1, 2)
                          if (s := _square(i // COLS + k * dr, i % COLS + k * dc))
                          is not None))
             for i in SQUARES]
# Boar pushes, by the Boar's square: (target, destination) for each adjacent target, in target
# order. The destination wraps round the board edge (CN-39, A11).
PUSH = [tuple(sorted((_square(i // COLS + dr, i % COLS + dc),
                      ((i // COLS + 2 * dr) % ROWS) * COLS + (i % COLS + 2 * dc) % COLS)
                     for dr, dc in ORTHO
                     if _square(i // COLS + dr, i % COLS + dc) is not None))
        for i in SQUARES]

# Option labels, built once: ("boar", "b2") for a placement, by kind code then square, and
# ("a1", "b2") for a Fox swap, by a * NSQ + b.
PLACE_LABEL = [[(KINDS[code >> 1], NAMES[sq]) for sq in SQUARES] for code in range(16)]
PAIR_LABEL = [(NAMES[p // NSQ], NAMES[p % NSQ]) for p in range(NSQ * NSQ)]
# For each player, the code of each kind other than Tree, in KINDS order, with the function
# from square to label.
OTHER_KINDS = [[(code | p, PLACE_LABEL[code | p].__getitem__) for code in range(BOAR, 16, 2)]
               for p in (0, 1)]


# ---------------------------------------------------------------- one game

def play_game(chooser):
    """Play one whole game from the empty board; see module docstring.

    Returns {"winner": "green" | "purple" | None, "turns", "decisions", "scores": {player:
    squares occupied}, "reason": "score" | "no_legal_placement"}.
    """
    stacks = [[] for _ in SQUARES]               # token ids, bottom -> top (CN-5)
    top = [EMPTY] * NSQ                          # code of each square's top token
    reserve = START_RESERVE[:]                   # by code
    left = [TOKENS, TOKENS]                      # reserve size per player
    burned = [0, 0]                              # burned Trees per owner (CN-3)
    active = [False] * TOKEN_IDS                 # by token id: activation under way (CN-15)
    decisions = 0

    def ask(name, player, options):
        nonlocal decisions
        decisions += 1
        idx = chooser(name, PLAYERS[player], options)
        if not isinstance(idx, int) or not 0 <= idx < len(options):
            raise ValueError(f"bad choice {idx!r} for {name} {options!r}")
        return idx

    def square_of(t):
        """Square where token `t` is the top token, or -1 (covered or burned)."""
        code = t & 15
        for sq in SQUARES:
            if top[sq] == code and stacks[sq][-1] == t:
                return sq
        return -1

    def legal(p):
        """Placement options of player p, (kind, square) labels in KINDS then square order."""
        ok = []          # squares where p may place (CN-22..24)
        trees = []       # ... and where a Tree may go too: not on a Fire (CN-25, A5)
        deer = DEER | (1 - p)            # a Deer of the enemy (of the top token's owner)
        wolf = WOLF | p                  # a Wolf of p, the top token owner's enemy
        wolves = reserve[wolf] < WOLVES  # has p placed a Wolf at all?
        for sq, c in enumerate(top):
            if c & 1 != p and c != EMPTY:
                # Enemy top token: placeable only if its power is 0 or less (CN-24). Power
                # (CN-28..30, A3, A4): the unbroken run of its owner's tokens beneath it, +1 per
                # adjacent Deer of its owner (CN-45..48), -1 per Wolf of the other player (that
                # is, of p) reaching it (CN-49..52). Wolves only lower it, so they are counted
                # only while it is above 0, and not at all if p has never placed one.
                s = stacks[sq]
                power = 0
                j = len(s) - 2
                while j >= 0 and s[j] & 1 != p:
                    power += 1
                    j -= 1
                for n in ADJ[sq]:
                    if top[n] == deer:
                        power += 1
                if power:
                    if not wolves:
                        continue
                    for n in WOLF_AREA[sq]:
                        if top[n] == wolf:
                            power -= 1
                            if not power:
                                break
                    else:
                        continue                 # power still above 0
            ok.append(sq)
            if c & 14 != FIRE:
                trees.append(sq)
        options = []
        if reserve[p]:                           # Trees: code TREE | p == p
            options += map(PLACE_LABEL[p].__getitem__, trees)
        if ok:
            for code, label in OTHER_KINDS[p]:
                if reserve[code]:
                    options += map(label, ok)
        return options

    def settle():
        """CN-73..78, A13, A14: burn top Trees until the board is stable.

        A top Tree burns if a Fire lies directly beneath it (A14) or an adjacent top token is a
        Fire. Burning only uncovers tokens, and a top Fire never goes away, so once a Tree may
        burn it stays so until it burns: the order of the burns does not change which Trees
        burn, and repeating passes until none burns is enough.
        """
        if reserve[FIRE] == FIRES and reserve[FIRE | 1] == FIRES:
            return                               # no Fire on the board yet
        again = True
        while again:
            again = False
            for sq in SQUARES:
                if top[sq] < 2:                  # a Tree on top (codes 0 and 1)
                    s = stacks[sq]
                    if not (len(s) > 1 and s[-2] & 14 == FIRE):
                        for n in ADJ[sq]:
                            if top[n] & 14 == FIRE:
                                break
                        else:
                            continue
                    burned[s.pop() & 1] += 1
                    top[sq] = s[-1] & 15 if s else EMPTY
                    again = True

    # -------------------------------------------------------- activation

    def activate(t):
        if active[t]:                  # CN-15, A21: guard, no Squirrel repeat
            return
        if not IS_ACTIVABLE[t & 15]:                              # CN-70
            return
        sq = square_of(t)
        if sq < 0:                     # covered or burned (CN-10, CN-64)
            return
        # CN-53, A16: Squirrel adjacency is checked when the activation begins.
        squirrel = SQUIRREL | (t & 1)
        twice = False
        for n in ADJ[sq]:
            if top[n] == squirrel:
                twice = True
                break
        active[t] = True
        resolve(t, sq)
        if twice:
            # CN-54..57: once more if still a top token anywhere, never thrice.
            sq = square_of(t)
            if sq >= 0:
                resolve(t, sq)
        active[t] = False

    def resolve(t, sq):
        """One resolution of token t's effect; its owner chooses (CN-13)."""
        kind = t & 14
        owner = t & 1
        if kind == TREE:                                  # CN-32, CN-35, A9
            n = reserve[owner]                            # Trees of owner: code == owner
            if n:
                reserve[owner] = n - 1
                left[owner] -= 1
                stacks[sq].append(n << 4 | owner)
                top[sq] = owner
                settle()
        elif kind == BOAR:
            # CN-38..44, A10, A11: push one adjacent top token one step on.
            pushes = [td for td in PUSH[sq] if top[td[0]] != EMPTY]
            if not pushes:
                return                                            # CN-44
            target, dest = pushes[ask("push", owner, [NAMES[td[0]] for td in pushes])]
            s = stacks[target]
            moved = s.pop()
            top[target] = s[-1] & 15 if s else EMPTY
            stacks[dest].append(moved)                            # CN-43
            top[dest] = moved & 15
            settle()
        elif kind == FOX:
            # CN-61..66, A17, A18: swap two top tokens, then activate them.
            occupied = [n for n in NBHD[sq] if top[n] != EMPTY]
            if len(occupied) < 2:
                return                                            # CN-62
            pairs = [a * NSQ + b for k, a in enumerate(occupied) for b in occupied[k + 1:]]
            pair = pairs[ask("swap", owner, [PAIR_LABEL[ab] for ab in pairs])]
            a, b = divmod(pair, NSQ)
            sa, sb = stacks[a], stacks[b]
            token_a = sa.pop()
            token_b = sb.pop()
            sb.append(token_a)         # A27: each lands on what remains
            sa.append(token_b)
            top[a] = token_b & 15
            top[b] = token_a & 15
            settle()                   # burning only after both moved
            ready = [tk for tk in (token_b, token_a)      # token_b on a < b
                     if IS_ACTIVABLE[tk & 15] and not active[tk] and square_of(tk) >= 0]
            if len(ready) == 2 and ask("first", owner, [NAMES[a], NAMES[b]]) == 1:
                ready.reverse()
            for tk in ready:
                activate(tk)           # re-checks top / guard (CN-64)
        elif kind == CROW:
            # CN-68..72, A19, A20: bottom token of an adjacent stack to its top.
            targets = [n for n in ADJ[sq] if top[n] != EMPTY]
            if not targets:
                return                                            # CN-72
            target = targets[ask("crow", owner, [NAMES[n] for n in targets])]
            s = stacks[target]
            moved = s.pop(0)
            s.append(moved)            # alone: it simply stays (CN-69)
            top[target] = moved & 15
            settle()
            activate(moved)

    # ------------------------------------------------------------- turns

    def place(p, label):
        """CN-18: put the token on top, burn, then activate it if it must."""
        kind, name = label
        code = KIND_OF_NAME[kind] | p
        sq = INDEX[name]
        n = reserve[code]
        reserve[code] = n - 1
        left[p] -= 1
        t = n << 4 | code
        stacks[sq].append(t)
        top[sq] = code
        settle()
        if ACTIVATE_ON_PLACE[code]:                               # CN-12
            activate(t)

    def start_of_turn(p):
        """CN-31..34, A7: snapshot of top Trees, each activates once."""
        waiting = [stacks[sq][-1] for sq in SQUARES if top[sq] == p]   # Tree of p: code p
        while waiting and reserve[p]:
            if reserve[p] < len(waiting):
                names = [NAMES[square_of(t)] for t in waiting]
                tree = waiting[ask("grow", p, names)]
            else:
                tree = waiting[0]
            activate(tree)
            waiting.remove(tree)

    def result(winner, reason):
        occupied = [0, 0]
        for c in top:
            if c != EMPTY:
                occupied[c & 1] += 1                              # CN-7
        return {"winner": winner, "turns": turns, "decisions": decisions,
                "scores": {GREEN: occupied[0], PURPLE: occupied[1]}, "reason": reason}

    def final_winner():
        """CN-82..85, A24, A25: squares, then visible Trees, then fewer burned Trees."""
        occupied = [0, 0]
        visible = [0, 0]
        for c in top:
            if c != EMPTY:
                occupied[c & 1] += 1
                if c < 2:
                    visible[c] += 1
        for g, p in ((occupied[0], occupied[1]), (visible[0], visible[1]),
                     (-burned[0], -burned[1])):
            if g != p:
                return GREEN if g > p else PURPLE
        return None

    player = 0                                                    # CN-6: green
    turns = 0
    while True:
        turns += 1
        start_of_turn(player)
        for _ in range(2):                                        # A1, A2
            if not left[player]:
                break                          # turn ends at once (CN-19)
            options = legal(player)
            if not options:                                       # CN-86, A26
                return result(PLAYERS[1 - player], "no_legal_placement")
            place(player, options[ask("place", player, options)])
        # CN-79, A22: the end is checked only when a turn is over.
        if not left[0] or not left[1]:
            if left[0] or left[1]:                                # CN-80, A23: one is empty
                last = 0 if left[0] else 1            # the one with tokens left
                options = legal(last)
                if options:                                       # CN-87
                    i = ask("last", last, options + ["pass"])
                    if i < len(options):
                        place(last, options[i])
            return result(final_winner(), "score")                # CN-81
        player = 1 - player


# ---------------------------------------------------------------- API

def random_chooser(seed):
    rng = random.Random(seed)

    def choose(name, player, options):
        return rng.randrange(len(options))
    return choose


def play_random_game(seed):
    return play_game(random_chooser(seed))


def trace_random_game(seed):
    """Every decision of a seeded random game: (name, player, options, index)."""
    trace = []
    choose = random_chooser(seed)

    def recording(name, player, options):
        idx = choose(name, player, options)
        trace.append((name, player, list(options), idx))
        return idx
    play_game(recording)
    return trace


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()
    wins = {GREEN: 0, PURPLE: 0}
    draws = turns = decisions = losses = 0
    start = time.perf_counter()
    for seed in range(args.games):
        res = play_random_game(seed)
        if res["winner"] is None:
            draws += 1
        else:
            wins[res["winner"]] += 1
        if res["reason"] == "no_legal_placement":
            losses += 1
        turns += res["turns"]
        decisions += res["decisions"]
    elapsed = time.perf_counter() - start
    n = max(args.games, 1)
    print(f"games: {args.games} in {elapsed:.2f}s")
    print(f"games/s: {args.games / elapsed:.1f}")
    print(f"decisions/s: {decisions / elapsed:.0f}")
    print(f"wins: green {wins[GREEN]}, purple {wins[PURPLE]}, draws {draws}"
          f" (no_legal_placement endings: {losses})")
    print(f"mean turns: {turns / n:.2f}")


if __name__ == "__main__":
    main()
