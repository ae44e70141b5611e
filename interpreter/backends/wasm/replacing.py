"""`instead of` rules on the WebAssembly backend: a procedure that such rules may replace is a chain.

Its entry routine (`R_P_name`) finds the rules whose conditions hold, in order, as a list of their
numbers (from 1) in the frame's slot after the arguments. The chain then runs the first (or, in a
procedure that asks for decisions and with several rules, the one the acting player chooses) with
the rest of the list in that same slot, where its `proceed` finds it; with no rule left, the
procedure's own body (`R_PB_name`). Every frame of the chain holds the arguments in its first slots.
"""
from __future__ import annotations

from interpreter.backends.wasm.expressions import Function, identifier, set_slot, slot
from interpreter.backends.wasm.layout import FRAME_SLOTS
from interpreter.backends.wasm.statements import CALL, DONE, YOU, Routine, _push, _step, ask, copy_arguments
from interpreter.language.declarations import rule_label

PROCEED_SLOT = "@proceed"  # the slot after the arguments: the rules left, for `proceed`


def write_replaced(w, decl, rules: list, flat: bool) -> None:
    """The routines of procedure `decl` and of the `instead of` rules of this table that replace it."""
    name, n = identifier(decl.name), len(decl.params)
    names = [f"I_{name}_{k}" for k in range(len(rules))]
    for routine in [f"P_{name}", f"PB_{name}", f"C_{name}", *names]:
        w.routine_number(routine)
    w.write_routine(f"PB_{name}", decl.body, flat, decl.params)
    for routine, rule in zip(names, rules):
        w.write_routine(routine, rule.body, flat, rule.params, replacing=(decl.name, n))
    _entry(w, decl, rules, flat)
    if flat:
        _chain(w, decl, rules)
    else:
        w.functions.append(_plain_chain(w, decl))


def _entry(w, decl, rules: list, flat: bool) -> None:
    """`R_P_name`: the rules whose conditions hold, then the chain."""
    fn, n = Function(), len(decl.params)
    out = Routine(w, fn, {"you": YOU})
    for i, param in enumerate(decl.params):
        out.slot(param)
        out.names[param] = slot(i)
    left = out.slot(PROCEED_SLOT)
    _step(out, decl.pos)
    out.line(set_slot(left, f"(call $room (i32.const {len(rules)}))"))
    for k, rule in enumerate(rules, 1):
        holds = "(i32.const 1)"
        if rule.condition is not None:
            holds = out.inner({p: slot(i) for i, p in enumerate(rule.params)}).value(rule.condition)
        out.line(f"(if {holds} (then (call $append {slot(left)} (i32.const {k}))))")
    if flat:
        _push(out, f"(i32.const {w.routine_number(f'C_{decl.name}')})", copy_arguments(n, slot(left)), decl.pos,
              step=False)
        out.line(f"(return (i32.const {DONE}))")
    else:
        out.line(f"(if (call $chain_{identifier(decl.name)} (local.get $f)) (then (return (i32.const {CALL}))))")
    w.add_routine(f"P_{decl.name}", fn, out)


def _chain(w, decl, rules: list) -> None:
    """`R_C_name`, for a procedure that asks for decisions: the first rule left, or the one the acting
    player chooses among several (`replace_NAME`), runs with the others left; none left, the body."""
    fn, n = Function(), len(decl.params)
    out = Routine(w, fn, {"you": YOU})
    for i in range(n):
        out.slot(f"@argument{i}")
    left, chosen, count, labels = (out.slot(x) for x in (PROCEED_SLOT, "@chosen", "@count", "@labels"))
    first = w.routine_number(f"I_{decl.name}_0")
    base, pick = out.new_label(), out.new_label()
    out.line(f"(if (i32.eqz (call $len {slot(left)})) (then {out.goto(base)}))")
    out.line(set_slot(chosen, "(i32.const 1)"))
    out.line(f"(if (i32.or (i32.eq (call $len {slot(left)}) (i32.const 1)) (i32.eqz {YOU})) (then {out.goto(pick)}))")
    names = w.table(("rule_labels", decl.name), {k: w.layout.string(rule_label(r)) for k, r in enumerate(rules, 1)})
    out.line(set_slot(count, f"(call $len {slot(left)})"))
    out.line(set_slot(labels, f"(call $labels {slot(left)} (i32.const {names}))"))
    ask(out, f"replace_{decl.name}", YOU, [labels], count, False, chosen)
    out.line(out.goto(pick))
    out.place(pick)
    rule = f"(i32.add (i32.const {first - 1}) (call $item {slot(left)} {slot(chosen)}))"
    _push(out, rule, copy_arguments(n, f"(call $without {slot(left)} {slot(chosen)})"), decl.pos, step=False)
    out.line(f"(return (i32.const {DONE}))")
    out.place(base)
    _push(out, f"(i32.const {w.routine_number(f'PB_{decl.name}')})", copy_arguments(n, "(i32.const 0)"), decl.pos,
          step=False)
    w.add_routine(f"C_{decl.name}", fn, out)


def _plain_chain(w, decl) -> str:
    """`$chain_name(f)`, for a procedure that asks for no decision: the first rule left in frame f runs
    (with the others left), or with none left, the body; in a frame of its own, to its end."""
    n, name = len(decl.params), identifier(decl.name)
    first, base = w.routine_number(f"I_{decl.name}_0"), w.routine_number(f"PB_{decl.name}")
    read = f"(i32.load offset={FRAME_SLOTS + 4 * n} (local.get $f))"
    copies = " ".join(f"(i32.store offset={FRAME_SLOTS + 4 * i} (local.get $nf) "
                      f"(i32.load offset={FRAME_SLOTS + 4 * i} (local.get $f)))" for i in range(n))
    return (f"(func $chain_{name} (param $f i32) (result i32) (local $nf i32) (local $routine i32) "
            f"(local.set $routine (select (i32.add (i32.const {first - 1}) (call $item {read} (i32.const 1))) "
            f"(i32.const {base}) (call $len {read}))) "
            f"(local.set $nf (call $push (local.get $routine))) "
            f"(i32.store offset=8 (local.get $nf) (i32.load offset=8 (local.get $f))) {copies} "
            f"(i32.store offset={FRAME_SLOTS + 4 * n} (local.get $nf) (call $without {read} (i32.const 1))) "
            f"(if (call_indirect (type $routine) (local.get $nf) (local.get $routine)) (then (return (i32.const 1)))) "
            f"(call $pop) (i32.const 0))")
