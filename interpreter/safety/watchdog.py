"""A wall-clock backstop for rules that never stop inside one expression.

The step budget (runtime.py) counts loop turns and calls, which is deterministic and cheap; but
one expression can also loop for ever (nested quantifiers over long lists, a function calling
itself twice). While rules run, a timer ticks a few times per `seconds_per_decision`; a tick
that finds the same runtime still running with no new decision since the tick before counts
towards the limit, and the last one raises LimitExceeded in the rules. Arming costs nothing per
decision: the timer is set at the start of a game and disarms itself when no rules run. It needs signals, so it
watches only in the main thread (elsewhere the step budget alone applies).
"""
from __future__ import annotations

import atexit
import signal
import threading

from interpreter.safety.limits import LIMITS, LimitExceeded

TICKS = 4  # ticks per `seconds_per_decision`


class Watchdog:
    def __init__(self):
        self.runtime = None
        self.armed = False
        self.seen: tuple | None = None
        self.stalled = 0

    def watch(self, runtime) -> None:
        """Rules of `runtime` are about to run (set `runtime.running` around them)."""
        self.runtime = runtime
        if not self.armed:
            self.arm()

    def arm(self) -> None:
        """Set the ticking timer (again: at the start of every game, in case other code took the signal)."""
        if hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGALRM, self._tick)
            interval = LIMITS.seconds_per_decision / TICKS
            signal.setitimer(signal.ITIMER_REAL, interval, interval)
            self.armed = True

    def disarm(self) -> None:
        if self.armed and threading.current_thread() is threading.main_thread():
            signal.setitimer(signal.ITIMER_REAL, 0)
        self.armed, self.seen, self.stalled = False, None, 0

    def _tick(self, signum, frame) -> None:
        runtime = self.runtime
        if runtime is None or not runtime.running:
            self.disarm()
            return
        mark = (id(runtime), runtime.decisions)
        if mark != self.seen:
            self.seen, self.stalled = mark, 0
            return
        self.stalled += 1
        if self.stalled >= TICKS:
            self.seen, self.stalled = None, 0
            raise LimitExceeded(None, f"the rules ran for more than {LIMITS.seconds_per_decision:g} s without a decision "
                                      "(LUDOLEX_SECONDS_PER_DECISION): a loop that never ends?")


WATCHDOG = Watchdog()
atexit.register(WATCHDOG.disarm)  # a tick after Python has put back the signal's default action would kill the process
