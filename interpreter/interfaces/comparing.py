"""`ludolex compare A B`: the games of each bot set, played in pairs (at once, or in batches until a
sequential test decides), then the comparison, what changed and whether it came into play, and
whether the verdicts of the bot sets agree.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rich.console import Console, Group
from rich.text import Text

from interpreter.reports import paired
from interpreter.reports.change_usage import change_usage_sheet, usage_of_changes
from interpreter.reports.sequential import SequentialTest, State
from interpreter.reports.summary import Sheet, rich_table
from interpreter.simulation.paired_runs import Side, play_side, side_records, win_differences
from interpreter.simulation.results_db import Results


@dataclass(frozen=True)
class Sequential:
    """`--until-decided`: the effect that matters (a share of games), the error rates, the batch of pairs."""

    effect: float = 0.03
    alpha: float = 0.05
    beta: float = 0.05
    batch: int = 100


@dataclass
class BotSetResult:
    bots: str
    comparison: paired.PairedComparison
    sequential: State | None = None
    pairs: list = field(default_factory=list)

    def verdict(self) -> tuple:
        """What the verdict says, for comparing bot sets: the sequential decision (and the measure and
        direction it found), else the significant measures and which way each moved."""
        if self.sequential is not None:
            found = self.sequential.found
            return (self.sequential.outcome,) + ((found.measure, found.direction) if found else ())
        return tuple(sorted((m.measure, m.b > m.a) for m in self.comparison.measures if m.significant))

    def verdict_text(self) -> str:
        if self.sequential is not None:
            return self.sequential.decision or (f"undecided: every seed played, {self.sequential.pairs} pairs ended on "
                                                "both sides (the others stopped on an error or a limit)")
        return self.comparison.verdict


def compare_sides(results: Results, sides: tuple[Side, Side], seeds: range, jobs: int, sequential: Sequential | None,
                  console: Console, backend: str = "local", address: str | None = None) -> BotSetResult:
    """Play the pairs of one bot set (all of `seeds`, or batches of them until the sequential test
    decides) and compare them."""
    a, b = sides
    test, records_a, records_b = None, [], []
    if sequential is None:
        for side, records in ((a, records_a), (b, records_b)):
            played = play_side(results, side, seeds, jobs, backend, address)
            console.print(f"{side.label}: version {side.version}, {played} game(s) played")
            records += side_records(results, side, seeds)
    else:
        players = list(dict.fromkeys(p for side in sides for p in side.table.players or side.ruleset.program.table))
        test = SequentialTest(players, sequential.effect, sequential.alpha, sequential.beta, max_pairs=len(seeds))
        for start in range(seeds.start, seeds.stop, sequential.batch):
            batch = range(start, min(start + sequential.batch, seeds.stop))
            new = []
            for side in sides:
                play_side(results, side, batch, jobs, backend, address)
                new.append(side_records(results, side, batch))
            records_a += new[0]
            records_b += new[1]
            for pair in paired.ended_pairs(*new):
                test.add(win_differences(*pair, players))
            state = test.state()
            console.print(progress_line(state, batch.stop - seeds.start))
            if state.outcome is not None:
                break
    comparison = paired.compare_paired(records_a, records_b, a.label, b.label, same_version=a.version == b.version and
                                       a.table.key() == b.table.key())
    return BotSetResult(",".join(a.table.bots), comparison, test.state() if test else None,
                        paired.ended_pairs(records_a, records_b))


def progress_line(state: State, seeds: int) -> str:
    """After a batch: the pairs, each measure's running estimate, and how far the nearest bounds are."""
    estimates = ", ".join(f"{m.measure} {100 * m.mean:+.1f} ({100 * m.low:+.1f} to {100 * m.high:+.1f})"
                          for m in state.measures)
    running = [t for t in state.tests if t.stopped is None]
    nearest = max(state.tests, key=lambda t: t.llr)
    bounds = (f"H1 when a test's LLR reaches {nearest.upper:.2f}, H0 when all reach {nearest.lower:.2f}; "
              f"highest: {nearest.name} at {nearest.llr:.2f}; {len(state.tests) - len(running)} of "
              f"{len(state.tests)} tests stopped at H0")
    return f"{state.pairs} pairs ({seeds} seeds): win rate B - A in points: {estimates}; {bounds}"


def sequential_sheet(state: State) -> Sheet:
    sheet = Sheet(f"Sequential test: an effect of {100 * state.effect:g} points on a win rate, either way",
                  ["Test", "LLR", "H0 at", "H1 at", "Stopped"], text_columns=1)
    for t in state.tests:
        stopped = f"{t.stopped} after {t.stopped_at} pairs" if t.stopped else "running"
        sheet.rows.append([t.name, f"{t.llr:.2f}", f"{t.lower:.2f}", f"{t.upper:.2f}", stopped])
    sheet.note = (f"{state.pairs} pairs, at most {state.max_pairs}. One generalized SPRT per player and direction, "
                  "over the paired differences won in B - won in A; the false-alarm rate split over the tests "
                  "(see docs/reports.md)")
    return sheet


def render_bot_set(result: BotSetResult, changes, label_a: str, label_b: str) -> Group:
    parts = [Text(f"Bots: {result.bots} (each seed played by A and by B with the same seating and bots)", style="bold")]
    parts.append(paired.render_paired(result.comparison))
    if result.sequential is not None:
        parts += [rich_table(sequential_sheet(result.sequential)),
                  Text(f"Sequential verdict: {result.verdict_text()}", style="bold")]
    if changes:
        usages = usage_of_changes(changes, result.pairs)
        parts.append(rich_table(change_usage_sheet(usages, result.pairs, label_a, label_b)))
    elif not result.comparison.same_version:
        parts.append(Text(f"{label_a} and {label_b} have the same kinds, board and rules: they differ only where the "
                          "games do not read (comments, layout) or in their options."))
    return Group(*parts)


def agreement(results: list[BotSetResult]) -> str:
    """Whether the bot sets' verdicts agree, in one sentence; empty with one bot set."""
    if len(results) < 2:
        return ""
    verdicts = "; ".join(f"with {r.bots}: {r.verdict_text()}" for r in results)
    if len({r.verdict() for r in results}) == 1:
        return f"The verdicts of the {len(results)} bot sets agree ({verdicts})."
    return (f"The verdicts differ with the bots ({verdicts}): the answer depends on how the game is played; "
            "trust the stronger bots, or play more pairs.")

