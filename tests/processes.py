"""The project's commands run by the tests, each in a process group of its own, killed with all it
started once its test is done: passed, failed or stopped by a ceiling. A run of `simulate --games
100000` that outlived a failed test took the cores of every test after it.

Waits here are for an event (a line printed, a game stored, the process ended); the ceilings only
end a test that would hang, so generous that a loaded machine never reaches them: none is a measure
of speed, and none decides whether a test passes.

Ctrl-C reaches the commands even when pytest was started with SIGINT ignored: a shell script that
runs a command in the background (`make test &`, without job control) makes it ignore SIGINT, an
ignored signal stays ignored through fork and exec, and the tests of Ctrl-C (the terminal player,
`simulate`) then waited in vain."""
from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from contextlib import contextmanager
from typing import Callable, Iterator

CEILING = 300  # seconds: the most a test waits for one thing before it fails as hung


def sigint_acted_on() -> None:
    """Before starting a command: SIGINT, if ignored here, handled as Python does by default. A
    handler (unlike an ignored signal) is reset to the default by exec: the command gets Ctrl-C as
    it would from a terminal."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        try:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        except ValueError:  # not the main thread: nothing can be changed from here
            pass


def kill_group(pid: int) -> None:
    """SIGKILL to the process group led by `pid` (the process and every process it started that
    stayed in its group); nothing if the group has ended."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


@contextmanager
def started(args, **options) -> Iterator[subprocess.Popen]:
    """`subprocess.Popen(args, **options)` in a new session; on leaving, its group is killed and the
    process waited for, whatever happened inside."""
    sigint_acted_on()
    process = subprocess.Popen(args, start_new_session=True, **options)
    try:
        yield process
    finally:
        kill_group(process.pid)
        process.wait()
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):  # a write buffered for a process now gone
                    stream.close()


def run(args, *, input=None, capture_output: bool = False, timeout: float | None = CEILING, check: bool = False,
        **options) -> subprocess.CompletedProcess:
    """`subprocess.run`, the command in a group of its own, killed as a whole when it ends or times out
    (subprocess.run kills the command alone, and leaves what it started running)."""
    if capture_output:
        options["stdout"] = options["stderr"] = subprocess.PIPE
    if input is not None:
        options["stdin"] = subprocess.PIPE
    with started(args, **options) as process:
        try:
            stdout, stderr = process.communicate(input, timeout=timeout)
        except subprocess.TimeoutExpired as expired:
            kill_group(process.pid)
            expired.output, expired.stderr = process.communicate()
            raise
    done = subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)
    if check:
        done.check_returncode()
    return done


def wait_for(condition: Callable[[], bool], what: str, process: subprocess.Popen | None = None,
             ceiling: float = CEILING) -> None:
    """Return once `condition()` holds; fail if `process` ends first, or after `ceiling` seconds
    (a hang, not a slow machine)."""
    stop = time.monotonic() + ceiling
    while not condition():
        if process is not None and process.poll() is not None:
            raise AssertionError(f"the command ended (status {process.returncode}) before {what}")
        if time.monotonic() > stop:
            raise AssertionError(f"not {what} after {ceiling} s: a hang")
        time.sleep(0.05)
