"""Why can't I? An option a player names that the pending decision does not offer, explained in
the rules' own terms, with the file and line of each condition that refused it.

    game.why_not("stone a3")         # the pending decision, asked by its player
    game.why_not("c1 c5", by="red")

The label is read as the decision's options are written (`kind square`, one value per name the
`choose` binds; any case). Then, in order: a word that names nothing in the game (with "did you
mean"); a value that is not among those the `choose` picks it from (`a3 is not among
empty_locations()`); and else the `where` condition, explained down to the innermost conditions
that are false (see `interpreter.language.explaining`). A component the player cannot tell apart
is never explained: its conditions would tell what it is.

What is shown is what the player could work out at the table: the rules' text, the values of
the names in it and of the sides of each condition, components they cannot see written as their
backs. A number counted over hidden components (a condition on another player's hand) is shown
as it is: no rule of the seed games refuses a player's option on what that player cannot see.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from interpreter.diagnostics.suggestions import did_you_mean
from interpreter.engine.decisions import Decision, NumberRange
from interpreter.engine.state import Component
from interpreter.language.explaining import ChoiceRule, Explainer, GuardedOptions, Reason, source

SHOWN_OPTIONS = 8  # options or values named in a sentence
_TOKEN = re.compile(r"\[[^\]]*\]|\S+")  # a label's values: words, or a list `[a, b]`
_NUMBER = re.compile(r"-?[0-9]{1,18}")


@dataclass
class WhyNot:
    """The answer: `reasons[0]` says what happened to the label, the others the innermost
    conditions that refused it (each a sentence with the file and line it is about)."""

    asked: str
    player: str | None
    decision: str | None  # the name of the decision asked about (None: no decision pending)
    offered: bool
    reasons: list[Reason] = field(default_factory=list)

    def lines(self) -> list[str]:
        """The answer in plain sentences: the first says what happened, the others why."""
        out = []
        for number, reason in enumerate(self.reasons):
            where = f" ({reason.file}:{reason.line})" if reason.file and reason.line else ""
            out.append(("" if number == 0 else "  - ") + reason.text + where)
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def to_json(self) -> dict:
        return {"asked": self.asked, "player": self.player, "decision": self.decision, "offered": self.offered,
                "reasons": [{"text": r.text, "file": r.file, "line": r.line} for r in self.reasons]}


def why_not(game, asked: str, by: str | None = None) -> WhyNot:
    """Why the option labelled `asked` is not offered to `by` (default: the player of the pending decision)."""
    asked = " ".join(str(asked).split())
    decision = _decision_of(game, by)
    player = by if by is not None else (decision.player if decision else None)
    if decision is None:
        return WhyNot(asked, player, None, False, [Reason(_no_decision(game, by))])
    answer = WhyNot(asked, player, decision.name, False)
    try:
        answer.reasons = _explain(game, decision, asked, player, answer)
    except Exception as error:  # a value the rules cannot work out here: an answer all the same, never a crash
        answer.reasons = [Reason(f"`{asked}` is not an option of `{decision.name}`, and the rules cannot say why "
                                 f"here ({type(error).__name__}: {error})")]
    answer.reasons = [_relative(game, r) for r in answer.reasons]
    return answer


def _decision_of(game, by: str | None) -> Decision | None:
    if by is None:
        return game.decision
    return next((d for d in game.decisions if d.may_answer(by)), None)


def _no_decision(game, by: str | None) -> str:
    if game.decision is None:
        return "the game is over: nothing is to be decided" if game.finished else "no decision is pending"
    deciders = ", ".join(sorted({d.player for d in game.decisions}))
    return f"{by} has no decision to make now: {deciders} decides `{game.decision.name}`"


def _relative(game, reason: Reason) -> Reason:
    """The reason with its file named as a designer knows it: from the ruleset's folder (`red.rules`),
    or for the content from the folder that holds both (`cards/root/deck.yaml`)."""
    if not reason.file:
        return reason
    path, folder = Path(reason.file).resolve(), Path(game.ruleset.directory).resolve()
    for base in (folder, folder.parent.parent):
        if path.is_relative_to(base):
            return Reason(reason.text, str(path.relative_to(base)), reason.line)
    return reason


def _listed(texts: list[str]) -> str:
    shown = ", ".join(texts[:SHOWN_OPTIONS])
    return shown + (f", ... ({len(texts)} in all)" if len(texts) > SHOWN_OPTIONS else "")


def _explain(game, decision: Decision, asked: str, player, answer: WhyNot) -> list[Reason]:
    labels = decision.labels(player)
    lowered = [label.lower() for label in labels]
    name = decision.name
    if asked.lower() in lowered:
        answer.offered = True
        return [Reason(f"`{labels[lowered.index(asked.lower())]}` is an option of `{name}`: choose it")]
    origin = decision.origin
    if asked.lower() == "pass":
        rule = origin[0] if origin else None
        where = (rule.node.pos.file, rule.node.pos.line) if isinstance(rule, ChoiceRule) else ()
        return [Reason(f"`{name}` cannot be passed: its rule has no `or pass`", *where)]
    if isinstance(decision.options, NumberRange):
        low, high = decision.number_range
        return [Reason(f"`{asked}` is not an option of `{name}`: it takes a whole number from {low} to {high}"
                       + (", or pass" if decision.options.passing else ""))]
    if origin is not None and isinstance(origin[0], GuardedOptions):
        return _explain_guarded(game, origin[0], dict(origin[1]), decision, asked, player, labels)
    if origin is None or not isinstance(origin[0], ChoiceRule):
        hint = did_you_mean(asked, labels)
        return [Reason(f"`{asked}` is not an option of `{name}`; its options are {_listed(labels)}"
                       + (f" ({hint})" if hint else ""))]
    rule, env = origin
    return _explain_choice(game, rule, dict(env), decision, asked, player, labels)


def _explain_choice(game, rule: ChoiceRule, env: dict, decision: Decision, asked: str, player,
                    labels: list[str]) -> list[Reason]:
    explainer = Explainer(game.runtime, player)
    name, node = decision.name, rule.node
    words = _TOKEN.findall(asked)
    bound = [variable for variable, _ in node.bindings]
    universe = _universe(game, explainer)
    if len(words) != len(bound):
        unknown = next((w for w in words if w.lower() not in universe and not _NUMBER.fullmatch(w)
                        and w.lower() not in {label.lower() for label in labels}), None)
        if unknown is not None:
            words_of_options = {w for label in labels for w in label.split()}
            hint = did_you_mean(unknown, words_of_options) or did_you_mean(unknown, universe)
            return [Reason(f"`{asked}` is not an option of `{name}`: `{unknown}` names nothing in this game"
                           + (f" ({hint})" if hint else ""))]
        example = f", as in `{labels[0]}`" if labels else ""
        count = "one value" if len(bound) == 1 else f"{len(bound)} values"
        return [Reason(f"`{asked}` is not an option of `{name}`: an option names {count} "
                       f"({' and '.join(f'`{v}`' for v in bound)}){example}", node.pos.file, node.pos.line)]
    for word, (variable, source_expr, scope) in zip(words, rule.domain_scopes()):
        domain = list(explainer.value(source_expr, scope, env))
        seen = {explainer.shown(v).lower(): v for v in domain}
        if word.lower() in seen:
            env[variable] = seen[word.lower()]
            continue
        values = _written_values(explainer, env, scope)
        head = f"`{asked}` is not an option of `{name}`: "
        where = (source_expr.pos.file, source_expr.pos.line)
        texts = any(isinstance(v, str) and v.lower() not in universe for v in domain)  # `["march", "build"]`
        if word.lower() not in universe and not _NUMBER.fullmatch(word) and not texts:
            hint = did_you_mean(word, seen) or did_you_mean(word, universe)  # the values it is chosen from first
            return [Reason(head + f"`{word}` names nothing in this game" + (f" ({hint})" if hint else ""))]
        found = int(word) if _NUMBER.fullmatch(word) else universe.get(word.lower(), word)
        if isinstance(found, Component) and not explainer.known(found):  # "not among" would tell where it is not
            return [Reason(head + f"`{word}` is not a component you can see")]
        among = [explainer.shown(v) for v in domain]
        listing = f" (they are {_listed(among)})" if among else " (there is none)"
        return [Reason(head + f"{explainer.shown(found)} is not among `{source(source_expr, values)}`, the values of "
                       f"`{variable}`{listing}", *where)]
    if not all(explainer.known(env[variable]) for variable in bound):
        return [Reason(f"`{asked}` names a component you cannot see")]
    if node.where is None or explainer.value(node.where, rule.where_scope, env):
        return [Reason(f"`{asked}` is an option of `{name}` as the rules see it; its options are {_listed(labels)}")]
    values = _written_values(explainer, env, rule.where_scope)
    head = Reason(f"`{asked}` is not an option of `{name}`: `{source(node.where, values)}` is false",
                  node.where.pos.file, node.where.pos.line)
    inner = explainer.why(node.where, rule.where_scope, env)
    alone = f"`{source(node.where, values)}` is false"
    if len(inner) == 1 and inner[0].text.startswith(alone):  # the condition is its own innermost one
        return [Reason(head.text + inner[0].text[len(alone):], head.file, head.line)]
    return [head] + inner


def _explain_guarded(game, guards: GuardedOptions, env: dict, decision: Decision, asked: str, player,
                     labels: list[str]) -> list[Reason]:
    """An option offered while its own condition holds (`anytime NAME if CONDITION`)."""
    head = f"`{asked}` is not an option of `{decision.name}`"
    named = {label.lower(): label for label in guards.conditions}
    if asked.lower() not in named:
        hint = did_you_mean(asked, list(guards.conditions) + labels)
        return [Reason(f"{head}; its options are {_listed(labels)}" + (f" ({hint})" if hint else ""))]
    condition = guards.conditions[named[asked.lower()]]
    explainer = Explainer(game.runtime, player)
    if condition is None or explainer.value(condition, guards.scope, env):
        return [Reason(f"{head} as the rules see it; its options are {_listed(labels)}")]
    values = _written_values(explainer, env, guards.scope)
    reasons = explainer.why(condition, guards.scope, env)
    return [Reason(f"{head}: its condition `{source(condition, values)}` is false", condition.pos.file,
                   condition.pos.line)] + reasons


def _written_values(explainer: Explainer, env: dict, scope) -> dict[str, str]:
    values = {n: explainer.written(v) for n, v in env.items() if n in scope.locals or n == "you"}
    return {n: text for n, text in values.items() if text is not None}


def _universe(game, explainer: Explainer) -> dict:
    """Every value a word may name, by its lower-case text: locations, kinds, players, traits,
    components (by id), `none` and truth values (a number written out names itself)."""
    symbols = game.ruleset.program.symbols
    named: dict = {}
    for text in list(symbols.kinds) + list(symbols.traits) + list(symbols.players) + list(game.ruleset.board.locations):
        named.setdefault(text.lower(), text)
    for component in game.state.components.values():
        named.setdefault(component.id.lower(), component)
    named.update({"none": None, "true": True, "false": False})
    return named
