"""`window` on the WebAssembly backend: each player in turn, `you` first, takes `anytime` actions until
they pass. One routine (`R_WINDOW`, and `R_STEP_WINDOW` for the windows of a turn's steps, which offer
only the actions with a span, to `you` alone) serves every window; its frame's first slot holds the
rules position of the window it runs for. Each action's body is a routine `R_AT_k`.
"""
from __future__ import annotations

from interpreter.backends.wasm.expressions import Function, scalar, set_slot, slot
from interpreter.backends.wasm.statements import CALL, DONE, WINDOWS, YOU, Routine, anytime_actions, ask
from interpreter.language.statements import ANYTIME


def write_windows(w) -> None:
    """The action routines and the two window routines (nothing where the rules have no action)."""
    actions = anytime_actions(w.program)
    if not actions:
        return
    for k, action in enumerate(actions):
        w.routine_number(f"AT_{k}")
    for k, action in enumerate(actions):
        w.write_routine(f"AT_{k}", action.body, True, [])
    for steps in (False, True):
        _window(w, [(k, a) for k, a in enumerate(actions) if a.span or not steps], steps)


def _window(w, actions: list, steps: bool) -> None:
    fn, mem, layout = Function(), w.mem, w.layout
    out = Routine(w, fn, {"you": YOU})
    where, players, index, player, offered, count, chosen, labels = (
        out.slot(x) for x in ("@where", "@players", "@index", "@player", "@offered", "@count", "@chosen", "@labels"))
    out.line(set_slot(players, f"(call $rotation {YOU} (i32.const {int(steps)}))"))
    out.line(set_slot(index, "(i32.const 0)"))
    next_player, again, done = out.new_label(), out.new_label(), out.new_label()
    out.line(out.goto(next_player))
    out.place(next_player)
    out.line(set_slot(index, f"(i32.add {slot(index)} (i32.const 1))"))
    out.line(f"(if (i32.gt_s {slot(index)} (call $len {slot(players)})) (then {out.goto(done)}))")
    out.line(set_slot(player, f"(call $item {slot(players)} {slot(index)})"))
    out.line(out.goto(again))
    out.place(again)
    out.line(f"(call $step {slot(where)})")
    out.line(set_slot(offered, f"(call $room (i32.const {len(actions)}))"))
    code = out.inner({"you": slot(player)})
    for k, action in actions:
        holds = code.value(action.condition) if action.condition is not None else "(i32.const 1)"
        if action.span is not None:
            now = "(i32.const 1)" if action.span == "turn" else \
                f"(i32.eq {scalar(mem.PHASE)} (i32.const {layout.string(action.span)}))"
            holds = f"(i32.and (i32.and (i32.eq {slot(player)} {scalar(mem.TURN_PLAYER)}) {now}) {holds})"
        code.line(f"(if {holds} (then (call $append {slot(offered)} (i32.const {k + 1}))))")
    out.line(set_slot(count, f"(call $len {slot(offered)})"))
    out.line(f"(if (i32.eqz {slot(count)}) (then {out.goto(next_player)}))")
    names = w.table("anytime_names", {k + 1: layout.string(a.name) for k, a in enumerate(anytime_actions(w.program))})
    out.line(set_slot(labels, f"(call $labels {slot(offered)} (i32.const {names}))"))
    ask(out, ANYTIME, slot(player), [labels], count, True, chosen)
    out.line(f"(if (i32.gt_s {slot(chosen)} {slot(count)}) (then {out.goto(next_player)}))")
    first = w.routine_number("AT_0")
    resume = out.new_label()
    action = f"(i32.add (i32.const {first - 1}) (call $item {slot(offered)} {slot(chosen)}))"
    out.line(f"(local.set $nf (call $push {action}))")
    out.line(f"(i32.store offset=8 (local.get $nf) {slot(player)})")
    out.line(f"{out.resume_here(resume)} (return (i32.const {CALL}))")
    out.place(resume)
    out.line(out.goto(again))
    out.place(done)
    out.line(f"(return (i32.const {DONE}))")
    w.add_routine(WINDOWS[steps], fn, out)
