"""Cernunos, hand-written in plain Python for speed: the engine's baseline and differential oracle.

An independent implementation of the two-player board game Cernunos, following the rules digest
`shared/rules/cernunos.md` (rule IDs CN-1..CN-87, with the recommended readings A1..A30). It shares
no code with the engine and reads no rules file. It has two uses:

* the speed baseline of the rules engine (`tools/bench.py`): written the way a Python expert
  writes fast random playouts, so that the ratio engine / baseline is an honest one, and
* the oracle of `tests/test_differential.py`: a seeded random game here and in the engine must
  make the same decisions, with the same options in the same order (the digest's "Decision
  points" table), and end with the same result.

Every decision is a uniform draw among its options, made exactly as `random.Random(seed)
.randrange(len(options))` makes it (getrandbits of the count's bit length, drawn again while too
large), so the engine driven by `randrange` plays the same game. What makes it fast:

* Squares are 0..11 (index = 4 * (row - 1) + column). A token is an int, `serial << 4 | kind << 1 |
  owner`: its low 4 bits are its *code* (kind and owner); the serial is its kind's reserve count
  when it left the reserve, so every id is a small int, an index into flat lists. `top[square]` is
  the code of the top token, `where[token]` the square a token is on: "is it on top" is two lookups.
* Sets of squares are 12-bit masks, kept up to date where a stack changes (one function, `retop`):
  the squares of each top code, of each owner, and those whose top token has its owner's token
  just beneath. Neighbourhoods (adjacent, Fox, Wolf, Boar pushes), the squares of each mask and
  the squares around each mask are tables built at import, so the legal squares of a placement are
  a few operations on ints (CN-22..30), with a loop only over enemy tokens that a Wolf might weaken.
* Options are counted, never listed: a placement is drawn among `trees + squares x kinds` from
  the legal squares and the kinds left, and decoded from the index; labels are made only when a
  game is traced.
* Consequences of the rules replace generic machinery: a Tree that grows covers itself, so it is
  never activated twice (A8) and cannot burn (the board was stable, and the new Tree has the same
  neighbours); a Tree lands directly on a Fire only at the end of a move (A14), so that is checked
  there; burning (CN-73..78) starts from the two Fires only, whose squares are followed as they move.

Usage: python tools/cernunos_baseline.py --games 1000
"""

import argparse
import random
import time

GREEN, PURPLE = "green", "purple"
PLAYERS = (GREEN, PURPLE)  # player 0 is green, player 1 purple
KINDS = ("tree", "boar", "deer", "wolf", "squirrel", "fox", "crow", "fire")  # the order of the options
COUNTS = (12, 3, 3, 2, 1, 1, 1, 1)  # CN-2, in KINDS order

ROWS, COLS = 3, 4
NSQ = ROWS * COLS
SQUARES = range(NSQ)
NAMES = [f"{'abcd'[i % COLS]}{i // COLS + 1}" for i in SQUARES]

# code = kind << 1 | owner
TREE, BOAR, DEER, WOLF, SQUIRREL, FOX, CROW, FIRE = (k << 1 for k in range(8))
EMPTY = 16  # top[] of an empty square: not a Tree (>= 2), not a Fire (& 14 == 0)
START_RESERVE = [COUNTS[code >> 1] for code in range(16)]  # by code (CN-5)
TOKENS = sum(COUNTS)
TOKEN_IDS = (max(COUNTS) + 1) << 4  # every token id is below this
OTHER_KINDS = [[code | p for code in range(BOAR, 16, 2)] for p in (0, 1)]  # each player's codes but Tree
ACTIVABLE = [code >> 1 in (TREE >> 1, BOAR >> 1, FOX >> 1, CROW >> 1) for code in range(16)]  # CN-70
PLACEMENT_ACTIVATED = (BOAR, BOAR | 1, FOX, FOX | 1, CROW, CROW | 1)  # CN-12


def _square(r, c):
    return r * COLS + c if 0 <= r < ROWS and 0 <= c < COLS else None


def _around(i, steps):
    """The squares (row, column) + each step from square i, inside the board (no wrap), in order."""
    return tuple(sorted(s for dr, dc in steps if (s := _square(i // COLS + dr, i % COLS + dc)) is not None))


ORTHO = ((-1, 0), (0, -1), (0, 1), (1, 0))
DIAG = ((-1, -1), (-1, 1), (1, -1), (1, 1))
ADJ = [_around(i, ORTHO) for i in SQUARES]
# By the Boar's square: (target, destination) per adjacent target, in target order; wraps (CN-39, A11).
PUSH = [tuple(sorted((_square(i // COLS + dr, i % COLS + dc),
                      (i // COLS + 2 * dr) % ROWS * COLS + (i % COLS + 2 * dc) % COLS)
                     for dr, dc in ORTHO if _square(i // COLS + dr, i % COLS + dc) is not None)) for i in SQUARES]
# The Fox's pairs among m occupied squares, in option order (lower first): PAIRS[m][option] = (k, l).
PAIRS = [[(k, j) for k in range(m) for j in range(k + 1, m)] for m in range(9)]

# Sets of squares as 12-bit masks (bit i: square i), and tables indexed by a square or a mask.
BIT = [1 << i for i in SQUARES]
FULL = (1 << NSQ) - 1
SLOT = [code & 1 for code in range(16)] + [2]  # the owner of each code; EMPTY apart
ADJ_MASK = [sum(BIT[n] for n in ADJ[i]) for i in SQUARES]
NBHD_MASK = [sum(BIT[n] for n in _around(i, ORTHO + DIAG)) for i in SQUARES]  # the Fox's area (CN-61)
# 1 or 2 steps along each diagonal, no wrap (CN-50, A12); symmetric: also where a Wolf reaching i stands.
WOLF_MASK = [sum(BIT[n] for n in _around(i, [(k * dr, k * dc) for dr, dc in DIAG for k in (1, 2)])) for i in SQUARES]
SETS = [()]  # SETS[mask]: its squares, in increasing order
ADJ_OF, WOLF_OF = [0], [0]  # the squares adjacent to, and in a Wolf's area of, some square of the mask
for mask in range(1, FULL + 1):
    low = (mask & -mask).bit_length() - 1
    SETS.append((low,) + SETS[mask & (mask - 1)])
    ADJ_OF.append(ADJ_OF[mask & (mask - 1)] | ADJ_MASK[low])
    WOLF_OF.append(WOLF_OF[mask & (mask - 1)] | WOLF_MASK[low])


# Option labels, only for traces --------------------------------------------------------------------

def _placement_labels(options):
    trees, squares, kinds = options
    return ([(KINDS[0], NAMES[s]) for s in trees]
            + [(KINDS[code >> 1], NAMES[s]) for code in kinds for s in squares])


LABELS = {
    "place": _placement_labels,
    "last": lambda options: _placement_labels(options) + ["pass"],
    "grow": lambda squares: [NAMES[s] for s in squares],
    "push": lambda pushes: [NAMES[target] for target, _ in pushes],
    "swap": lambda squares: [(NAMES[squares[k]], NAMES[squares[j]]) for k, j in PAIRS[len(squares)]],
    "first": lambda squares: [NAMES[s] for s in squares],
    "crow": lambda squares: [NAMES[s] for s in squares],
}


# One game ------------------------------------------------------------------------------------------

def play_game(seed, trace=None):
    """Play one random game from the empty board; append (name, player, option labels, index) to
    `trace` for each decision if given. Returns {"winner": "green" | "purple" | None, "turns",
    "decisions", "scores": {player: squares occupied}, "reason": "score" | "no_legal_placement"}."""
    getrandbits = random.Random(seed).getrandbits
    stacks = [[] for _ in SQUARES]  # token ids, bottom -> top (CN-5)
    top = [EMPTY] * NSQ  # the code of each square's top token
    tops = [0] * 16 + [FULL]  # by code: the squares whose top token has it (EMPTY: the empty squares)
    held = [0, 0, FULL]  # by owner: the squares they occupy (CN-7); 2: the empty squares
    paired = 0  # the squares whose top token has one of its owner's just beneath (power >= 1, CN-28)
    where = [-1] * TOKEN_IDS  # the square of each token on the board, -1 elsewhere
    reserve = START_RESERVE[:]  # by code
    left = [TOKENS, TOKENS]  # tokens in each reserve
    kinds_left = [OTHER_KINDS[0][:], OTHER_KINDS[1][:]]  # codes but Tree still in each reserve
    burned = [0, 0]  # burned Trees by owner (CN-3)
    fire_at = [-1, -1]  # the square of each player's Fire, covered or not; -1 in the reserve
    active = [False] * TOKEN_IDS  # activation under way (CN-15)
    decisions = 0

    def ask(name, player, count, options):
        nonlocal decisions
        decisions += 1
        bits = count.bit_length()
        index = getrandbits(bits)
        while index >= count:
            index = getrandbits(bits)
        if trace is not None:
            trace.append((name, PLAYERS[player], LABELS[name](options), index))
        return index

    def retop(sq):
        """Square sq's stack has changed: bring its top and the masks up to date."""
        nonlocal paired
        s = stacks[sq]
        b = BIT[sq]
        old = top[sq]
        if s:
            new = s[-1] & 15
            if len(s) > 1 and not (s[-1] ^ s[-2]) & 1:
                paired |= b
            else:
                paired &= ~b
        else:
            new = EMPTY
            paired &= ~b
        top[sq] = new
        tops[old] ^= b
        tops[new] ^= b
        held[SLOT[old]] ^= b
        held[SLOT[new]] ^= b

    def placement(name, p, optional):
        """Draw a legal placement and make it (or, if optional, maybe pass); False if there is none.

        p may place on an empty square or its own top token (CN-22, CN-23), on an enemy top token
        of power 0 or less (CN-24), and a Tree nowhere on a top Fire (CN-25, A5). Power (CN-28..30,
        A3, A4) is the run of the owner's tokens beneath, + 1 per adjacent Deer of the owner
        (CN-45..48), - 1 per Wolf of p reaching it (CN-49..52): only an enemy top token with a run
        or a Deer can be above 0, and only one a Wolf reaches can be brought back to 0."""
        enemy = 1 - p
        deer = tops[DEER | enemy]
        strong = held[enemy] & (paired | ADJ_OF[deer])
        ok = FULL ^ strong
        wolves = tops[WOLF | p]
        reached = strong & WOLF_OF[wolves]
        if reached:
            for sq in SETS[reached]:
                s = stacks[sq]
                power = (ADJ_MASK[sq] & deer).bit_count() - (WOLF_MASK[sq] & wolves).bit_count()
                j = len(s) - 2
                while j >= 0 and s[j] & 1 == enemy:
                    power += 1
                    j -= 1
                if power <= 0:
                    ok |= BIT[sq]
        squares = SETS[ok]
        trees = SETS[ok & ~(tops[FIRE] | tops[FIRE | 1])] if reserve[p] else ()  # Trees: code TREE | p == p
        kinds = kinds_left[p]
        tree_options = len(trees)  # the options: each Tree square, then each kind left on each square
        count = tree_options + len(squares) * len(kinds)
        if not count:
            return False
        index = ask(name, p, count + optional, (trees, squares, kinds))
        if index < tree_options:
            place(p, p, trees[index])
        elif index < count:
            kind, sq = divmod(index - tree_options, len(squares))
            place(p, kinds[kind], squares[sq])
        return True

    def place(p, code, sq):
        """CN-18: put the token on top, burn, then activate it if it must (CN-12)."""
        n = reserve[code]
        reserve[code] = n - 1
        if n == 1 and code > 1:
            kinds_left[p].remove(code)
        left[p] -= 1
        t = n << 4 | code
        stacks[sq].append(t)
        retop(sq)
        where[t] = sq
        if code >= FIRE:
            fire_at[p] = sq
            burn()
        elif code < 2:
            burn()
        elif code in PLACEMENT_ACTIVATED:
            activate(t)

    def burn():
        """CN-73..78, A13, A30: every top Tree next to a top Fire burns, a tower down to its first
        other token (never a Fire: a Tree never rests on a Fire, A14)."""
        for f in fire_at:
            if f >= 0 and top[f] & 14 == FIRE:
                for n in ADJ[f]:
                    if top[n] < 2:
                        s = stacks[n]
                        while s and s[-1] & 14 == TREE:
                            t = s.pop()
                            burned[t & 1] += 1
                            where[t] = -1
                        retop(n)

    def lift(sq):
        t = stacks[sq].pop()
        retop(sq)
        return t

    def land(t, sq):
        """A moved token arrives on top of sq; a Tree arriving directly on a Fire burns (A14)."""
        s = stacks[sq]
        code = t & 15
        if code < 2 and s and s[-1] & 14 == FIRE:
            burned[code] += 1
            where[t] = -1
        else:
            s.append(t)
            where[t] = sq
            if code >= FIRE:
                fire_at[code & 1] = sq
        retop(sq)

    def activate(t):
        """CN-12..15, CN-53..59: resolve t's effect, twice if next to its owner's Squirrel."""
        if active[t] or not ACTIVABLE[t & 15]:  # CN-15, A21; CN-70
            return
        sq = where[t]
        if sq < 0 or stacks[sq][-1] != t:  # covered or burned (CN-10, CN-64)
            return
        twice = ADJ_MASK[sq] & tops[SQUIRREL | (t & 1)]  # CN-53, A16: when the activation begins
        active[t] = True
        resolve(t, sq)
        if twice:  # CN-54..57: once more if still on top somewhere, never thrice
            sq = where[t]
            if sq >= 0 and stacks[sq][-1] == t:
                resolve(t, sq)
        active[t] = False

    def resolve(t, sq):
        """One resolution of token t's effect on square sq; its owner chooses (CN-13)."""
        nonlocal paired
        kind = t & 14
        owner = t & 1
        if kind == TREE:  # CN-32, CN-35, A9: from the owner's reserve, on top of itself
            n = reserve[owner]
            if n:
                reserve[owner] = n - 1
                left[owner] -= 1
                grown = n << 4 | owner
                stacks[sq].append(grown)
                where[grown] = sq
                paired |= BIT[sq]
        elif kind == BOAR:  # CN-38..44, A10, A11
            pushes = [push for push in PUSH[sq] if top[push[0]] != EMPTY]
            if pushes:
                target, destination = pushes[ask("push", owner, len(pushes), pushes)]
                land(lift(target), destination)
                burn()
        elif kind == FOX:  # CN-61..66, A17, A18
            around = SETS[NBHD_MASK[sq] & ~tops[EMPTY]]
            m = len(around)
            if m >= 2:
                k, j = PAIRS[m][ask("swap", owner, m * (m - 1) // 2, around)]
                a, b = around[k], around[j]
                token_a, token_b = lift(a), lift(b)
                land(token_b, a)  # A27: each lands on what remains of the other's stack
                land(token_a, b)
                burn()
                ready = [tk for tk in (token_b, token_a)  # token_b is on a, the lower square
                         if ACTIVABLE[tk & 15] and not active[tk] and where[tk] >= 0 and stacks[where[tk]][-1] == tk]
                if len(ready) == 2 and ask("first", owner, 2, (a, b)):
                    ready.reverse()
                for tk in ready:
                    activate(tk)  # checks again: the first may cover or burn the second (CN-64)
        elif kind == CROW:  # CN-68..72, A19, A20
            targets = SETS[ADJ_MASK[sq] & ~tops[EMPTY]]
            if targets:
                target = targets[ask("crow", owner, len(targets), targets)]
                s = stacks[target]
                if len(s) > 1:
                    moved = s.pop(0)
                    land(moved, target)
                    burn()
                else:  # alone: it stays (CN-69)
                    moved = s[0]
                activate(moved)

    def grow_trees(p):
        """CN-31..34, A7: the top Trees at the start of the turn grow once each; the order is a
        choice only while the reserve holds fewer Trees than are waiting."""
        waiting = SETS[tops[p]]  # a Tree of p: code p
        if len(waiting) > reserve[p]:
            waiting = list(waiting)
            waiting = [waiting.pop(ask("grow", p, len(waiting), waiting)) for _ in range(reserve[p])]
        for sq in waiting:
            resolve(stacks[sq][-1], sq)

    def result(winner, reason):
        return {"winner": winner, "turns": turns, "decisions": decisions,
                "scores": {GREEN: held[0].bit_count(), PURPLE: held[1].bit_count()}, "reason": reason}

    def winner():
        """CN-82..85, A24, A25: squares, then visible Trees, then fewer burned Trees."""
        for g, p in ((held[0].bit_count(), held[1].bit_count()), (tops[0].bit_count(), tops[1].bit_count()),
                     (-burned[0], -burned[1])):
            if g != p:
                return GREEN if g > p else PURPLE
        return None

    player = 0  # CN-6: green
    turns = 0
    while True:
        turns += 1
        grow_trees(player)
        for _ in range(2):  # A1, A2
            if not left[player]:
                break  # the turn ends at once (CN-19)
            if not placement("place", player, False):  # CN-86, A26
                return result(PLAYERS[1 - player], "no_legal_placement")
        if not left[0] or not left[1]:  # CN-79, A22: checked when a turn is over
            if left[0] or left[1]:  # CN-80, A23, CN-87: the other may place a last token
                placement("last", 0 if left[0] else 1, True)
            return result(winner(), "score")  # CN-81
        player = 1 - player


def play_random_game(seed):
    return play_game(seed)


def trace_random_game(seed):
    """Every decision of a seeded random game: (name, player, option labels, index)."""
    trace = []
    play_game(seed, trace)
    return trace


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()
    wins = {GREEN: 0, PURPLE: 0, None: 0}
    turns = decisions = losses = 0
    start = time.perf_counter()
    for seed in range(args.games):
        res = play_game(seed)
        wins[res["winner"]] += 1
        losses += res["reason"] == "no_legal_placement"
        turns += res["turns"]
        decisions += res["decisions"]
    elapsed = time.perf_counter() - start
    print(f"games: {args.games} in {elapsed:.2f}s")
    print(f"games/s: {args.games / elapsed:.1f}")
    print(f"decisions/s: {decisions / elapsed:.0f}")
    print(f"wins: green {wins[GREEN]}, purple {wins[PURPLE]}, draws {wins[None]}"
          f" (no_legal_placement endings: {losses})")
    print(f"mean turns: {turns / max(args.games, 1):.2f}")


if __name__ == "__main__":
    main()
