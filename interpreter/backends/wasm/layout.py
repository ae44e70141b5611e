"""How a game lies in the module's linear memory: every name of the content numbered, and the byte
address of each part of the state.

Every value is an i32. Kinds, players, locations and other zones, components and the names of
decisions each count from 1 (none is 0); a location's number is its zone's. A list is the offset of
its length in the arena, its items after it; offset 0 is no list.
"""
from __future__ import annotations

SLOTS = 40  # a frame's words for the rules' locals and the routine's own
MAX_FRAMES = 64
FRAME = 4 * (4 + SLOTS)  # routine, pc, you, self, then the slots
MAX_COLUMNS = 8  # the bindings of one `choose`
OPTIONS = 256  # the room made for a decision's options
TRACE_CAPACITY = 4096
ARENA_WORDS = 1 << 18


class Layout:
    """The numbers of the content's names, and the constant lists, laid at the arena's start."""

    def __init__(self, ruleset, state):
        program, board = ruleset.program, ruleset.board
        self.kinds = {k: i for i, k in enumerate(program.kind_order, 1)}
        self.players = {p: i for i, p in enumerate(program.players, 1)}
        self.locations = {loc: i for i, loc in enumerate(board.locations, 1)}
        self.zones = dict(self.locations)
        for zone in state.zones:
            self.zones.setdefault(zone, len(self.zones) + 1)
        self.components = {cid: i for i, cid in enumerate(state.components, 1)}
        self.properties = {name: i for i, name in enumerate(program.symbols.properties, 1)}
        self.variables = {name: i for i, name in enumerate(program.symbols.variables, 1)}
        self.directions = {direction: i for i, direction in enumerate(sorted(set(board._directions.values())), 1)}
        self.names: dict[str, int] = {}  # the decisions' names
        self.arena: list[int] = [0]
        self._lists: dict = {}
        self._labels: dict | None = None  # kind -> number -> name, made once every name is numbered

    def name(self, text: str) -> int:
        return self.names.setdefault(text, len(self.names) + 1)

    def constant_list(self, key, items: list[int]) -> int:
        """The arena offset of a list that never changes (the locations, a location's neighbours)."""
        if key not in self._lists:
            self._lists[key] = len(self.arena)
            self.arena += [len(items), *items]
        return self._lists[key]

    def label(self, kind: str, number: int):
        """What a number of that kind is called outside: a name, or a component's id (a number as itself)."""
        if self._labels is None:
            self._labels = {what: {number: name for name, number in table.items()} for what, table in (
                ("kind", self.kinds), ("player", self.players), ("location", self.locations), ("zone", self.zones),
                ("component", self.components), ("decision", self.names))}
        names = self._labels.get(kind)
        return number if names is None else names.get(number)


class Memory:
    """Byte addresses of the game's parts. A game is everything below `ARENA` plus the arena's used
    part: what a copy copies. The start of `play:` (TEMPLATE) and the constant tables lie after it."""

    SCALARS = ("VERSION", "BATCH", "SETTLING", "TURNS", "TURN_PLAYER", "SP", "MARKS", "MTI", "DECISIONS", "FINISHED",
               "NWINNERS", "TRACED", "AP", "TRACING", "BOT", "ANSWER", "PENDING", "PENDING_NAME", "PENDING_PLAYER",
               "PENDING_COUNT", "PENDING_OPTIONAL", "WHERE", "FAILURE", "FINISH_KIND", "LOSER", "STEPS", "STEP_LIMIT",
               "STEP_BUDGET")

    def __init__(self, layout: Layout):
        self.at = 0
        n, z, v, p = len(layout.components), len(layout.zones), len(layout.variables), len(layout.players)
        self.KIND, self.OWNER, self.ZONE = (self.words(n + 1) for _ in range(3))
        self.PROPS = [self.words(n + 1) for _ in range(len(layout.properties) + 1)]
        self.ZN = self.words(z + 1)
        self.STRIDE = n + 1
        self.ZS = self.words((z + 1) * (n + 1))
        self.VARS = self.words((v + 1) * (p + 1))
        for name in self.SCALARS:
            setattr(self, name, self.words(1))
        self.PENDING_COLUMNS = self.words(MAX_COLUMNS)
        self.MARK_DEPTH, self.MARK_PC = self.words(64), self.words(64)
        self.MT = self.words(624)
        self.WINNERS, self.SCORES = self.words(p + 1), self.words(p + 1)
        self.FRAMES = self.reserve(MAX_FRAMES * FRAME)
        self.ARENA = self.words(ARENA_WORDS)
        self.G_END = self.at
        self.TRACE = self.words(4 * TRACE_CAPACITY)
        self.TEMPLATE = self.reserve(self.G_END)
        self.TABLES = self.at

    def words(self, count: int) -> int:
        return self.reserve(4 * count)

    def reserve(self, size: int) -> int:
        at, self.at = self.at, self.at + size
        return at

    def constants(self) -> dict:
        return {name: value for name, value in vars(self).items() if name.isupper() and isinstance(value, int)}
