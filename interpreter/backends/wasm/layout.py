"""How a game lies in the module's linear memory: every value of the content numbered, and the byte
address of each part of the state.

Every value is an i32. Below BASE a value is a number (or none, 0; false, 0; true, 1). From BASE on
it is a component, or a name: the rules compare zones, locations, kinds, players, directions and
texts by their names, so each distinct name has one number, whatever it names. Zones come first
(locations first among them), so that a zone's tables are indexed by `number - ZONE0`. From LIST0
on, a value is a list: LIST0 plus the offset of its length in the arena, its items after it.

An array indexed by a component or a name is laid at an address A and used at `A - 4 * lowest`, so
that a value indexes it with no subtraction: every such array lies above 4 * (BASE + ENTITIES).
"""
from __future__ import annotations

from interpreter.backends.errors import NotCompiled

SLOTS = 96  # a frame's words for the rules' locals and the routine's own
MAX_FRAMES = 64
FRAME_SLOTS = 20  # a frame: routine, pc, you, self, the arena's used part when it was pushed, then the slots
FRAME = FRAME_SLOTS + 4 * SLOTS
MAX_COLUMNS = 8  # the bindings of one `choose`
OPTIONS = 256  # the room made for a decision's options
TRACE_CAPACITY = 1 << 16  # the decisions a traced game may have
CURVE_CAPACITY = 1 << 13  # the turns of a recorded game
MEMO_ENTRIES = 1 << 14  # the functions' values kept (a table by hash of function and arguments)
ARENA_WORDS = 1 << 18
BASE = 1 << 20  # a value from here on is a component or a name
MAX_NAMES = 1 << 16
TABLE_ROOM = 1 << 20  # bytes for the constant tables
CONTROLLER, FACE_DOWN = "controller", "face_down"  # kept as properties of every component


class NotOnWasm(NotCompiled):
    def __init__(self, what: str, pos):
        super().__init__(what, pos, "the WebAssembly backend")


class Layout:
    """The numbers of the content's components and names, and the constant lists, laid at the arena's start."""

    def __init__(self, ruleset, state, seated: list[str]):
        program, board = ruleset.program, ruleset.board
        self.components = {cid: BASE + i for i, cid in enumerate(state.components, 1)}
        self.strings: dict[str, int] = {}
        self.locations = {loc: self.string(loc) for loc in board.locations}
        self.zones = {**self.locations, **{zone: self.string(zone) for zone in state.zones}}
        self.ZONE0 = BASE + len(self.components) + 1
        self.LIST0 = BASE + len(self.components) + MAX_NAMES + 1  # a list is LIST0 + its offset in the arena
        self.kinds = {k: self.string(k) for k in program.kind_order}
        self.players = {p: self.string(p) for p in program.players}
        self.seated = [self.players[p] for p in seated]
        properties = [*program.symbols.properties, CONTROLLER, FACE_DOWN]
        self.properties = {name: i for i, name in enumerate(dict.fromkeys(properties), 1)}
        self.variables = {name: i for i, name in enumerate(program.symbols.variables, 1)}
        self.names: dict[str, int] = {}  # the decisions' names
        self.arena: list[int] = [0]
        self._lists: dict = {}
        self._values: dict[int, object] | None = None

    def string(self, text: str) -> int:
        """The number of a name or a text (one per distinct text)."""
        if text not in self.strings:
            if len(self.strings) >= MAX_NAMES:
                raise NotOnWasm(f"more than {MAX_NAMES} distinct names and texts", None)
            self.strings[text] = BASE + len(self.components) + 1 + len(self.strings)
            self._values = None
        return self.strings[text]

    def name(self, text: str) -> int:
        return self.names.setdefault(text, len(self.names) + 1)

    def constant_list(self, key, items: list[int]) -> int:
        """The arena offset of a list that never changes (the locations, a location's neighbours)."""
        if key not in self._lists:
            self._lists[key] = self.LIST0 + len(self.arena)
            self.arena += [len(items), *items]
        return self._lists[key]

    def value(self, number: int):
        """What a value is outside: a component's id, a name, or a number as itself."""
        if number < BASE:
            return number
        if self._values is None:
            self._values = {n: cid for cid, n in self.components.items()}
            self._values.update((n, text) for text, n in self.strings.items())
        return self._values.get(number, number)

    @property
    def player_span(self) -> tuple[int, int]:
        """The lowest player number, and how many numbers from it to the highest."""
        numbers = self.players.values()
        return min(numbers), max(numbers) - min(numbers) + 1


class Memory:
    """Byte addresses of the game's parts. The constant tables come first, then the game: what lies
    from GAME to ARENA_AT, plus the arena's used part, is what a copy copies. The start of `play:`
    (TEMPLATE) lies after it.

    Everything below TABLES is never written, so that an array indexed from a value (`indexed`) reads 0
    at none: its address less 4 * BASE. That holds while the tables and the arrays so indexed end
    within 4 * BASE of TABLES."""

    SCALARS = ("VERSION", "BATCH", "SETTLING", "TURNS", "TURN_PLAYER", "SP", "MARKS", "PHASE", "DECISIONS",
               "FINISHED", "DECIDED", "TRACED", "AP", "HP", "TRACING", "BOT", "ANSWER", "PENDING", "PENDING_NAME",
               "PENDING_PLAYER", "PENDING_COUNT", "PENDING_OPTIONAL", "WHERE", "FAILURE", "FINISH_KIND", "NAMED",
               "ENDING", "REFUSAL", "MOVED_FROM", "STEPS", "STEP_LIMIT", "STEP_BUDGET", "PENDING_NCOLUMNS",
               "FIRST_DECIDER", "LAST_TURN", "FIRST_MOVER", "MAX_TURNS", "CURVED", "BSP", "NREASONS")

    def __init__(self, layout: Layout):
        n, z, v = len(layout.components), len(layout.zones), len(layout.variables)
        self.at = 4 * layout.LIST0
        self.TABLES = self.reserve(TABLE_ROOM)
        self.GAME = self.at
        self.KIND, self.OWNER, self.ZONE = (self.indexed(n + 1, BASE) for _ in range(3))
        self.PROPS = [self.indexed(n + 1, BASE) for _ in range(len(layout.properties) + 1)]
        self.ZN = self.indexed(z, layout.ZONE0)
        lowest, self.PSPAN = layout.player_span
        self.VARS = self.indexed((v + 1) * self.PSPAN, lowest)  # variable k of player p at k * PSPAN + p
        self.SCORES = self.indexed(self.PSPAN, lowest)
        self.NEXT = self.indexed(self.PSPAN, lowest)  # the player seated after each, in this game's order
        kinds = list(layout.kinds.values()) or [0]
        self.MOVED_KINDS = self.indexed(max(kinds) - min(kinds) + 1, min(kinds))  # the kinds moved in the game
        if self.at - self.TABLES >= 4 * BASE:
            raise NotOnWasm("a game with this many components and properties", None)
        self.STRIDE = n + 1
        self.ZS = self.words(z * (n + 1))
        for name in self.SCALARS:
            setattr(self, name, self.words(1))
        self.PENDING_COLUMNS = self.words(MAX_COLUMNS)
        self.MARK_DEPTH, self.MARK_PC = self.words(64), self.words(64)
        self.GEN = self.words(625)  # the game's generator: its index, then its state
        seats = len(layout.seated)
        self.GIVEN, self.REASONS, self.POINTS = self.words(seats), self.words(64), self.words(64 * seats)
        self.BECAUSE_ENTRY = 12 + 8 * seats  # frames' depth, reason, version, then each seat's score and points given
        self.BECAUSE = self.reserve(32 * self.BECAUSE_ENTRY)
        self.FRAMES = self.reserve(MAX_FRAMES * FRAME)
        self.ARENA_AT = self.words(ARENA_WORDS)
        self.ARENA = self.ARENA_AT - 4 * layout.LIST0  # read at a list's value
        self.G_END = self.at
        self.MIXER = self.words(625)  # the face-down mix's generator, seeded by Python as its backend seeds it
        self.SEAT_GENS = self.words(625 * len(layout.seated))  # each seat's random bot's, in a recorded game
        self.EPOCH = self.words(1)  # changed with each game and copy: the values kept before are not this game's
        self.MEMO = self.words(8 * MEMO_ENTRIES)
        self.TRACE = self.words(8 * TRACE_CAPACITY)
        self.CURVE_ROW = 4 * (1 + seats)  # a turn, then each seat's score as it starts
        self.CURVE = self.reserve(CURVE_CAPACITY * self.CURVE_ROW)
        self.TEMPLATE = self.reserve(self.G_END - self.GAME)

    def words(self, count: int) -> int:
        return self.reserve(4 * count)

    def indexed(self, count: int, lowest: int) -> int:
        """`count` words, indexed from the value `lowest`: the address to read them at."""
        return self.words(count) - 4 * lowest

    def reserve(self, size: int) -> int:
        at, self.at = self.at, self.at + size
        return at

    def constants(self) -> dict:
        return {name: value for name, value in vars(self).items() if name.isupper() and isinstance(value, int)}
