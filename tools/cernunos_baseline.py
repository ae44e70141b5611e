"""Cernunos, hand-written in plain Python: reference implementation.

This module is a direct, hand-written Python 3.11 implementation of the
two-player board game Cernunos, following the rules digest
`shared/rules/cernunos.md` (rule IDs CN-1..CN-87, with the recommended readings
of ambiguities A1..A30). It has two uses:

* a speed baseline for the rules engine (plain Python, no tricks), and
* a differential-test oracle: every player decision goes through
  `chooser(name, player, options) -> index`, with the option lists built in the
  fixed order of the digest's "Decision points" table, so a seeded random game
  can be replayed decision by decision against the engine.

Board: 12 squares a1..d3, index = 4 * (row - 1) + column (a1=0, d1=3, a2=4,
d3=11). Each square is a list of Token objects, bottom -> top. Tokens are
objects with identity, because the activation guard (CN-15), the Squirrel
repeat (CN-53..59) and the Fox's "covered or burned before its turn" (CN-64)
are about one particular token. Reserves are counters per kind per player.

Usage: python tools/cernunos_baseline.py --games 1000
"""

import argparse
import random
import time

GREEN, PURPLE = "green", "purple"
PLAYERS = (GREEN, PURPLE)
KINDS = ("tree", "boar", "deer", "wolf", "squirrel", "fox", "crow", "fire")
COUNTS = {"tree": 12, "boar": 3, "deer": 3, "wolf": 2,
          "squirrel": 1, "fox": 1, "crow": 1, "fire": 1}          # CN-2
ACTIVABLE = ("tree", "boar", "fox", "crow")

ROWS, COLS = 3, 4
NSQ = ROWS * COLS
NAMES = [f"{'abcd'[i % COLS]}{i // COLS + 1}" for i in range(NSQ)]
INDEX = {name: i for i, name in enumerate(NAMES)}


def other(player):
    return PURPLE if player == GREEN else GREEN


# ---------------------------------------------------------------- tables

def _square(r, c):
    """Index of (row, col), or None when off the board (no wrap)."""
    if 0 <= r < ROWS and 0 <= c < COLS:
        return r * COLS + c
    return None


ORTHO = ((-1, 0), (0, -1), (0, 1), (1, 0))
DIAG = ((-1, -1), (-1, 1), (1, -1), (1, 1))

# Orthogonal neighbours (no wrap), by index.
ADJ = [sorted(s for dr, dc in ORTHO
              if (s := _square(i // COLS + dr, i % COLS + dc)) is not None)
       for i in range(NSQ)]
# 8-neighbourhood (no wrap), by index: the Fox's area (CN-61).
NBHD = [sorted(s for dr, dc in ORTHO + DIAG
               if (s := _square(i // COLS + dr, i % COLS + dc)) is not None)
        for i in range(NSQ)]
# Wolf area: 1 or 2 steps along each diagonal, no wrap (CN-50, A12).
# The relation is symmetric, so WOLF_AREA[i] is also the set of squares from
# which a Wolf reaches square i.
WOLF_AREA = [sorted(s for dr, dc in DIAG for k in (1, 2)
                    if (s := _square(i // COLS + k * dr, i % COLS + k * dc))
                    is not None)
             for i in range(NSQ)]
# Boar pushes: (target, destination) for each adjacent target, by target
# index. The destination wraps round the board edge (CN-39, A11).
PUSH = [sorted((_square(i // COLS + dr, i % COLS + dc),
                ((i // COLS + 2 * dr) % ROWS) * COLS + (i % COLS + 2 * dc) % COLS)
               for dr, dc in ORTHO
               if _square(i // COLS + dr, i % COLS + dc) is not None)
        for i in range(NSQ)]


class Token:
    """One physical token. Compared by identity (no __eq__ on purpose)."""
    __slots__ = ("kind", "owner")

    def __init__(self, kind, owner):
        self.kind = kind
        self.owner = owner

    def __repr__(self):
        return f"{self.owner[0].upper()}:{self.kind}"


class Game:
    def __init__(self, chooser):
        self.chooser = chooser
        self.stacks = [[] for _ in range(NSQ)]                    # CN-5
        self.reserve = {p: dict(COUNTS) for p in PLAYERS}
        self.burned = {p: 0 for p in PLAYERS}
        self.active = set()        # tokens whose activation is being resolved
        self.turns = 0
        self.decisions = 0

    # ------------------------------------------------------------ helpers

    def ask(self, name, player, options):
        self.decisions += 1
        idx = self.chooser(name, player, options)
        if not isinstance(idx, int) or not 0 <= idx < len(options):
            raise ValueError(f"bad choice {idx!r} for {name} {options!r}")
        return idx

    def top(self, sq):
        stack = self.stacks[sq]
        return stack[-1] if stack else None

    def square_of(self, token):
        """Square where `token` is the top token, or None (covered/burned)."""
        for sq in range(NSQ):
            stack = self.stacks[sq]
            if stack and stack[-1] is token:
                return sq
        return None

    def reserve_size(self, player):
        return sum(self.reserve[player].values())

    def power(self, sq):
        """Power of the top token of `sq` (CN-28..30, A3, A4)."""
        stack = self.stacks[sq]
        owner = stack[-1].owner
        power = 0
        j = len(stack) - 2
        while j >= 0 and stack[j].owner == owner:   # unbroken run beneath
            power += 1
            j -= 1
        for n in ADJ[sq]:                           # Deer +1 (CN-45..48)
            t = self.top(n)
            if t is not None and t.kind == "deer" and t.owner == owner:
                power += 1
        for n in WOLF_AREA[sq]:                     # enemy Wolf -1 (CN-49..52)
            t = self.top(n)
            if t is not None and t.kind == "wolf" and t.owner != owner:
                power -= 1
        return power

    def can_place(self, player, kind, sq):
        t = self.top(sq)
        if t is None:
            return True                                           # CN-22
        if kind == "tree" and t.kind == "fire":
            return False                                          # CN-25, A5
        if t.owner == player:
            return True                                           # CN-23
        return self.power(sq) <= 0                                # CN-24

    def legal_placements(self, player):
        return [(kind, NAMES[sq])
                for kind in KINDS if self.reserve[player][kind] > 0
                for sq in range(NSQ) if self.can_place(player, kind, sq)]

    def settle_burning(self):
        """CN-73..78, A13, A14: burn top Trees until the board is stable."""
        changed = True
        while changed:
            changed = False
            for sq in range(NSQ):
                stack = self.stacks[sq]
                if not stack or stack[-1].kind != "tree":
                    continue
                # A14: a Tree that ends a move directly on a Fire burns.
                on_fire = len(stack) >= 2 and stack[-2].kind == "fire"
                near_fire = any(self.top(n) is not None
                                and self.top(n).kind == "fire" for n in ADJ[sq])
                if on_fire or near_fire:
                    tree = stack.pop()
                    self.burned[tree.owner] += 1
                    changed = True

    # -------------------------------------------------------- activation

    def activate(self, token):
        if token in self.active:       # CN-15, A21: guard, no Squirrel repeat
            return
        if token.kind not in ACTIVABLE:                           # CN-70
            return
        sq = self.square_of(token)
        if sq is None:                 # covered or burned (CN-10, CN-64)
            return
        # CN-53, A16: Squirrel adjacency is checked when the activation begins.
        twice = any(self.top(n) is not None and self.top(n).kind == "squirrel"
                    and self.top(n).owner == token.owner for n in ADJ[sq])
        self.active.add(token)
        self.resolve(token, sq)
        if twice:
            # CN-54..57: once more if still a top token anywhere, never thrice.
            sq = self.square_of(token)
            if sq is not None:
                self.resolve(token, sq)
        self.active.discard(token)

    def resolve(self, token, sq):
        """One resolution of `token`'s effect; its owner chooses (CN-13)."""
        owner = token.owner
        if token.kind == "tree":                          # CN-32, CN-35, A9
            if self.reserve[owner]["tree"] > 0:
                self.reserve[owner]["tree"] -= 1
                self.stacks[sq].append(Token("tree", owner))
                self.settle_burning()
        elif token.kind == "boar":
            self.resolve_boar(owner, sq)
        elif token.kind == "fox":
            self.resolve_fox(owner, sq)
        elif token.kind == "crow":
            self.resolve_crow(owner, sq)

    def resolve_boar(self, owner, sq):
        """CN-38..44, A10, A11: push one adjacent top token one step on."""
        pushes = [(t, d) for t, d in PUSH[sq] if self.stacks[t]]
        if not pushes:
            return                                                # CN-44
        i = self.ask("push", owner, [NAMES[t] for t, _ in pushes])
        target, dest = pushes[i]
        self.stacks[dest].append(self.stacks[target].pop())       # CN-43
        self.settle_burning()

    def resolve_fox(self, owner, sq):
        """CN-61..66, A17, A18: swap two top tokens, then activate them."""
        occupied = [n for n in NBHD[sq] if self.stacks[n]]
        pairs = [(a, b) for k, a in enumerate(occupied) for b in occupied[k + 1:]]
        if not pairs:
            return                                                # CN-62
        i = self.ask("swap", owner, [(NAMES[a], NAMES[b]) for a, b in pairs])
        a, b = pairs[i]
        token_a = self.stacks[a].pop()
        token_b = self.stacks[b].pop()
        self.stacks[b].append(token_a)     # A27: each lands on what remains
        self.stacks[a].append(token_b)
        self.settle_burning()              # burning only after both moved
        ready = [t for t in (token_b, token_a)     # token_b on a < b
                 if t.kind in ACTIVABLE and t not in self.active
                 and self.square_of(t) is not None]
        if len(ready) == 2:
            i = self.ask("first", owner, [NAMES[a], NAMES[b]])
            ready = [ready[i], ready[1 - i]]
        for t in ready:
            self.activate(t)               # re-checks top / guard (CN-64)

    def resolve_crow(self, owner, sq):
        """CN-68..72, A19, A20: bottom token of an adjacent stack to its top."""
        targets = [n for n in ADJ[sq] if self.stacks[n]]
        if not targets:
            return                                                # CN-72
        target = targets[self.ask("crow", owner, [NAMES[n] for n in targets])]
        stack = self.stacks[target]
        token = stack.pop(0)
        stack.append(token)                # alone: it simply stays (CN-69)
        self.settle_burning()
        self.activate(token)

    # ------------------------------------------------------------- turns

    def place(self, player, kind, sq):
        """CN-18: put the token on top, burn, then activate it if it must."""
        self.reserve[player][kind] -= 1
        token = Token(kind, player)
        self.stacks[sq].append(token)
        self.settle_burning()
        if kind in ("boar", "fox", "crow"):                       # CN-12
            self.activate(token)

    def start_of_turn(self, player):
        """CN-31..34, A7: snapshot of top Trees, each activates once."""
        tops = [self.top(sq) for sq in range(NSQ)]
        waiting = [t for t in tops
                   if t is not None and t.kind == "tree" and t.owner == player]
        while waiting and self.reserve[player]["tree"] > 0:
            if self.reserve[player]["tree"] < len(waiting):
                names = [NAMES[self.square_of(t)] for t in waiting]
                tree = waiting[self.ask("grow", player, names)]
            else:
                tree = waiting[0]
            self.activate(tree)
            waiting.remove(tree)

    def play_turn(self, player):
        """CN-17..19. Returns False if the player lost under CN-86."""
        self.start_of_turn(player)
        for _ in range(2):                                        # A1, A2
            if self.reserve_size(player) == 0:
                return True                # turn ends at once (CN-19)
            options = self.legal_placements(player)
            if not options:
                return False                                      # CN-86, A26
            kind, name = options[self.ask("place", player, options)]
            self.place(player, kind, INDEX[name])
        return True

    def scores(self):
        occupied = {p: 0 for p in PLAYERS}
        for sq in range(NSQ):
            if self.stacks[sq]:
                occupied[self.stacks[sq][-1].owner] += 1          # CN-7
        return occupied

    def final_winner(self):
        """CN-82..85, A24, A25."""
        occ = self.scores()
        visible = {p: 0 for p in PLAYERS}
        for sq in range(NSQ):
            t = self.top(sq)
            if t is not None and t.kind == "tree":
                visible[t.owner] += 1
        for key in (occ, visible, {p: -self.burned[p] for p in PLAYERS}):
            if key[GREEN] != key[PURPLE]:
                return GREEN if key[GREEN] > key[PURPLE] else PURPLE
        return None

    def result(self, winner, reason):
        return {"winner": winner, "turns": self.turns,
                "decisions": self.decisions, "scores": self.scores(),
                "reason": reason}

    def play(self):
        player = GREEN                                            # CN-6
        while True:
            self.turns += 1
            if not self.play_turn(player):
                return self.result(other(player), "no_legal_placement")
            # CN-79, A22: the end is checked only when a turn is over.
            empty = [p for p in PLAYERS if self.reserve_size(p) == 0]
            if empty:
                if len(empty) == 1:                               # CN-80, A23
                    last = other(empty[0])
                    options = self.legal_placements(last)
                    if options:                                   # CN-87
                        i = self.ask("last", last, options + ["pass"])
                        if i < len(options):
                            kind, name = options[i]
                            self.place(last, kind, INDEX[name])
                return self.result(self.final_winner(), "score")  # CN-81
            player = other(player)


# ---------------------------------------------------------------- API

def random_chooser(seed):
    rng = random.Random(seed)

    def choose(name, player, options):
        return rng.randrange(len(options))
    return choose


def play_game(chooser):
    """Play one whole game from the empty board; see module docstring."""
    return Game(chooser).play()


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
