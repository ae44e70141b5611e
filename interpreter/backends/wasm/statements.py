"""Blocks of statements written as WebAssembly functions `$R_name(f)`, `f` the frame's address.

A routine that may stop for a decision is written as the Lua backend writes it (statements that may
stop at the top level, locals in the frame, numbered places to resume at), then laid as a loop over
numbered blocks: every label is a block, `goto` sets `$pc` and goes round the loop, and the routine
starts at the block its frame's `pc` names. Statements that cannot stop are plain structured code.
A routine returns 0 when it is done, 1 when it pushed a frame or unwound the stack, 2 when a
decision waits for an answer from outside.
"""
from __future__ import annotations

from interpreter.backends.wasm.expressions import (
    NotOnWasm,
    WCode,
    identifier,
    load_word,
    scalar,
    set_scalar,
    set_slot,
    slot,
    store_word,
)
from interpreter.backends.wasm.layout import BASE, FACE_DOWN, FRAME_SLOTS, MAX_COLUMNS, OPTIONS, SLOTS
from interpreter.language import declarations as d
from interpreter.language import expressions as e
from interpreter.language.declarations import rule_label
from interpreter.language.expressions import Quantifier
from interpreter.language.statements import MOVED
from interpreter.language.types import ANY

DONE, CALL, SUSPEND = 0, 1, 2
YOU, SELF = "(i32.load offset=8 (local.get $f))", "(i32.load offset=12 (local.get $f))"


class Routine(WCode):
    """A routine's body as numbered blocks: `place(label)` starts one, `goto(label)` jumps to one."""

    def __init__(self, w, fn, names):
        super().__init__(w, fn, names, [])
        self.segments: list[list[str]] = [self.lines]
        self.where: dict[str, int] = {}
        self.slots: dict[str, int] = {}
        self.replacing: tuple[str, int] | None = None  # in an `instead of` rule: the procedure, its arity
        self.flat_now = False  # the statement being written may stop for a decision
        self.counter = 0

    def slot(self, name: str) -> int:
        if name not in self.slots:
            self.slots[name] = len(self.slots)
            if len(self.slots) > SLOTS:
                raise NotOnWasm(f"a routine with more than {SLOTS} locals", None)
        return self.slots[name]

    def new_label(self) -> str:
        self.counter += 1
        return f"L{self.counter}"

    def place(self, label: str) -> None:
        self.lines = []
        self.segments.append(self.lines)
        self.where[label] = len(self.segments) - 1

    def goto(self, label: str) -> str:
        return f"(local.set $pc (i32.const @{label}@)) (br $dispatch)"

    def resume_here(self, label: str) -> str:
        """The frame resumes at block `label`."""
        return f"(i32.store offset=4 (local.get $f) (i32.const @{label}@))"

    def body(self) -> str:
        """The blocks nested so that `br $Bk` lands at the start of block k."""
        targets = " ".join(f"$B{k}" for k in range(len(self.segments)))
        text = f"(block $B0 (br_table {targets} (local.get $pc)))"
        for k, segment in enumerate(self.segments):
            text = f"{text} {' '.join(segment)}"
            if k + 1 < len(self.segments):
                text = f"(block $B{k + 1} {text})"
        for label, k in self.where.items():
            text = text.replace(f"@{label}@", str(k))
        return f"(loop $dispatch {text})"

    def nested(self, lines: list) -> Routine:
        """The same routine writing into `lines` (the inside of a plain `if` or loop)."""
        inner = Routine.__new__(Routine)
        inner.__dict__.update(self.__dict__)
        inner.names, inner.lines = dict(self.names), lines
        return inner


def write_block(block, out: Routine, flat: bool) -> None:
    for statement in block.statements:
        name = type(statement).__name__
        out.flat_now = flat and decides(statement, out)
        if out.flat_now:
            writer = FLAT.get(name)
            if writer is None:
                raise NotOnWasm(f"`{name}` statements that ask for decisions", statement.pos)
        else:
            writer = PLAIN.get(name)
            if writer is None:
                raise NotOnWasm(f"`{name}` statements", statement.pos)
        writer(statement, out)
        for bound in statement.binds():
            out.names[bound] = slot(out.slot(bound))


def decides(statement, out: Routine) -> bool:
    """Whether the statement may stop for a decision; `proceed` does in a procedure that may (the rules
    it runs then may too), which the statements' own `decides` cannot tell."""
    if type(statement).__name__ == "Proceed":
        return out.replacing is not None and out.w.deciding.procedures.get(out.replacing[0], False)
    return statement.decides(out.w.deciding) or any(decides(s, out) for s in statement.substatements())


def _step(out: Routine, pos) -> None:
    """A step of the engine's budget (a loop's turn, a call), at the rules position a runtime error is
    then reported at."""
    out.line(f"(call $step (i32.const {out.w.where(pos)}))")


# Statements that never stop --------------------------------------------------------------------------

def plain_let(node, out: Routine) -> None:
    out.line(set_slot(out.slot(node.name), out.value(node.value)))


def plain_set(node, out: Routine) -> None:
    value, target, mem, layout = out.value(node.value), node.target, out.w.mem, out.w.layout
    if isinstance(target, e.Name) and target.name in out.names:
        out.line(set_slot(out.slot(target.name), value))
        return
    if node.value.type in ("list", ANY):  # stored past the routine's end
        value = f"(call $keep {value})"
    if isinstance(target, e.Name) and target.name in layout.variables:
        out.line(set_scalar(out.w.variable(target.name), value))
    elif isinstance(target, e.Call) and target.name in layout.variables:
        out.line(store_word(out.w.variable(target.name, each=True), out.value(target.args[0]), value))
    elif isinstance(target, e.Attribute) and target.name in layout.properties:
        out.line(store_word(mem.PROPS[layout.properties[target.name]], out.value(target.subject), value))
    else:
        raise NotOnWasm("this `set`", node.pos)
    out.line(set_scalar(mem.VERSION, f"(i32.add {scalar(mem.VERSION)} (i32.const 1))"))


def _moved(node, out: Routine) -> tuple[str, str]:
    """The move itself: the list of the components moved (0 where `what` is none), and where to."""
    what = out.simple(out.value(node.what))
    to = out.simple(out.value(node.to))
    how = int(node.at_bottom) | 2 * int(node.guarded) | {None: 0, "up": 4, "down": 8}[node.facing]
    _where(out, node.pos)
    return f"(call $move {what} {to} (i32.const {how}))", to


def plain_move(node, out: Routine) -> None:
    w = out.w
    moved, to = _moved(node, out)
    if not w.handlers(MOVED):
        out.line(f"(drop {moved})")
        return
    moved = out.temp(moved)
    origin = out.temp(scalar(w.mem.MOVED_FROM))
    calls: list[str] = []
    for index, handler in enumerate(w.handlers(MOVED)):
        _call_plain(out.nested(calls), w.handler_name(MOVED, index), [moved, origin, to], handler.pos)
    out.line(f"(if (i32.and (i32.ne {moved} (i32.const 0)) (i32.ne (call $len {moved}) (i32.const 0))) "
             f"(then {' '.join(calls)}))")


def flat_move(node, out: Routine) -> None:
    """A move whose `moved` rules may ask for decisions: each in a frame of its own, once the move is done."""
    values = [out.slot(f"{part}{id(node)}") for part in ("moved", "from", "to")]
    moved, to = _moved(node, out)
    out.line(set_slot(values[0], moved))
    out.line(set_slot(values[1], scalar(out.w.mem.MOVED_FROM)))
    out.line(set_slot(values[2], to))
    done = out.new_label()
    nothing = f"(i32.or (i32.eqz {slot(values[0])}) (i32.eqz (call $len {slot(values[0])})))"
    out.line(f"(if {nothing} (then {out.goto(done)}))")
    fill = [f"(i32.store offset={FRAME_SLOTS + 4 * i} (local.get $nf) {slot(k)})" for i, k in enumerate(values)]
    _run_handlers(out, MOVED, fill, node.pos)
    out.line(out.goto(done))
    out.place(done)


def _where(out: Routine, pos) -> None:
    """The rules position a runtime error from here is reported at."""
    out.line(set_scalar(out.w.mem.WHERE, f"(i32.const {out.w.where(pos)})"))


def plain_call(node, out: Routine) -> None:
    args = [out.simple(out.value(a)) for a in node.args]
    _call_plain(out, f"P_{identifier(node.name)}", args, node.pos)


def plain_emit(node, out: Routine) -> None:
    if node.ordered_by is not None:
        raise NotOnWasm("`emit ... ordered by`", node.pos)
    w, event = out.w, ("event", node.event)
    args = [out.simple(out.value(a)) for a in node.args]
    for index, handler in enumerate(w.handlers(event)):
        _call_plain(out, w.handler_name(event, index), args, handler.pos)


def _call_plain(out: Routine, routine: str, args: list[str], pos) -> None:
    """A routine that asks for no decision, run to its end in a frame of its own."""
    number = out.w.routine_number(routine)
    _step(out, pos)
    out.line(f"(local.set $nf (call $push (i32.const {number})))")
    out.line(f"(i32.store offset=8 (local.get $nf) {YOU})")
    for i, a in enumerate(args):
        out.line(f"(i32.store offset={FRAME_SLOTS + 4 * i} (local.get $nf) {a})")
    out.line(f"(if (call $R_{routine} (local.get $nf)) (then (return (i32.const {CALL}))))")
    out.line("(call $pop)")


def plain_signal(node, out: Routine) -> None:
    if node.what == "return":
        out.line(f"(return (i32.const {DONE}))")
    elif node.what == "end turn":
        out.line("(return (call $end_turn))")
    else:
        kind = {"lose": 2, "win": 3, "draw": 4}[node.what]
        named = "(i32.const 0)"
        if node.player is not None:
            player = out.value(node.player)
            named = f"(call ${'seat_bits' if node.player.type == 'list' else 'seat_bit'} {player})"
        ending = out.value(node.ending) if node.ending is not None else "(i32.const 0)"
        out.line(f"(return (call $end_game (i32.const {kind}) {named} {ending}))")


def plain_rank(node, out: Routine) -> None:
    mem, seated = out.w.mem, out.w.layout.seated
    values = out.temp(f"(call $new_list (i32.const {len(node.keys) * len(seated)}))")
    for s in range(len(seated)):  # the players in this game's order
        p = f"(call $item (i32.const {out.w.seated_list}) (i32.const {s + 1}))"
        for k, (order, name) in enumerate(node.keys):
            value = f"(call $F_{identifier(name)} {p})"
            if order != "most":
                value = f"(i32.sub (i32.const 0) {value})"
            out.line(store_word(mem.ARENA, f"(i32.add {values} (i32.const {1 + k * len(seated) + s}))", value))
        out.line(store_word(mem.SCORES, p, f"(call $F_{identifier(node.keys[0][1])} {p})"))
    first = len(out.w.rank_keys)
    out.w.rank_keys += [f"{order} {name}" for order, name in node.keys]
    out.line(f"(return (call $rank (i32.const {len(node.keys)}) (i32.const {int(node.ties_share)}) "
             f"(i32.const {first}) {values}))")


def plain_if(node, out: Routine) -> None:
    otherwise: list[str] = []
    if node.otherwise is not None:
        write_block(node.otherwise, out.nested(otherwise), False)
    text = " ".join(otherwise)
    for test, block in reversed(node.branches):
        prelude, then = [], []
        condition = out.nested(prelude).value(test)
        write_block(block, out.nested(then), False)
        text = f"{' '.join(prelude)} (if {condition} (then {' '.join(then)}) (else {text}))"
    out.line(text)


def _selection(node) -> Quantifier:
    return Quantifier(node.pos, "select", node.variable, node.source, node.where, None, None)


def plain_for_each(node, out: Routine) -> None:
    items = out.simple(out.value(_selection(node)))
    i = out.fn.local("i")
    body: list[str] = []
    inner = out.nested(body)
    _step(inner, node.pos)
    inner.line(set_slot(out.slot(node.variable), load_word(out.w.mem.ARENA, f"(i32.add {items} (local.get {i}))")))
    inner.names[node.variable] = slot(out.slot(node.variable))
    write_block(node.body, inner, False)
    _counted_loop(out, i, 1, f"(i32.gt_s (local.get {i}) {load_word(out.w.mem.ARENA, items)})", body)


def _counted_loop(out: Routine, i: str, first: int, done: str, body: list[str]) -> None:
    """`body` again and again, local `i` counting from `first`, until the test `done` holds."""
    label = i[1:]
    out.line(f"(local.set {i} (i32.const {first})) (block $done_{label} (loop $next_{label} "
             f"(br_if $done_{label} {done}) {' '.join(body)} "
             f"(local.set {i} (i32.add (local.get {i}) (i32.const 1))) (br $next_{label})))")


def plain_at_once(node, out: Routine) -> None:
    mem = out.w.mem
    out.line(set_scalar(mem.BATCH, f"(i32.add {scalar(mem.BATCH)} (i32.const 1))"))
    write_block(node.body, out, False)
    out.line(set_scalar(mem.BATCH, f"(i32.sub {scalar(mem.BATCH)} (i32.const 1))"))
    out.line("(call $settle)")


def plain_pass(node, out: Routine) -> None:
    pass


def plain_repeat(node, out: Routine) -> None:
    count, i = out.simple(out.value(node.times)), out.fn.local("i")
    body: list[str] = []
    inner = out.nested(body)
    _step(inner, node.pos)
    write_block(node.body, inner, False)
    _counted_loop(out, i, 0, f"(i32.ge_s (local.get {i}) {count})", body)


def plain_while(node, out: Routine) -> None:
    test_lines: list[str] = []
    test = out.nested(test_lines).value(node.test)
    body: list[str] = []
    inner = out.nested(body)
    _step(inner, node.pos)
    write_block(node.body, inner, False)
    label = out.fn.label("w")[1:]
    out.line(f"(block $wb{label} (loop $wl{label} {' '.join(test_lines)} (br_if $wb{label} (i32.eqz {test})) "
             f"{' '.join(body)} (br $wl{label})))")


def plain_as(node, out: Routine) -> None:
    saved = out.fn.local("you")
    out.line(f"(local.set {saved} {YOU})")
    out.line(f"(i32.store offset=8 (local.get $f) {out.value(node.player)})")
    write_block(node.body, out, False)
    out.line(f"(i32.store offset=8 (local.get $f) (local.get {saved}))")


def because(node, out: Routine) -> None:
    """`because REASON`: with a score function, the points the statements make each player score go to
    the reason (a text, or a component by its kind; none gives no reason), in the runtime's notes."""
    flat = out.flat_now
    if out.w.symbols.score is None:
        write_block(node.body, out, flat)
        return
    reason = out.slot(f"reason{id(node)}")
    value = out.simple(out.value(node.reason))
    component = f"(i32.lt_u (i32.sub {value} (i32.const {BASE + 1})) (i32.const {len(out.w.layout.components)}))"
    out.line(set_slot(reason, f"(select {load_word(out.w.mem.KIND, value)} {value} {component})"))
    out.line(f"(if {slot(reason)} (then (call $because_start {slot(reason)})))")
    write_block(node.body, out, flat)
    out.line(f"(if {slot(reason)} (then (call $because_end)))")


def plain_flip(node, out: Routine) -> None:
    what, down = out.value(node.what), int(node.facing == "down")
    out.line(f"(call $flip {what} (i32.const {down}) (i32.const {out.w.layout.properties[FACE_DOWN]}))")


def plain_reveal(node, out: Routine) -> None:
    """What a player is shown changes no rule's outcome, and the module shows nobody anything: the
    operands are worked out (their errors stand), nothing else."""
    out.line(f"(drop {out.value(node.zone)})")
    out.line(f"(drop {out.value(node.player)})")
    out.line(set_scalar(out.w.mem.VERSION, f"(i32.add {scalar(out.w.mem.VERSION)} (i32.const 1))"))


def plain_shuffle(node, out: Routine) -> None:
    out.line(f"(call $shuffle {out.value(node.zone)})")



# Statements that may stop ------------------------------------------------------------------------------

def _jump_unless(out: Routine, test, label: str) -> None:
    out.line(f"(if (i32.eqz {out.value(test)}) (then {out.goto(label)}))")


def _push(out: Routine, number: str, fill: list[str], pos, step: bool = True) -> None:
    """Push a frame for routine `number` and resume after it once it is done."""
    label = out.new_label()
    if step:
        _step(out, pos)
    out.line(f"(local.set $nf (call $push {number}))")
    out.line(f"(i32.store offset=8 (local.get $nf) {YOU})")
    for line in fill:
        out.line(line)
    out.line(f"{out.resume_here(label)} (return (i32.const {CALL}))")
    out.place(label)


def _values(out: Routine, args, prefix: str) -> list[str]:
    """The arguments kept in the frame (the next frame is filled from them after they are all made)."""
    slots = [out.slot(f"{prefix}{i}") for i in range(len(args))]
    for k, a in zip(slots, args):
        out.line(set_slot(k, out.value(a)))
    return [f"(i32.store offset={FRAME_SLOTS + 4 * i} (local.get $nf) {slot(k)})" for i, k in enumerate(slots)]


def copy_arguments(n: int, rest: str) -> list[str]:
    """What fills a new frame of an `instead of` chain: the n arguments, then the rules left."""
    lines = [f"(i32.store offset={FRAME_SLOTS + 4 * i} (local.get $nf) {slot(i)})" for i in range(n)]
    return lines + [f"(i32.store offset={FRAME_SLOTS + 4 * n} (local.get $nf) {rest})"]


def proceed(node, out: Routine) -> None:
    """`proceed`, in an `instead of` rule: the rest of the chain (backends/wasm/replacing.py), from this
    rule's frame (its arguments, the rules left)."""
    name, n = out.replacing
    if out.flat_now:
        _push(out, f"(i32.const {out.w.routine_number(f'C_{name}')})", copy_arguments(n, slot(n)), node.pos)
    else:
        out.line(f"(if (call $chain_{identifier(name)} (local.get $f)) (then (return (i32.const {CALL}))))")


def flat_call(node, out: Routine) -> None:
    fill = _values(out, node.args, "arg")
    _push(out, f"(i32.const {out.w.routine_number(f'P_{node.name}')})", fill, node.pos)


def _ability(out: Routine, ability: str, subject: str) -> str:
    """The routine of the subject's kind's ability, plus one (0: its kind has none)."""
    w = out.w
    numbers = {w.layout.kinds[a.kind]: w.routine_number(f"AB_{a.name}_{a.kind}") + 1
               for a, _ in w.program.ability_blocks if a.name == ability and not a.value}
    table = w.table(f"ability_{ability}", numbers, w.layout.kinds.values())
    return load_word(table, load_word(w.mem.KIND, subject))


def plain_perform(node, out: Routine) -> None:
    subject = out.simple(out.value(node.subject))
    routine = out.temp(_ability(out, node.ability, subject))
    calls: list[str] = []
    inner = out.nested(calls)
    _step(inner, node.pos)
    inner.line(f"(local.set $nf (call $push (i32.sub {routine} (i32.const 1))))")
    inner.line(f"(i32.store offset=8 (local.get $nf) {YOU})")
    inner.line(f"(i32.store offset=12 (local.get $nf) {subject})")
    inner.line(f"(if (call_indirect (type $routine) (local.get $nf) (i32.sub {routine} (i32.const 1))) "
               f"(then (return (i32.const {CALL}))))")
    inner.line("(call $pop)")
    out.line(f"(if {routine} (then {' '.join(calls)}))")


def plain_refuse(node, out: Routine) -> None:
    out.line(set_scalar(out.w.mem.REFUSAL, out.value(node.message)))
    out.line("(call $fail (i32.const 13))")


def flat_perform(node, out: Routine) -> None:
    subject = out.slot("subject")
    out.line(set_slot(subject, out.value(node.subject)))
    routine = _ability(out, node.ability, slot(subject))
    done = out.new_label()
    out.line(f"(if (i32.eqz {routine}) (then {out.goto(done)}))")
    fill = [f"(i32.store offset=12 (local.get $nf) {slot(subject)})"]
    _push(out, f"(i32.sub {routine} (i32.const 1))", fill, node.pos)
    out.line(out.goto(done))
    out.place(done)


def flat_emit(node, out: Routine) -> None:
    event, fill = ("event", node.event), _values(out, node.args, "value")
    if node.ordered_by is None:
        _run_handlers(out, event, fill, node.pos)
        return
    _run_ordered(node, out, event, fill)


def _run_ordered(node, out: Routine, event: tuple, fill: list[str]) -> None:
    """`emit ... ordered by P`: the rules whose conditions hold now, the highest precedence first; among
    several of one precedence, P chooses which runs next (`order_EVENT`), then again among the rest."""
    w, handlers = out.w, out.w.handlers(event)
    values = [out.slot(f"value{i}") for i in range(len(node.args))]
    chooser = out.slot(f"chooser{id(node)}")
    out.line(set_slot(chooser, out.value(node.ordered_by)))
    labels = {k: w.layout.string(rule_label(h)) for k, h in enumerate(handlers, 1)}
    labels_table = w.table(("rule_labels", event), labels)
    numbers = {k: w.routine_number(w.handler_name(event, k - 1)) for k in range(1, len(handlers) + 1)}
    routines = w.table(("handlers", event), numbers)
    groups: list[list[int]] = []
    for k, handler in enumerate(handlers, 1):
        if groups and handlers[groups[-1][0] - 1].precedence == handler.precedence:
            groups[-1].append(k)
        else:
            groups.append([k])
    lefts = [out.slot(f"left{id(node)}_{g}") for g in range(len(groups))]
    for left, group in zip(lefts, groups):  # which rules hold is settled before any runs
        out.line(set_slot(left, f"(call $room (i32.const {len(group)}))"))
        for k in group:
            handler = handlers[k - 1]
            holds = "(i32.const 1)"
            if handler.condition is not None:
                holds = out.inner({p: slot(v) for p, v in zip(handler.params, values)}).value(handler.condition)
            out.line(f"(if {holds} (then (call $append {slot(left)} (i32.const {k}))))")
    count, chosen, labels, routine = (out.slot(f"{x}{id(node)}") for x in ("count", "chosen", "labels", "routine"))
    for left in lefts:
        again, pick, done = out.new_label(), out.new_label(), out.new_label()
        out.line(out.goto(again))
        out.place(again)
        out.line(set_slot(count, f"(call $len {slot(left)})"))
        out.line(f"(if (i32.eqz {slot(count)}) (then {out.goto(done)}))")
        out.line(set_slot(chosen, "(i32.const 1)"))
        alone = f"(i32.or (i32.eq {slot(count)} (i32.const 1)) (i32.eqz {slot(chooser)}))"
        out.line(f"(if {alone} (then {out.goto(pick)}))")
        out.line(set_slot(labels, f"(call $labels {slot(left)} (i32.const {labels_table}))"))
        ask(out, f"order_{node.event}", slot(chooser), [labels], count, False, chosen)
        out.line(out.goto(pick))
        out.place(pick)
        out.line(set_slot(routine, load_word(routines, f"(call $item {slot(left)} {slot(chosen)})")))
        out.line(set_slot(left, f"(call $without {slot(left)} {slot(chosen)})"))
        _push(out, slot(routine), fill, node.pos, step=False)
        out.line(out.goto(again))
        out.place(done)


def _run_handlers(out: Routine, event: tuple, fill: list[str], pos) -> None:
    """The `when` rules of an event, each in a frame of its own, the routine going on after each."""
    w = out.w
    for index, handler in enumerate(w.handlers(event)):  # a step each, at the rule (as the Python backend)
        _push(out, f"(i32.const {w.routine_number(w.handler_name(event, index))})", fill, handler.pos)


def flat_if(node, out: Routine) -> None:
    end = out.new_label()
    for test, block in node.branches:
        following = out.new_label()
        _jump_unless(out, test, following)
        write_block(block, out, True)
        out.line(out.goto(end))
        out.place(following)
    if node.otherwise is not None:
        write_block(node.otherwise, out, True)
    out.line(out.goto(end))
    out.place(end)


def flat_while(node, out: Routine) -> None:
    top, end = out.new_label(), out.new_label()
    out.line(out.goto(top))
    out.place(top)
    _jump_unless(out, node.test, end)
    _step(out, node.pos)
    write_block(node.body, out, True)
    out.line(out.goto(top))
    out.place(end)


def flat_for_each(node, out: Routine) -> None:
    items, index = out.slot(f"items{id(node)}"), out.slot(f"index{id(node)}")
    out.line(set_slot(items, out.value(_selection(node))))
    out.line(set_slot(index, "(i32.const 0)"))
    top, end = out.new_label(), out.new_label()
    out.line(out.goto(top))
    out.place(top)
    out.line(set_slot(index, f"(i32.add {slot(index)} (i32.const 1))"))
    out.line(f"(if (i32.gt_s {slot(index)} {load_word(out.w.mem.ARENA, slot(items))}) (then {out.goto(end)}))")
    _step(out, node.pos)
    out.line(set_slot(out.slot(node.variable), load_word(out.w.mem.ARENA, f"(i32.add {slot(items)} {slot(index)})")))
    out.names[node.variable] = slot(out.slot(node.variable))
    write_block(node.body, out, True)
    out.line(out.goto(top))
    out.place(end)


def flat_repeat(node, out: Routine) -> None:
    top, end = out.new_label(), out.new_label()
    if node.times is not None:
        left = out.slot(f"times{id(node)}")
        out.line(set_slot(left, out.value(node.times)))
    out.line(out.goto(top))
    out.place(top)
    if node.times is not None:
        out.line(f"(if (i32.le_s {slot(left)} (i32.const 0)) (then {out.goto(end)}))")
        out.line(set_slot(left, f"(i32.sub {slot(left)} (i32.const 1))"))
    _step(out, node.pos)
    write_block(node.body, out, True)
    out.line(out.goto(top))
    out.place(end)


def flat_as(node, out: Routine) -> None:
    saved = out.slot(f"as{id(node)}")
    out.line(set_slot(saved, YOU))
    out.line(f"(i32.store offset=8 (local.get $f) {out.value(node.player)})")
    write_block(node.body, out, True)
    out.line(f"(i32.store offset=8 (local.get $f) {slot(saved)})")


def _mark(out: Routine, label: str) -> None:
    """`end turn` from here on goes on at `label` of this routine, the frames above it dropped."""
    mem = out.w.mem
    out.line(store_word(mem.MARK_DEPTH, scalar(mem.MARKS), scalar(mem.SP)))
    out.line(store_word(mem.MARK_PC, scalar(mem.MARKS), f"(i32.const @{label}@)"))
    out.line(set_scalar(mem.MARKS, f"(i32.add {scalar(mem.MARKS)} (i32.const 1))"))


def _unmark(out: Routine) -> None:
    out.line(set_scalar(out.w.mem.MARKS, f"(i32.sub {scalar(out.w.mem.MARKS)} (i32.const 1))"))


def flat_turn(node, out: Routine) -> None:
    mem = out.w.mem
    saved, saved_turn, end = out.slot(f"you{id(node)}"), out.slot(f"turn{id(node)}"), out.new_label()
    out.line(set_slot(saved, YOU))
    out.line(set_slot(saved_turn, scalar(mem.TURN_PLAYER)))
    out.line(f"(i32.store offset=8 (local.get $f) {out.value(node.player)})")
    out.line(set_scalar(mem.TURN_PLAYER, YOU))
    out.line(set_scalar(mem.TURNS, f"(i32.add {scalar(mem.TURNS)} (i32.const 1))"))
    _mark(out, end)
    _run_handlers(out, ("start", "turn"), [], node.pos)
    write_block(node.body, out, True)
    out.line(out.goto(end))
    out.place(end)
    _unmark(out)
    _run_handlers(out, ("end", "turn"), [], node.pos)
    out.line(f"(i32.store offset=8 (local.get $f) {slot(saved)})")
    out.line(set_scalar(mem.TURN_PLAYER, slot(saved_turn)))


def flat_phase(node, out: Routine) -> None:
    """The phase's `start of` rules, its body, then its `end of` rules, which also run when the turn
    ends inside it, before the turn goes on ending. PHASE names the phase meanwhile (`anytime ... during`)."""
    phase = out.w.mem.PHASE
    out.line(set_scalar(phase, f"(i32.const {out.w.layout.string(node.name)})"))
    _run_handlers(out, ("start", node.name), [], node.pos)
    ends = bool(out.w.handlers(("end", node.name)))
    ending, done = out.new_label(), out.new_label()
    if ends:
        _mark(out, ending)
    write_block(node.body, out, True)
    if ends:
        _unmark(out)
        _run_handlers(out, ("end", node.name), [], node.pos)
    out.line(set_scalar(phase, "(i32.const 0)"))
    if not ends:
        return
    out.line(out.goto(done))
    out.place(ending)
    _unmark(out)
    _run_handlers(out, ("end", node.name), [], node.pos)
    out.line(set_scalar(phase, "(i32.const 0)"))
    out.line("(return (call $end_turn))")
    out.place(done)


WINDOWS = {False: "WINDOW", True: "STEP_WINDOW"}  # the routines of windows (backends/wasm/windows.py)


def anytime_actions(program) -> list:
    return [x for x in program.declarations if isinstance(x, d.AnytimeDecl)]


def flat_window(node, out: Routine) -> None:
    """`window`: the window routine, with this window's position in its first slot."""
    if not anytime_actions(out.w.program):  # nothing to offer
        return
    fill = [f"(i32.store offset={FRAME_SLOTS} (local.get $nf) (i32.const {out.w.where(node.pos)}))"]
    _push(out, f"(i32.const {out.w.routine_number(WINDOWS[node.steps])})", fill, node.pos, step=False)


def flat_choose(node, out: Routine) -> None:
    """The options as columns (one list per name bound), then the decision: drawn inside by the game's
    bot, or asked from outside (the routine stops, its options noted as pending)."""
    if node.group or len(node.bindings) > MAX_COLUMNS:
        raise NotOnWasm("`choose ... by any of`, or with more bindings than 8", node.pos)
    mem, names = out.w.mem, list(node.binds())
    columns = [out.slot(f"column{id(node)}_{n}") for n in names]
    count, chosen = out.slot(f"count{id(node)}"), out.slot(f"chosen{id(node)}")
    for column in columns:
        out.line(set_slot(column, f"(call $new_list (i32.const {OPTIONS}))"))
        out.line(store_word(mem.ARENA, slot(column), "(i32.const 0)"))
    _option_loops(node, out, out, columns, names, 0)
    out.line(set_slot(count, load_word(mem.ARENA, slot(columns[0]))))
    out.line(f"(if (i32.gt_s {slot(count)} (i32.const {OPTIONS})) (then (call $fail (i32.const 3))))")
    end = f"(i32.add (i32.add {slot(columns[-1])} {slot(count)}) (i32.const {1 - out.w.layout.LIST0}))"
    out.line(set_scalar(mem.AP, end))
    asking, after = out.new_label(), out.new_label()
    out.line(f"(if (i32.gt_s {slot(count)} (i32.const 0)) (then {out.goto(asking)}))")
    for name in names:
        out.line(set_slot(out.slot(name), "(i32.const 0)"))
    if node.otherwise is not None:
        write_block(node.otherwise, out, True)
    elif not node.optional:
        out.line(f"(return (i32.const {DONE}))")
    out.line(out.goto(after))
    out.place(asking)
    player = out.value(node.by) if node.by is not None else YOU
    ask(out, node.name, player, columns, count, node.optional, chosen)
    binds = " ".join(set_slot(out.slot(n), load_word(mem.ARENA, f"(i32.add {slot(c)} {slot(chosen)})"))
                     for n, c in zip(names, columns))
    nones = " ".join(set_slot(out.slot(n), "(i32.const 0)") for n in names)
    out.line(f"(if (i32.gt_s {slot(chosen)} {slot(count)}) (then {nones}) (else {binds}))")
    out.line(out.goto(after))
    out.place(after)
    for name in names:
        out.names[name] = slot(out.slot(name))


def ask(out: Routine, name: str, player: str, columns: list[int], count: int, optional: bool, chosen: int) -> None:
    """Decision `name` among the `count` options in the lists of slots `columns` (and `pass` last
    where `optional`): the option taken (from 1) into slot `chosen`, drawn inside by the game's bot,
    or asked from outside (the routine stops, the options noted as pending, and resumes here)."""
    mem = out.w.mem
    answered, got = out.new_label(), out.new_label()
    total = f"(i32.add {slot(count)} (i32.const {1 if optional else 0}))"
    for i, c in enumerate(columns):  # what the decision offers, for the outside and for the bot's trace
        out.line(set_scalar(mem.PENDING_COLUMNS + 4 * i, slot(c)))
    out.line(set_scalar(mem.PENDING_NCOLUMNS, f"(i32.const {len(columns)})"))
    out.line(set_scalar(mem.PENDING_OPTIONAL, f"(i32.const {int(optional)})"))
    out.line(set_slot(chosen, f"(call $ask (i32.const {out.w.layout.name(name)}) {player} {total})"))
    out.line(f"(if (i32.eqz {slot(chosen)}) (then {out.resume_here(answered)} (return (i32.const {SUSPEND}))))")
    out.line(out.goto(got))
    out.place(answered)
    out.line(set_slot(chosen, scalar(mem.ANSWER)))
    out.line(out.goto(got))
    out.place(got)
    out.w.columns.setdefault(name, len(columns))


def _option_loops(node, out: Routine, code: WCode, columns: list, names: list, level: int) -> None:
    """The nested loops over each binding's list, adding the combinations the `where` keeps."""
    mem = out.w.mem
    if level == len(node.bindings):
        adding: list[str] = []
        add = code.inner(lines=adding)
        for column, name in zip(columns, names):
            length = load_word(mem.ARENA, slot(column))
            add.line(store_word(mem.ARENA, slot(column), f"(i32.add {length} (i32.const 1))"))
            add.line(store_word(mem.ARENA, f"(i32.add {slot(column)} {load_word(mem.ARENA, slot(column))})",
                                code.names[name]))
        if node.where is not None:
            code.line(f"(if {code.value(node.where)} (then {' '.join(adding)}))")
        else:
            code.lines.extend(adding)
        return
    name, source = node.bindings[level]
    items = code.simple(code.value(source))
    i, item = out.fn.local("i"), out.fn.local("b")
    body: list[str] = []
    _option_loops(node, out, code.inner({name: f"(local.get {item})"}, body), columns, names, level + 1)
    label = i[1:]
    code.line(f"(local.set {i} (i32.const 1)) (block $cb{label} (loop $cl{label} "
              f"(br_if $cb{label} (i32.gt_s (local.get {i}) {load_word(mem.ARENA, items)})) "
              f"(local.set {item} {load_word(mem.ARENA, f'(i32.add {items} (local.get {i}))')}) "
              f"{' '.join(body)} (local.set {i} (i32.add (local.get {i}) (i32.const 1))) (br $cl{label})))")


PLAIN = {"Let": plain_let, "Set": plain_set, "Move": plain_move, "CallProcedure": plain_call,
         "Signalling": plain_signal, "Rank": plain_rank, "If": plain_if, "ForEach": plain_for_each,
         "AtOnce": plain_at_once, "Pass": plain_pass, "Emit": plain_emit, "Repeat": plain_repeat,
         "While": plain_while, "As": plain_as, "Because": because, "Flip": plain_flip, "Reveal": plain_reveal,
         "Shuffle": plain_shuffle, "Proceed": proceed, "Perform": plain_perform, "Refuse": plain_refuse}
FLAT = {"CallProcedure": flat_call, "Perform": flat_perform, "Emit": flat_emit, "If": flat_if, "While": flat_while,
        "ForEach": flat_for_each, "Repeat": flat_repeat, "As": flat_as, "Turn": flat_turn, "Phase": flat_phase,
        "Choose": flat_choose, "Because": because, "Move": flat_move, "Proceed": proceed, "Window": flat_window}
