#!/usr/bin/env python3
"""Fuzz the engine with mutated games, and its two servers with mutated requests: can a stranger's
rules, content, manifest, scenario or bot file, a page's request to `ludolex serve` or an editor's
message to `ludolex lsp` run code, read files, hang or crash it, or give away a hidden card?

    python tools/fuzz.py --inputs 50000 --jobs 2 --seed 1 --report fuzz.json --findings fuzz-findings
    python tools/fuzz.py --replay fuzz-findings/runtime-hang-root-rules-0000123 [--in-process]

Options: --inputs N, --seed S (an input is a function of the seed and its number), --first K (the
inputs numbered K to K+N-1: a long run in parts, the same inputs as in one), --jobs N
(worker processes, 2), --games a,b (default: every game of rulesets/, found by
fuzz_mutations.shipped_games), --targets games,serve,lsp (default: all three), --timeout SECONDS
(per phase of an input, 5), --findings DIR, --keep N (reproducers per signature and worker, 3),
--report FILE (JSON), --replay DIR (run a saved finding again; --in-process: without a child or a
timeout, for a debugger).

Three targets. `games`: an input is a copy of a game (its ruleset folder, two of its scenario
files, its bots, its content folder; the manifest's `content:` pointing at the copy) with ONE file
mutated by tools/fuzz_mutations.py. Each worker keeps one copy per game and rewrites then restores
only the mutated file. `serve`: a session of 4 to 20 requests to the web page's server, in-process
(tools/fuzz_serve.py). `lsp`: a session of JSON-RPC messages to `ludolex lsp`, run in a process of
its own over pipes (tools/fuzz_lsp.py).

Inputs cycle through pairs, 86 at a time (SCHEDULE_WEIGHTS): (game, file kind), ("serve", game)
and ("lsp", game); the first 28 inputs of a run take each pair once. An input's cost is mostly
validating a whole game: about 0.2 s for Cernunos, 0.9 s for Root and The 7th Citadel, 1.2 s for
Wonderland's War; a serve session 0.06 s; an lsp session about 1.3 s of wall time (a fresh server
checks the game, then waits for its diagnostics). So a cycle is 36 inputs of Cernunos, 26 serve
sessions (all games), 8 lsp sessions (5 on Cernunos), and 6 of Root, 5 of each other game (one per
file kind): about 0.43 s per input, 50,000 inputs in about three hours on two idle cores. A game
added to rulesets/ gets one input per file kind, one serve and one lsp session per cycle.

A `games` input is validated (`validate_ruleset`, each diagnostic rendered as `ludolex validate`
prints it, the bot files loaded as `ludolex simulate --bots` does, a mutated scenario file read as
pytest does). When no error is reported, three games are played through `play_one` (random bots on
seeds 1 and 2, invariants checked on seed 2, the game's rule_of_thumb bot on seed 3 when it has
one; at most 20 turns) and the first scenarios of a mutated scenario file are run. Where wasmtime is
installed and the WebAssembly backend compiles the rules (interpreter/backends/wasm), two random games
are played inside the module and compared with the same games on the Python backend, decision for
decision (`play_native`): a difference counts as a crash.

Each input runs in a child forked from a warm worker (the engine imported, the games loaded, the
tables served made, the language server imported: once), with a wall-clock timeout per phase (a
game, a request, a message: the worker has the child print its Python stack, then kills it: a
hang; --timeout, plus SECONDS_PER_MEGABYTE for each megabyte of a mutated file), a memory cap (RLIMIT_AS, 4 GB; 2 GB for serve and lsp) and its outcome sent back as JSON
lines through a pipe. An audit hook in the child (and in the language server, which inherits it)
reports any process started (os.system, subprocess...) and any file opened, listed or written
outside the game's copy (or workspace), the engine and Python, links followed; some mutations carry
payloads (`__import__('os').system('touch LUDOLEX_PWNED')`, dangerous YAML tags...) that create
the file LUDOLEX_PWNED if they ever run. The children get tight run-time limits through LUDOLEX_*
variables (RUN_TIME_LIMITS, interpreter/safety/limits.py) unless they are set already.

The summary table counts, per game and file kind (per target and game for serve and lsp): inputs;
clean (no error); diagn (errors reported: the expected answer to bad input); v.crash (validation
raised something other than LudolexError, or the child died by a signal); v.hang; games played,
finish(ed); g.err (a RuleRuntimeError recorded by play_one); limit (stopped by a limit of
interpreter/safety/limits.py); scen(arios run); reqs (requests answered by serve or lsp); r.crash
(an exception escaping play_one or a scenario, an exception other than a RuleRuntimeError recorded
by play_one, a broken invariant, the memory cap reached, or the child killed; for serve, an answer
5xx or an exception out of the app; for lsp, the server exiting before `exit`); r.hang (for lsp, a
request with no answer, or no exit after `exit`); code (a payload ran: the sentinel created or a
process started); files (a file touched outside the game's copy or the language server's
workspace); leaks (a serve answer that names a component the fuzzer's seat cannot tell apart, a
label of another seat's, the seed or another link's secret: see tools/fuzz_serve.py); gaps
(checker gaps: an input that validated clean whose game or scenario then stopped on a rule error
`validate` could have found: one made of a Python error (KeyError, TypeError...), one of
STATIC_ERRORS (nobody to decide, not a player...), or a limit stop on a number written in the
mutated file; listed by class at the end); payld (inputs carrying a payload); wall and CPU
seconds per input. Every crash, hang, code execution, file access, leak and checker gap is saved
under --findings as a folder: finding.json (what was mutated, the signature, the traceback or the
signal, the limits), output.txt (the child's stderr: a stack dumped at a hang or a fatal signal)
and, for a game, input/ (the game as mutated) and diff.txt (the mutated file against the
original); for serve and lsp, session.json (the requests or messages sent).
"""
from __future__ import annotations

import os
import sys

SECONDS_PER_MEGABYTE = 40  # more time for each phase of a larger mutated file: parsing rules costs about
# 25 CPU s per MB (Lark), bounded by LUDOLEX_RULESET_BYTES; a bounded cost is not a hang
RUN_TIME_LIMITS = {  # tight limits for fuzzing; a variable already set wins
    "LUDOLEX_STEPS_PER_DECISION": "1000000",
    "LUDOLEX_STEPS_PER_GAME": "20000000",
    "LUDOLEX_DECISIONS_PER_GAME": "1500",  # 20 turns take at most 288 (Root); 20,000 took a bot 35 s, past --timeout
    "LUDOLEX_SECONDS_PER_DECISION": "1",
}
for _name, _value in RUN_TIME_LIMITS.items():
    os.environ.setdefault(_name, _value)

import argparse  # noqa: E402
import difflib  # noqa: E402
import faulthandler  # noqa: E402
import gc  # noqa: E402
import json  # noqa: E402
import multiprocessing  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import resource  # noqa: E402
import select  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402
from collections import Counter, defaultdict  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import fuzz_lsp  # noqa: E402
import fuzz_mutations as mutations  # noqa: E402
import fuzz_serve  # noqa: E402
from interpreter.safety import limits  # noqa: E402
from interpreter.simulation import runner as simulation  # noqa: E402
from interpreter.validation import validate as validation  # noqa: E402
from interpreter.diagnostics.errors import LudolexError, RuleRuntimeError  # noqa: E402
from interpreter.agents.rule_of_thumb import Policy  # noqa: E402
from interpreter.loading.stages import load_ruleset  # noqa: E402
from interpreter.scenarios.run import ScenarioFailure, run_scenario  # noqa: E402
from interpreter.scenarios.files import load_scenarios  # noqa: E402
from interpreter.simulation.runner import Table, play_one  # noqa: E402
from interpreter.backends.errors import NotCompiled  # noqa: E402
from interpreter.play.game import Game  # noqa: E402

GAMES = mutations.shipped_games()
TARGETS = ("games", "serve", "lsp")
SCHEDULE_WEIGHTS = {  # inputs of each (game, file kind), ("serve", game), ("lsp", game) in a cycle (see the docstring)
    ("cernunos", "rules"): 12, ("cernunos", "content"): 8, ("cernunos", "manifest"): 4, ("cernunos", "scenario"): 8,
    ("cernunos", "bot"): 4,
    ("root", "rules"): 2, ("root", "content"): 1, ("root", "manifest"): 1, ("root", "scenario"): 1, ("root", "bot"): 1,
    ("serve", "cernunos"): 8, ("serve", "root"): 6, ("serve", "wonderlands_war"): 6, ("serve", "seventh_citadel"): 6,
    ("lsp", "cernunos"): 5,
}
DEFAULT_WEIGHT = 1  # any other pair: each file kind of Wonderland's War, of The 7th Citadel, of a new game...
MAX_TURNS = 20
SCENARIOS_RUN = 8  # scenarios of a mutated scenario file that are run
MEMORY_CAP = 4 * 1024**3  # bytes of address space of a child
SERVER_MEMORY_CAP = 2 * 1024**3  # the same for serve and lsp inputs: a server reading /dev/zero stops there
OUTPUT_KEPT = 200_000  # characters of a child's output kept in a finding
SENTINEL = mutations.SENTINEL
COLUMNS = [  # (key, header) of the summary table
    ("inputs", "inputs"), ("clean", "clean"), ("diagnostics", "diagn"), ("validation_crashes", "v.crash"),
    ("validation_hangs", "v.hang"), ("games", "games"), ("finished", "finish"), ("game_errors", "g.err"),
    ("limit_stops", "limit"), ("scenarios", "scen"), ("requests", "reqs"), ("runtime_crashes", "r.crash"),
    ("runtime_hangs", "r.hang"), ("code_executions", "code"), ("file_accesses", "files"), ("leaks", "leaks"),
    ("checker_gaps", "gaps"), ("payloads", "payld"),
]
FINDINGS = {"validation_crashes": "validation-crash", "validation_hangs": "validation-hang",
            "runtime_crashes": "runtime-crash", "runtime_hangs": "runtime-hang",
            "code_executions": "code-execution", "file_accesses": "file-access", "leaks": "leak",
            "checker_gaps": "checker-gap"}
TARGET_FINDINGS = {"crash": "runtime_crashes", "hang": "runtime_hangs", "leak": "leaks"}  # as serve and lsp say them


# --- hooks in the engine, installed once (children inherit them) -----------------------------------

SEEN = {"rulesets": [], "limit_stops": 0, "recorded": []}


def install_hooks() -> None:
    """Keep the ruleset validate_ruleset loads (so that it is not loaded twice), count the limit
    stops, and keep every exception play_one turns into a record (with its traceback)."""
    loader = validation.ruleset_of

    def keeping(*args, **kwargs):
        ruleset = loader(*args, **kwargs)
        SEEN["rulesets"].append(ruleset)
        return ruleset

    validation.ruleset_of = keeping
    exceeded = getattr(limits, "LimitExceeded", None)
    if exceeded is not None:
        original_init = exceeded.__init__

        def counting(self, *args, **kwargs):
            SEEN["limit_stops"] += 1
            original_init(self, *args, **kwargs)

        exceeded.__init__ = counting
    if hasattr(simulation, "error_text"):
        describe = simulation.error_text

        def recording(error):
            SEEN["recorded"].append(error)
            return describe(error)

        simulation.error_text = recording


# --- the work of a child: validate, then play ------------------------------------------------------

def child_work(plan: dict, send) -> None:
    """Everything done with one input; `send(**message)` reports each step to the parent."""
    if plan["target"] == "serve":
        fuzz_serve.run_session(SERVED[(plan["game"], plan["debug"])], plan["requests"], send)
        return
    if plan["target"] == "lsp":
        fuzz_lsp.run_session(plan["messages"], Path(plan["workspace"]), plan["timeout"], send, permitted_fork)
        return
    send(phase="validation")
    ruleset, scenarios = validate_input(plan, send)
    if ruleset is None:
        return
    for number, (bot, seed, check) in enumerate(plan["games"]):
        send(phase=f"game {number}")
        play_game(ruleset, number, bot, seed, check, plan["max_turns"], send)
    send(phase="native")
    play_native(ruleset, send)
    if scenarios:
        send(phase="scenarios")
        for loaded in scenarios[:SCENARIOS_RUN]:
            run_one_scenario(ruleset, loaded, send)


def validate_input(plan: dict, send):
    """(ruleset, scenarios to run) when the input is clean, (None, []) after diagnostics."""
    folder = Path(plan["ruleset"])
    SEEN["rulesets"].clear()
    try:
        diagnostics = validation.validate_ruleset(folder)
    except LudolexError as error:
        diagnostics = error.diagnostics
    if not report_diagnostics(diagnostics, send):
        return None, []
    ruleset = SEEN["rulesets"][-1] if SEEN["rulesets"] else load_ruleset(folder)
    try:
        for path in sorted((folder / "bots").glob("*.yaml")):  # as `ludolex simulate --bots` does
            ruleset.policies[path.stem] = Policy(path, ruleset)
        scenarios = load_scenarios(Path(plan["scenario"])) if plan.get("scenario") else []
    except LudolexError as error:
        report_diagnostics(error.diagnostics, send)
        return None, []
    send(validation="clean", warnings=sorted({d.code for d in diagnostics}))
    return ruleset, scenarios


def report_diagnostics(diagnostics, send) -> bool:
    """Render them as the CLI does; True when none is an error."""
    for diagnostic in diagnostics:
        diagnostic.render()
        json.dumps(diagnostic.as_dict())
    errors = [d for d in diagnostics if d.severity == "error"]
    if errors:
        send(validation="errors", codes=sorted({d.code for d in errors}))
    return not errors


def play_game(ruleset, number: int, bot: str, seed: int, check: bool, max_turns: int, send) -> None:
    SEEN["limit_stops"], SEEN["recorded"] = 0, []
    record = play_one(ruleset, seed, Table(bots=(bot,), max_turns=max_turns, check=check))
    recorded = SEEN["recorded"][-1] if SEEN["recorded"] else None
    if recorded is not None:
        outcome = error_outcome(recorded)
    elif not record.get("error"):
        outcome = "finished"
    else:  # an error play_one recorded without telling which exception it was
        outcome = "limit" if SEEN["limit_stops"] or record.get("reason") == "limit" else "error"
    message = {"game": number, "outcome": outcome, "turns": record.get("turns"), "decisions": record.get("decisions"),
               "reason": record.get("reason"), "error": (record.get("error") or "")[:500], "cause": cause_name(recorded),
               "message": rule_message(recorded)}
    if outcome == "crash":
        message["crash"] = describe_exception(recorded)
    send(**message)


NATIVE_SEEDS = (1, 2)
NATIVE_DECISIONS = 2_000  # a longer game is not compared (its trace would not fit the module's)


def play_native(ruleset, send) -> None:
    """The input's rules on the WebAssembly backend, where wasmtime is installed and the backend
    compiles them: random games on the module, each against the same game on the Python backend
    (the same decisions, each drawn as random.Random(seed).randrange draws it, and the same
    result, or an error of the same kind on both). A difference, or any exception but a rule error or
    a limit, is a crash."""
    try:
        from interpreter.backends.wasm.program import WasmGame, WasmProgram
        import wasmtime  # noqa: F401
    except ImportError:
        return
    try:
        rules = WasmProgram(ruleset).compile()
    except NotCompiled:
        return
    except Exception as error:  # what the writer wrote, wasmtime refused; or the writer failed
        send(game="native", outcome="crash", crash=describe_exception(error), error=str(error)[:500])
        return
    for seed in NATIVE_SEEDS:
        native = _outcome(lambda: _native_trace(WasmGame, rules, seed))
        python = _outcome(lambda: _python_trace(ruleset, seed))
        if "too long" in (native[0], python[0]):
            continue
        outcome = native[0] if native == python or (native[0] == python[0] != "finished") else "crash"
        message = {"game": f"native {seed}", "outcome": outcome, "error": ""}
        if outcome == "crash":
            difference = RuntimeError(f"the WebAssembly and Python backends differ: {native!r:.400} against {python!r:.400}")
            message["crash"] = describe_exception(difference)
        send(**message)


class TooLong(Exception):
    """A game longer than the comparison takes."""


def _outcome(play) -> tuple:
    try:
        return ("finished", play())
    except limits.LimitExceeded:
        return ("limit", None)
    except RuleRuntimeError as error:
        return ("too long", None) if "trace is full" in str(error) else ("error", None)
    except (NotCompiled, TooLong):
        return ("too long", None)


def _native_trace(game_class, rules, seed: int):
    return _random_trace(game_class(rules, seed=seed), seed)


def _python_trace(ruleset, seed: int):
    return _random_trace(Game(ruleset, seed=seed), seed)


def _random_trace(game, seed: int):
    """The game played on, each decision drawn as random.Random(seed).randrange draws it (the game's own
    generator, which its dice and shuffles use, is another): each decision, the winners, the scores."""
    rng, trace = random.Random(seed), []
    while not game.finished:
        if len(trace) >= NATIVE_DECISIONS:
            raise TooLong()
        decision = game.decision
        index = rng.randrange(len(decision.options))
        trace.append((decision.name, decision.player, len(decision.options), index))
        game.choose(index)
    return trace, game.result.winners, game.result.scores


def error_outcome(error: BaseException) -> str:
    """limit (a limit stopped the game), error (a RuleRuntimeError: the rules' fault) or crash
    (any other exception, or the memory cap reached, even when the engine reports it as an error
    of the rules)."""
    exceeded = getattr(limits, "LimitExceeded", ())
    if exceeded and isinstance(error, exceeded):
        return "limit"
    if not isinstance(error, RuleRuntimeError) or isinstance(root_cause(error), MemoryError):
        return "crash"
    return "error"


def root_cause(error: BaseException) -> BaseException:
    seen = set()
    while (error.__cause__ or error.__context__) is not None and id(error) not in seen:
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return error


def rule_message(error: BaseException | None) -> str | None:
    """A rule error's message, without its position."""
    return error.message[:500] if isinstance(error, RuleRuntimeError) else None


def cause_name(error: BaseException | None) -> str | None:
    """The Python exception behind a RuleRuntimeError (RecursionError, TypeError...), if any."""
    if error is None:
        return None
    cause = root_cause(error)
    return type(cause).__name__ if cause is not error else type(error).__name__


def run_one_scenario(ruleset, loaded, send) -> None:
    message = {"scenario": loaded.scenario.name[:200]}
    try:
        run_scenario(ruleset, loaded.scenario)
        message["outcome"] = "passed"
    except (ScenarioFailure, LudolexError):
        message["outcome"] = "failed"
    except RuleRuntimeError as error:
        message.update(outcome=error_outcome(error), cause=cause_name(error), message=rule_message(error),
                       error=str(error)[:500])
        if message["outcome"] == "crash":
            message["crash"] = describe_exception(error)
    send(**message)


def describe_exception(error: BaseException) -> dict:
    frames = traceback.extract_tb(error.__traceback__)
    text = "".join(traceback.format_exception(error))
    if len(text) > 30_000:
        text = text[:10_000] + "\n...\n" + text[-20_000:]
    return {"type": type(error).__name__, "message": str(error)[:1000], "where": innermost(frames), "traceback": text}


def innermost(frames) -> str:
    """file:function of the innermost frame in the engine or in code it generated."""
    found = ""
    for frame in frames:
        if f"{os.sep}interpreter{os.sep}" in frame.filename or frame.filename.startswith("<rules"):
            found = f"{Path(frame.filename).name}:{frame.name}"
    return found or (f"{Path(frames[-1].filename).name}:{frames[-1].name}" if frames else "?")


# --- the child process ---------------------------------------------------------------------------

def run_child(plan: dict, cwd: Path, output: Path, timeout: float, allowed: dict) -> dict:
    """Fork a child that does `child_work(plan)`; its messages, how it ended, and whether it was killed."""
    reader, writer = os.pipe()
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(reader)
        code = 0
        try:
            phases = len(plan.get("games", ())) + len(plan.get("requests", ())) + len(plan.get("messages", ())) + 3
            prepare_child(cwd, output, timeout * phases, allowed, writer, plan.get("memory", MEMORY_CAP))
            send = Reporter(writer)
            try:
                child_work(plan, send)
                send(done=True)
            except BaseException as error:  # noqa: B036 - everything is reported, even SystemExit
                send(crash=describe_exception(error), phase=send.phase)
                send(done=True)
        except BaseException:  # noqa: B036
            code = 70
        os._exit(code)
    os.close(writer)
    messages, killed = read_messages(reader, pid, timeout)
    status, cpu = wait_for_exit(pid)
    kill_group(pid)  # whatever the child started
    return {"messages": messages, "status": status, "killed": killed, "seconds": time.monotonic() - started,
            "cpu": cpu}


class Reporter:
    """Sends messages to the parent (JSON lines on a pipe), remembering the phase it reported last."""

    def __init__(self, fd: int):
        self.send, self.phase = sender(fd), "validation"

    def __call__(self, **message) -> None:
        self.phase = message.get("phase", self.phase)
        self.send(**message)


def sender(fd: int):
    def send(**message) -> None:
        os.write(fd, (json.dumps(message, default=str) + "\n").encode("utf-8", errors="replace"))
    return send


def prepare_child(cwd: Path, output: Path, cpu_seconds: float, allowed: dict, pipe: int, memory: int) -> None:
    os.setpgid(0, 0)  # its own process group: killed with whatever it starts
    die_with_parent()
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    cpu = int(cpu_seconds) + 10  # a backstop should the parent die
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    out = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(out, 1)
    os.dup2(out, 2)
    faulthandler.enable(file=sys.stderr, all_threads=True)
    faulthandler.register(signal.SIGUSR1, file=sys.stderr, all_threads=True)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    gc.set_threshold(50_000, 20, 100)  # fewer collections: a child lives a second or so (about 20% faster)
    os.chdir(cwd)
    sys.addaudithook(auditor(allowed, pipe))


def die_with_parent() -> None:
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG (Linux)
    except Exception:
        pass


PROCESS_EVENTS = {"os.system", "os.exec", "os.posix_spawn", "os.spawn", "subprocess.Popen", "os.fork", "os.forkpty",
                  "pty.spawn", "socket.connect", "socket.bind", "ctypes.dlopen", "webbrowser.open"}
FILE_EVENTS = {"open", "os.listdir", "os.scandir", "os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.symlink",
               "os.link", "os.truncate", "os.chmod", "os.chown", "shutil.rmtree", "shutil.copyfile", "shutil.move"}
WRITE_EVENTS = FILE_EVENTS - {"open", "os.listdir", "os.scandir"}
AUDIT = {"forks": 0}  # forks the audit hook lets pass: the language server's own process (permitted_fork)


def permitted_fork() -> int:
    """os.fork, for a target that runs its server in a process of its own: not reported as a process started."""
    AUDIT["forks"] += 1
    return os.fork()


def auditor(allowed: dict[str, list[str]], pipe: int):
    """An audit hook reporting processes started, and files read or written outside the places allowed."""
    send, reported = sender(pipe), [0]

    def inside(path: str, places: list[str]) -> bool:
        return any(path == place or path.startswith(place + os.sep) for place in places)

    def report(kind: str, event: str, detail) -> None:
        if reported[0] < 20:
            reported[0] += 1
            send(audit=kind, event=event, detail=repr(detail)[:300])

    def hook(event: str, args) -> None:
        if event not in PROCESS_EVENTS and event not in FILE_EVENTS:
            return
        try:
            if event == "os.fork" and AUDIT["forks"]:
                AUDIT["forks"] -= 1
                return
            if event in PROCESS_EVENTS:
                report("process", event, args)
                return
            path = args[0] if args else None
            writing = event in WRITE_EVENTS or (event == "open" and opens_for_writing(args))
            if path is None or isinstance(path, int):
                return
            path = os.path.realpath(os.fsdecode(path))  # a link inside that leads out is a file outside
            if SENTINEL in path:
                report("process", event, stable(path))  # a payload ran
            elif event in ("os.listdir", "os.scandir") and path in allowed["listed"]:
                return
            elif not inside(path, allowed["write" if writing else "read"]):
                report("file", event, stable(path))
        except Exception:
            pass

    return hook


def stable(path: str) -> str:
    """A path near the game's copy (in the same temporary folder) as relative to it, so that the
    same finding has the same signature in every run; any other path as it is."""
    here = os.getcwd()
    if path.split(os.sep)[:3] == here.split(os.sep)[:3]:
        return "<game copy>/" + os.path.relpath(path, here)
    return path


def opens_for_writing(args) -> bool:
    mode, flags = (args[1], args[2]) if len(args) > 2 else (None, 0)
    if isinstance(mode, str):
        return bool(set(mode) & set("wax+"))
    return bool(isinstance(flags, int) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND))


def read_messages(reader: int, pid: int, timeout: float) -> tuple[list[dict], bool]:
    """The child's messages until it closes the pipe; each new phase gets `timeout` seconds."""
    messages, buffer, deadline = [], b"", time.monotonic() + timeout
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                stop_hung_child(pid)
                return messages, True
            ready, _, _ = select.select([reader], [], [], left)
            if not ready:
                continue
            chunk = os.read(reader, 1 << 16)
            if not chunk:
                return messages, False
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                try:
                    message = json.loads(line)
                except ValueError:
                    continue
                messages.append(message)
                if "phase" in message and "crash" not in message:
                    deadline = time.monotonic() + timeout
    finally:
        os.close(reader)


def stop_hung_child(pid: int) -> None:
    """Have the child print its Python stack (faulthandler), then kill it and its group."""
    try:
        os.kill(pid, signal.SIGUSR1)
        time.sleep(0.3)
    except ProcessLookupError:
        pass
    kill_group(pid)


def kill_group(pid: int) -> None:
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def wait_for_exit(pid: int) -> tuple[int, float]:
    """The child's exit status and CPU seconds; killed if it lingers after closing its pipe."""
    for _ in range(2000):
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            return status, usage.ru_utime + usage.ru_stime
        time.sleep(0.001)
    kill_group(pid)
    _, status, usage = os.wait4(pid, 0)
    return status, usage.ru_utime + usage.ru_stime


# --- what happened -------------------------------------------------------------------------------

def classify(result: dict, sentinel_found: bool, output: str, mutated: bytes = b"") -> dict:
    """Counts of one input (the keys of COLUMNS), plus its finding (kind, signature, details) if any.
    `mutated`: the mutated file, where a checker gap's number may be written."""
    counts = Counter(inputs=1)
    phase, crash, done, finding, details = None, None, False, None, {}
    gaps, target_finding = [], None
    for message in result["messages"]:
        if "crash" in message and "game" not in message and "scenario" not in message:
            crash = message["crash"]
            phase = message.get("phase", phase)
        elif "phase" in message:
            phase = message["phase"]
        if message.get("validation") == "clean":
            counts["clean"] += 1
        elif message.get("validation") == "errors":
            counts["diagnostics"] += 1
            details["codes"] = message.get("codes")
        if "game" in message:
            counts["games"] += 1
            counts[{"finished": "finished", "error": "game_errors", "limit": "limit_stops",
                    "crash": "runtime_crashes"}[message["outcome"]]] += 1
            if message["outcome"] == "crash" and finding is None:
                finding = ("runtime_crashes", crash_signature(message["crash"]), message["crash"])
            if message["outcome"] in ("error", "limit"):
                details.setdefault("game_errors", []).append(message["error"])
            if message["outcome"] == "error":
                details.setdefault("causes", []).append(message.get("cause") or "RuleRuntimeError")
        if ("game" in message or "scenario" in message) and (gap := checker_gap(message, mutated)):
            gaps.append((gap, message))
        if "answered" in message:
            counts["requests"] += 1
            details.setdefault("answers", []).append(message["answered"])
        if "target_finding" in message and target_finding is None:
            target_finding = message
        if "scenario" in message:
            counts["scenarios"] += 1
            counts["limit_stops"] += message["outcome"] == "limit"
            counts["runtime_crashes"] += message["outcome"] == "crash"
            if message["outcome"] == "crash" and finding is None:
                finding = ("runtime_crashes", crash_signature(message["crash"]), message["crash"])
        if "audit" in message:
            key = "code_executions" if message["audit"] == "process" else "file_accesses"
            details.setdefault("audit", []).append(message)
            if not counts[key]:
                counts[key] += 1
                finding = finding if key == "file_accesses" and finding else (key, f"{message['event']} {message['detail'][:120]}", message)
        done = done or message.get("done", False)
    validating = phase in (None, "validation")
    if result["killed"]:
        key = "validation_hangs" if validating else "runtime_hangs"
        counts[key] += 1
        finding = finding if finding and finding[0] == "code_executions" else (key, hang_signature(phase, output), {"phase": phase})
    elif crash is not None or not done:
        key = "validation_crashes" if validating else "runtime_crashes"
        counts[key] += 1
        crash = crash or death(result["status"], output)
        finding = finding if finding and finding[0] == "code_executions" else (key, crash_signature(crash), crash)
    if target_finding is not None:  # serve and lsp: a crash, a hang or a leak, said by the child
        key = TARGET_FINDINGS[target_finding["target_finding"]]
        counts[key] += 1
        counts["requests"] += 1  # the request that found it
        if finding is None:
            finding = (key, target_finding["signature"], target_finding.get("details"))
    if gaps:
        counts["checker_gaps"] += 1
        details["gaps"] = [gap for gap, _ in gaps]
        if finding is None:
            gap, message = gaps[0]
            finding = ("checker_gaps", gap, {k: message.get(k) for k in ("game", "scenario", "error", "cause")})
    if sentinel_found and not counts["code_executions"]:
        counts["code_executions"] += 1
        finding = ("code_executions", f"{SENTINEL} created", {"sentinel": True})
    return {"counts": dict(counts), "finding": finding, "details": details, "phase": phase}


STATIC_ERRORS = [  # rule errors of a game that a check of its files could have found before it ran
    "nobody is to decide", "which is not a player of this game", "names nobody", "`numbers` takes two numbers",
    "`sorted` orders by numbers", "outside any turn", "outside any procedure", "where none was expected",
]
PYTHON_ERROR = re.compile(r"^(?:.*?`: )?([A-Z][A-Za-z]*(?:Error|Exception)|StopIteration): ")
NOT_GAPS = {"RuleRuntimeError", "LimitExceeded", "RecursionError", "MemoryError"}  # the rules' own, or a bound
NUMBER_TOO_LARGE = re.compile(r"the number (-?\d+)")


def checker_gap(message: dict, mutated: bytes) -> str | None:
    """The class of a checker gap (see the docstring), or None: a game (or scenario) of an input that
    validated clean stopped on a rule error a check could have found: one made of a Python error
    (KeyError, TypeError...), one of STATIC_ERRORS, or a limit stop on a number written in the file."""
    text = message.get("message") or ""
    if message.get("outcome") == "limit":
        number = NUMBER_TOO_LARGE.search(text)
        if number and number.group(1).encode() in mutated:
            return "LimitExceeded: a number written in the file is above largest_number"
        return None
    if message.get("outcome") != "error":
        return None
    named = PYTHON_ERROR.match(text)
    cause = message.get("cause")
    python_error = cause if cause and cause not in NOT_GAPS else (named.group(1) if named else None)
    if python_error and python_error not in NOT_GAPS:
        shape = gap_shape(text)
        return shape if python_error in shape else f"{python_error}: {shape}"
    static = next((words for words in STATIC_ERRORS if words in text), None)
    return f"rule error: {gap_shape(text)}" if static else None


PYTHON_TYPES = re.compile(r"'(NoneType|int|str|float|bool|list|dict|tuple|set|frozenset|function|[A-Z]\w*)'")


def gap_shape(message: str) -> str:
    """A message with its names (`x`, 'x' but Python's types) and numbers left out: one class of gap."""
    message = re.sub(r"`[^`]*`", "``", message)
    message = re.sub(r"'[^'\s]*'", lambda m: m.group() if PYTHON_TYPES.fullmatch(m.group()) else "''", message)
    return " ".join(re.sub(r"\b\d+\b", "N", message).split())[:120]


def crash_signature(crash: dict) -> str:
    message = re.sub(r"`[^`]*`|'[^']*'", lambda m: m.group()[0] * 2, crash.get("message", ""))  # names quoted
    message = " ".join(re.sub(r"\w*\d\w*", "N", message).split())[:80]  # numbers
    return f"{crash.get('type')} at {crash.get('where')}: {message}"


def death(status: int, output: str) -> dict:
    if os.WIFSIGNALED(status):
        name = signal.Signals(os.WTERMSIG(status)).name
        what = {"type": name, "message": f"killed by {name}"}
    else:
        what = {"type": "exit", "message": f"the child exited with status {os.WEXITSTATUS(status)} without a report"}
    return {**what, "where": stack_top(output), "traceback": output[-OUTPUT_KEPT:]}


def hang_signature(phase: str | None, output: str) -> str:
    return f"hang in {phase or 'validation'} at {stack_top(output)}"


def stack_top(output: str) -> str:
    """The innermost frame of the engine (or of generated code) in a faulthandler dump."""
    for match in re.finditer(r'File "([^"]+)", line \d+ in (\S+)', output):
        file, function = match.groups()
        if f"{os.sep}interpreter{os.sep}" in file or file.startswith("<rules"):
            return f"{Path(file).name}:{function}"
    match = re.search(r'File "([^"]+)", line \d+ in (\S+)', output)
    return f"{Path(match.group(1)).name}:{match.group(2)}" if match else "?"


# --- the worker: a warm process that forks a child per input ---------------------------------------

WORKER: dict = {}
RULESETS: dict = {}  # game -> (its pristine copy, the ruleset loaded from it), for serve inputs
SERVED: dict = {}  # (game, debug) -> the fuzz_serve.Served its serve inputs fork from


def schedule(games: list[str], files: dict, targets: list[str]) -> list[tuple[str, str]]:
    """(game, kind), ("serve", game) or ("lsp", game) of the inputs of one cycle, interleaved so that
    the first len(pairs) inputs cover every pair."""
    pairs = [(g, k) for g in games for k in files[g].kinds] if "games" in targets else []
    pairs += [(target, g) for target in ("serve", "lsp") if target in targets for g in games]
    weights = [SCHEDULE_WEIGHTS.get(pair, DEFAULT_WEIGHT) for pair in pairs]
    cycle = []
    for round_ in range(max(weights, default=0)):
        cycle += [pair for pair, weight in zip(pairs, weights) if weight > round_]
    return cycle


def build_sandbox(files: mutations.GameFiles, where: Path) -> Path:
    """The game's copy: a project of its own (a `.git` marks it, as in a checkout), so that the
    engine's boundary (docs/limits.md) is the copy itself."""
    shutil.rmtree(where, ignore_errors=True)
    (where / ".git").mkdir(parents=True)
    for relative in files.sandbox:
        path = where / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(files.files[relative])
    return where


def game_plan(files: mutations.GameFiles, sandbox: Path, mutation=None) -> dict:
    games = [("random", 1, False), ("random", 2, True)]
    if "ruleset/bots/rule_of_thumb.yaml" in files.files:
        games.append(("rule_of_thumb", 3, False))
    scenario = str(sandbox / mutation.path) if mutation is not None and mutation.kind == "scenario" else None
    return {"target": "games", "game": files.name, "ruleset": str(sandbox / "ruleset"), "games": games,
            "max_turns": MAX_TURNS, "scenario": scenario}


def allowed_places(sandbox: Path, output: Path) -> dict[str, list[str]]:
    """Where a child may read (the game's copy, the engine, Python) and write (its output, the
    engine's grammar cache) without it being reported, and the folders Python's imports list (those
    of sys.path, listed again when one changes)."""
    cache = str(Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ludolex")
    read = {str(sandbox), str(ROOT / "interpreter"), str(ROOT / "grammar"), str(ROOT / "tools"), sys.prefix, sys.base_prefix,
            sys.exec_prefix, os.devnull, "/dev/urandom", str(output), cache,
            str(ROOT / "docs" / "language.md")}  # the language server's hover quotes it
    write = {str(output), os.devnull, cache}
    return {"read": sorted(read | {os.path.realpath(p) for p in read}),
            "write": sorted(write | {os.path.realpath(p) for p in write}),
            "listed": sorted({os.path.realpath(p or ".") for p in sys.path})}


def start_worker(options: dict, games: list[str], files: dict, work: Path) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    home = work / f"worker-{os.getpid()}"
    home.mkdir(parents=True)
    WORKER.update(options=options, files=files, home=home, cycle=schedule(games, files, options["targets"]),
                  kept=Counter(), output=home / "child-output.txt", workspaces={},
                  sandboxes={g: build_sandbox(files[g], home / g) for g in games})
    WORKER["allowed"] = {g: allowed_places(WORKER["sandboxes"][g], WORKER["output"]) for g in games}
    gc.freeze()


def run_input(index: int) -> dict:
    options, files = WORKER["options"], WORKER["files"]
    game, kind = WORKER["cycle"][index % len(WORKER["cycle"])]
    rng = random.Random(f"{options['seed']}:{index}")
    if game in ("serve", "lsp"):
        return run_server_input(index, game, kind, rng)
    mutation = mutations.mutate(files[game], kind, rng)
    sandbox = WORKER["sandboxes"][game]
    target = sandbox / mutation.path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(mutation.data)
    tainted = True
    try:
        plan = game_plan(files[game], sandbox, mutation)
        timeout = options["timeout"] + SECONDS_PER_MEGABYTE * len(mutation.data) / 1e6
        result = run_child(plan, sandbox, WORKER["output"], timeout, WORKER["allowed"][game])
        sentinel = (sandbox / SENTINEL).exists()
        output = read_output(WORKER["output"])
        outcome = classify(result, sentinel, output, mutation.data)
        outcome["counts"]["payloads"] = int(SENTINEL.encode() in mutation.data)  # inputs that try to run code
        outcome.update(index=index, game=game, kind=kind, path=mutation.path, ops=mutation.ops,
                       seconds=result["seconds"], cpu=result["cpu"])
        if outcome["finding"]:
            outcome["saved"] = save_finding(index, game, mutation, plan, sandbox, outcome, output)
        tainted = bool(outcome["finding"]) or unexpected_files(sandbox, files[game], mutation)
        return outcome
    finally:
        if tainted:
            build_sandbox(files[game], sandbox)
        elif mutation.path in files[game].sandbox:
            target.write_bytes(files[game].files[mutation.path])
        else:
            target.unlink()


def run_server_input(index: int, target: str, game: str, rng: random.Random) -> dict:
    """One session of requests to `serve`, or of messages to `lsp`, on the game `game`."""
    options, output = WORKER["options"], WORKER["output"]
    plan, place = server_plan(target, game, rng, options["timeout"], WORKER["files"][game], WORKER["workspaces"],
                              WORKER["home"])
    result = run_child(plan, place, output, options["timeout"], allowed_places(place, output))
    text = read_output(output)
    sentinel = place / SENTINEL
    outcome = classify(result, sentinel.exists(), text)
    sentinel.unlink(missing_ok=True)
    outcome["counts"]["payloads"] = int(SENTINEL in json.dumps(plan.get("messages", [])))
    outcome.update(index=index, game=target, kind=game, path=None, ops=[], seconds=result["seconds"], cpu=result["cpu"])
    if outcome["finding"]:
        outcome["saved"] = save_session_finding(index, plan, outcome, text)
    return outcome


def server_plan(target: str, game: str, rng: random.Random, timeout: float, files: mutations.GameFiles,
                workspaces: dict, home: Path) -> tuple[dict, Path]:
    """The plan of a serve or lsp input, and the folder its child works in. The table served (or the
    language server's workspace) is made here, once, so that each child forks from it."""
    if target == "serve":
        debug = rng.random() < 0.3
        served = served_table(game, debug)
        requests = fuzz_serve.session(rng, [served.human, *served.others])
        return {"target": "serve", "game": game, "debug": debug, "requests": requests,
                "memory": SERVER_MEMORY_CAP}, RULESETS[game][0]
    linked = rng.random() < fuzz_lsp.LINKED_SHARE
    if (game, linked) not in workspaces:
        workspaces[(game, linked)] = build_sandbox(files, home / f"lsp-{game}{'-linked' if linked else ''}")
        fuzz_lsp.add_extras(workspaces[(game, linked)], linked)
    workspace = workspaces[(game, linked)]
    messages = fuzz_lsp.session(rng, files, lambda kind: mutations.mutate(files, kind, rng), linked)
    return {"target": "lsp", "game": game, "linked": linked, "workspace": str(workspace), "timeout": timeout,
            "messages": messages, "memory": SERVER_MEMORY_CAP}, workspace


def served_table(game: str, debug: bool) -> fuzz_serve.Served:
    if (game, debug) not in SERVED:
        SERVED[(game, debug)] = fuzz_serve.Served(RULESETS[game][1], debug)
    return SERVED[(game, debug)]


def read_output(path: Path) -> str:
    try:
        return path.read_bytes()[-OUTPUT_KEPT:].decode("utf-8", errors="replace")
    except OSError:
        return ""


def unexpected_files(sandbox: Path, files: mutations.GameFiles, mutation) -> bool:
    expected = set(files.sandbox) | {mutation.path}
    present = {p.relative_to(sandbox).as_posix() for p in sandbox.rglob("*") if p.is_file()}
    return bool(present - expected)


def finding_folder(outcome: dict, index: int, game: str, kind: str) -> Path | None:
    """Where to save a finding, or None when enough of its kind (or signature) are saved already."""
    key, signature, _ = outcome["finding"]
    kept = WORKER["kept"]
    kept[key] += 1
    kept[(key, signature)] += 1
    if kept[(key, signature)] > WORKER["options"]["keep"] or kept[key] > 50 * WORKER["options"]["keep"]:
        return None
    return Path(WORKER["options"]["findings"]) / f"{FINDINGS[key]}-{game}-{kind}-{index:07d}"


def save_session_finding(index: int, plan: dict, outcome: dict, output: str) -> str | None:
    """A serve or lsp finding: finding.json, session.json (the requests or messages sent: `--replay`
    sends them again to a new table or workspace) and output.txt."""
    folder = finding_folder(outcome, index, plan["target"], plan["game"])
    if folder is None:
        return None
    key, signature, details = outcome["finding"]
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    session = {k: v for k, v in plan.items() if k in ("requests", "messages")}
    info = {"finding": FINDINGS[key], "signature": signature, "details": details, "index": index,
            "seed": WORKER["options"]["seed"], "target": plan["target"], "game": plan["game"],
            "plan": {k: v for k, v in plan.items() if k not in session and k != "workspace"},
            "phase": outcome["phase"], "counts": outcome["counts"], "audit": outcome["details"].get("audit"),
            "timeout": WORKER["options"]["timeout"], "limits": {k: v for k, v in os.environ.items() if k.startswith("LUDOLEX_")},
            "replay": f"python tools/fuzz.py --replay {folder}"}
    (folder / "finding.json").write_text(json.dumps(info, indent=2, default=str), encoding="utf-8")
    (folder / "session.json").write_text(json.dumps(session, indent=1), encoding="utf-8")
    (folder / "output.txt").write_text(output, encoding="utf-8")
    return str(folder)


def save_finding(index: int, game: str, mutation, plan: dict, sandbox: Path, outcome: dict, output: str) -> str | None:
    key, signature, details = outcome["finding"]
    folder = finding_folder(outcome, index, game, mutation.kind)
    if folder is None:
        return None
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(sandbox, folder / "input", ignore=shutil.ignore_patterns(SENTINEL))
    relative = {k: (os.path.relpath(v, sandbox) if isinstance(v, str) and v.startswith(str(sandbox)) else v)
                for k, v in plan.items()}
    info = {"finding": FINDINGS[key], "signature": signature, "details": details, "index": index,
            "seed": WORKER["options"]["seed"], "game": game, "kind": mutation.kind, "file": mutation.path,
            "ops": mutation.ops, "plan": relative, "phase": outcome["phase"], "counts": outcome["counts"],
            "audit": outcome["details"].get("audit"), "timeout": WORKER["options"]["timeout"],
            "limits": {k: v for k, v in os.environ.items() if k.startswith("LUDOLEX_")},
            "replay": f"python tools/fuzz.py --replay {folder}"}
    (folder / "finding.json").write_text(json.dumps(info, indent=2, default=str), encoding="utf-8")
    (folder / "output.txt").write_text(output, encoding="utf-8")
    (folder / "diff.txt").write_text(file_diff(WORKER["files"][game], mutation), encoding="utf-8")
    return str(folder)


def file_diff(files: mutations.GameFiles, mutation) -> str:
    def visible(line: str) -> str:  # control characters (a NUL...) shown as escapes
        line = re.sub(r"[\x00-\x08\x0b-\x1f\x7f\ufffd]", lambda m: repr(m.group())[1:-1], line)
        return line[:300] + ("..." if len(line) > 300 else "")

    def lines(data: bytes) -> list[str]:
        return [visible(line) for line in data.decode("utf-8", errors="replace").split("\n")]

    before = lines(files.files[mutation.path])
    diff = difflib.unified_diff(before, lines(mutation.data), f"original/{mutation.path}", f"mutated/{mutation.path}", lineterm="")
    return "\n".join(list(diff)[:400]) + "\n"


# --- the run: inputs to workers, counts to a table ---------------------------------------------------

def warm_up(games: list[str], files: dict, work: Path, timeout: float, targets: list[str]) -> None:
    """Load and play each pristine game in this process, make the tables served and import the
    language server (the workers inherit it all); then check in a child that each game validates
    clean and plays, and that the unmutated table and workspace answer without a finding."""
    if "lsp" in targets:
        import interpreter.interfaces.cli  # noqa: F401
        import interpreter.lsp.server  # noqa: F401
    if "games" in targets:
        try:  # the WebAssembly backend's native library, loaded here: a child loading it would be flagged
            import wasmtime  # noqa: F401

            import interpreter.backends.wasm.program  # noqa: F401
        except ImportError:
            pass
    for game in games:
        sandbox = build_sandbox(files[game], work / "pristine" / game)
        plan = game_plan(files[game], sandbox)
        SEEN["rulesets"].clear()
        validation.validate_ruleset(Path(plan["ruleset"]))
        ruleset = SEEN["rulesets"][-1] if SEEN["rulesets"] else load_ruleset(Path(plan["ruleset"]))
        RULESETS[game] = (sandbox, ruleset)
        output = work / "pristine" / f"{game}-output.txt"
        checks = []
        if "games" in targets:
            # on the Python backend: a native module compiled here, without the children's cap on address
            # space, would reserve for its games more than the cap allows the children that inherit it
            before, os.environ["LUDOLEX_NATIVE"] = os.environ.get("LUDOLEX_NATIVE"), "0"
            try:
                play_one(ruleset, 1, Table(max_turns=MAX_TURNS))
            finally:
                os.environ.pop("LUDOLEX_NATIVE")
                if before is not None:
                    os.environ["LUDOLEX_NATIVE"] = before
            checks.append((plan, sandbox))
        if "serve" in targets:
            for debug in (False, True):
                served_table(game, debug)
            checks.append(({"target": "serve", "game": game, "debug": False, "requests": fuzz_serve.pristine_session(),
                            "memory": SERVER_MEMORY_CAP}, sandbox))
        if "lsp" in targets and game == games[0]:  # the server starts and answers (its checks are validate's)
            workspace = build_sandbox(files[game], work / "pristine" / f"lsp-{game}")
            fuzz_lsp.add_extras(workspace, linked=False)
            checks.append(({"target": "lsp", "game": game, "workspace": str(workspace), "timeout": max(timeout, 30),
                            "messages": fuzz_lsp.pristine_session(files[game]), "memory": SERVER_MEMORY_CAP},
                           workspace))
        for check, place in checks:
            result = run_child(check, place, output, max(timeout, 30), allowed_places(place, output))
            outcome = classify(result, (place / SENTINEL).exists(), read_output(output))
            counts = outcome["counts"]
            unplayed = not counts.get("clean") or counts.get("finished", 0) < len(plan["games"])
            if check["target"] == "games" and unplayed:
                print(f"warning: the unmutated {game} is not clean and playable: {counts} {outcome['finding'] or ''}",
                      file=sys.stderr)
            elif check["target"] != "games" and (outcome["finding"] or not counts.get("requests")):
                print(f"warning: {check['target']} of the unmutated {game}: {counts} {outcome['finding'] or ''}",
                      file=sys.stderr)


def fuzz(args) -> dict:
    games = args.games
    files = {g: mutations.game_files(g) for g in games}  # each worker parses a YAML file when it first mutates it
    Path(args.findings).mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="ludolex-fuzz-"))
    started = time.monotonic()
    totals: dict = defaultdict(Counter)
    signatures: dict = {}
    tallies: dict = defaultdict(Counter)
    cpu_before = cpu_seconds()
    try:
        warm_up(games, files, work, args.timeout, args.targets)
        gc.collect()
        gc.freeze()
        options = {"seed": args.seed, "timeout": args.timeout, "findings": str(Path(args.findings).resolve()),
                   "keep": args.keep, "targets": args.targets}
        context = multiprocessing.get_context("fork")
        with context.Pool(args.jobs, initializer=start_worker, initargs=(options, games, files, work)) as pool:
            last_progress = time.monotonic()
            try:
                for done, outcome in enumerate(pool.imap_unordered(run_input, range(args.first, args.first + args.inputs), chunksize=2), 1):
                    count(outcome, totals, signatures, tallies)
                    if time.monotonic() - last_progress > args.progress:
                        last_progress = time.monotonic()
                        print(progress_line(done, args.inputs, totals[("total", "")], started), file=sys.stderr)
                pool.close()
            except KeyboardInterrupt:
                print("interrupted: counting the inputs done so far", file=sys.stderr)
                pool.terminate()
            pool.join()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    elapsed = time.monotonic() - started
    report = build_report(args, totals, signatures, tallies, elapsed)
    cpu = cpu_seconds() - cpu_before
    report["cpu_seconds_per_input"] = round(cpu / max(1, report["totals"]["inputs"]), 3)
    report["projected_inputs_per_second"] = round(args.jobs / max(1e-9, report["cpu_seconds_per_input"]), 1)
    return report


def cpu_seconds() -> float:
    """CPU time of this process and of every process it has waited for (workers and their children)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def count(outcome: dict, totals, signatures, tallies) -> None:
    for key in (("total", ""), (outcome["game"], ""), (outcome["game"], outcome["kind"])):
        totals[key].update(outcome["counts"])
        totals[key]["seconds"] += outcome["seconds"]
        totals[key]["cpu"] += outcome["cpu"]
    details = outcome["details"]
    tallies["codes"].update(details.get("codes") or [])
    tallies["game_errors"].update(normalized(e) for e in details.get("game_errors", []))
    tallies["causes"].update(details.get("causes", []))
    tallies["gaps"].update(details.get("gaps", []))
    tallies["answers"].update(f"{outcome['game']} {answer}" for answer in details.get("answers", []))
    if outcome["finding"]:
        key, signature, _ = outcome["finding"]
        entry = signatures.setdefault((key, signature), {"finding": FINDINGS[key], "signature": signature, "count": 0,
                                                          "games": Counter(), "saved": []})
        entry["count"] += 1
        entry["games"][f"{outcome['game']}/{outcome['kind']}"] += 1
        if outcome.get("saved"):
            entry["saved"].append(outcome["saved"])


def normalized(error: str) -> str:
    error = re.sub(r"^\S+:\d+:\d+: ", "", error or "")  # the position
    return re.sub(r"\d+", "N", error)[:120]


def progress_line(done: int, total: int, counts: Counter, started: float) -> str:
    rate = done / max(1e-9, time.monotonic() - started)
    found = ", ".join(f"{header} {counts[key]}" for key, header in COLUMNS if key in FINDINGS and counts[key])
    return f"{done}/{total} inputs, {rate:.1f}/s" + (f"; {found}" if found else "")


def build_report(args, totals, signatures, tallies, elapsed: float) -> dict:
    total = totals[("total", "")]
    rows = [{"game": game, "kind": kind or "all", **{k: totals[(game, kind)][k] for k, _ in COLUMNS},
             "seconds_per_input": round(totals[(game, kind)]["seconds"] / max(1, totals[(game, kind)]["inputs"]), 3),
             "cpu_seconds_per_input": round(totals[(game, kind)]["cpu"] / max(1, totals[(game, kind)]["inputs"]), 3)}
            for game, kind in sorted(totals, key=lambda gk: (gk[0] == "total", gk[0], gk[1] != "", gk[1]))]
    findings = sorted(signatures.values(), key=lambda e: (e["finding"], -e["count"]))
    for entry in findings:
        entry["games"] = dict(entry["games"])
    return {
        "seed": args.seed, "first": args.first, "jobs": args.jobs, "timeout": args.timeout, "games": args.games,
        "targets": args.targets,
        "limits": {k: v for k, v in os.environ.items() if k.startswith("LUDOLEX_")},
        "elapsed_seconds": round(elapsed, 1), "inputs_per_second": round(total["inputs"] / max(elapsed, 1e-9), 2),
        "totals": {k: total[k] for k, _ in COLUMNS}, "rows": rows, "findings": findings,
        "diagnostic_codes": dict(tallies["codes"].most_common()),
        "game_errors": dict(tallies["game_errors"].most_common(30)),
        "game_error_causes": dict(tallies["causes"].most_common()),
        "checker_gap_classes": dict(tallies["gaps"].most_common()),
        "answers": dict(sorted(tallies["answers"].items())),
    }


def print_report(report: dict) -> None:
    headers = ["game", "kind"] + [header for _, header in COLUMNS] + ["s/input", "cpu/in"]
    names = [len(row["game"]) for row in report["rows"]] + [len(row["kind"]) for row in report["rows"]]
    widths = [max([9, *names])] * 2 + [max(6, len(h)) for h in headers[2:]]
    print(" ".join(h.rjust(w) if i > 1 else h.ljust(w) for i, (h, w) in enumerate(zip(headers, widths))))
    for row in report["rows"]:
        cells = [row["game"], row["kind"]] + [str(row[k]) for k, _ in COLUMNS] + [f"{row['seconds_per_input']:.3f}", f"{row['cpu_seconds_per_input']:.3f}"]
        print(" ".join(c.rjust(w) if i > 1 else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths))))
    print(f"\n{report['totals']['inputs']} inputs in {report['elapsed_seconds']}s: {report['inputs_per_second']} inputs/s "
          f"on {report['jobs']} jobs (timeout {report['timeout']}s per phase); {report['cpu_seconds_per_input']} CPU s per "
          f"input in all: {report['projected_inputs_per_second']} inputs/s on {report['jobs']} idle cores")
    if report["game_error_causes"]:
        causes = ", ".join(f"{name} {n}" for name, n in report["game_error_causes"].items())
        print(f"recorded game errors by the exception behind them: {causes}")
    if report["answers"]:
        print("answers of serve (HTTP status) and lsp: " + ", ".join(f"{k} {n}" for k, n in report["answers"].items()))
    if report["checker_gap_classes"]:
        print("\nchecker gaps by class (games that stopped on an error validate could have found):")
        for gap, n in report["checker_gap_classes"].items():
            print(f"  {n:6}  {gap}")
    if report["findings"]:
        print("\nfindings (kind, count, signature, an example):")
        for entry in report["findings"]:
            example = entry["saved"][0] if entry["saved"] else "(not saved: --keep reached)"
            print(f"  {entry['finding']:17} {entry['count']:6}  {entry['signature'][:110]}\n  {'':24} {example}")
    else:
        print("no crash, hang, code execution, file access, leak or checker gap")


# --- replay ------------------------------------------------------------------------------------

def replay(folder: Path, timeout: float | None, in_process: bool) -> int:
    """Run a saved finding again, on a copy of its input (or its session on a new table or workspace);
    print what happened."""
    info = json.loads((folder / "finding.json").read_text(encoding="utf-8"))
    changed = {k: v for k, v in info.get("limits", {}).items() if os.environ.get(k) != v}
    if changed:
        print(f"note: the finding was made with {changed}; set them to reproduce exactly", file=sys.stderr)
    timeout = timeout or info.get("timeout", 5)
    work = Path(tempfile.mkdtemp(prefix="ludolex-replay-"))
    try:
        if info.get("target") in ("serve", "lsp"):
            plan, place, mutated = session_to_replay(folder, info, work, timeout)
            print(f"{info['finding']}: {info['signature']}\n{info['target']} on {info['game']}: "
                  f"{folder / 'session.json'}")
        else:
            plan, place, mutated = input_to_replay(folder, info, work)
            print(f"{info['finding']}: {info['signature']}\n{info['game']} {info['file']}: {'; '.join(info['ops'])}")
        if in_process:  # exceptions propagate with their whole traceback; no timeout
            os.chdir(place)
            child_work(plan, lambda **m: print(json.dumps(m, default=str)[:2000]))
            return 0
        output = work / "output.txt"
        result = run_child(plan, place, output, timeout, allowed_places(place, output))
        text = read_output(output)
        outcome = classify(result, (place / SENTINEL).exists(), text, mutated)
        for message in result["messages"]:
            shown = {k: ({**v, "traceback": "(below)"} if k == "crash" else v) for k, v in message.items()}
            print(json.dumps(shown, default=str)[:3000])
        print(f"\nnow: {outcome['counts']}")
        if outcome["finding"]:
            key, signature, details = outcome["finding"]
            print(f"reproduced: {FINDINGS[key]}: {signature}")
            if isinstance(details, dict) and details.get("traceback"):
                print(details["traceback"])
        else:
            print("not reproduced")
        if text.strip():
            print("\nthe child's output (stderr, stack dumps):\n" + text[-20_000:])
        return 1 if outcome["finding"] else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


def input_to_replay(folder: Path, info: dict, work: Path) -> tuple[dict, Path, bytes]:
    """A mutated game's finding: the plan, the copy of its input, the mutated file's bytes."""
    sandbox = work / "input"
    shutil.copytree(folder / "input", sandbox)
    (sandbox / ".git").mkdir(exist_ok=True)  # saved before copies were marked as projects
    plan = {k: (str(sandbox / v) if k in ("ruleset", "scenario") and v else v) for k, v in info["plan"].items()}
    plan["games"] = [tuple(g) for g in plan["games"]]
    plan.setdefault("target", "games")
    mutated = sandbox / info["file"]
    return plan, sandbox, mutated.read_bytes() if mutated.is_file() else b""


def session_to_replay(folder: Path, info: dict, work: Path, timeout: float) -> tuple[dict, Path, bytes]:
    """A serve or lsp finding: the plan with its saved session, and a new pristine game or workspace."""
    plan = {**info["plan"], **json.loads((folder / "session.json").read_text(encoding="utf-8"))}
    game, files = info["game"], mutations.game_files(info["game"])
    if plan["target"] == "serve":
        sandbox = build_sandbox(files, work / "game")
        RULESETS[game] = (sandbox, load_ruleset(sandbox / "ruleset"))
        served_table(game, plan["debug"])
        return plan, sandbox, b""
    workspace = build_sandbox(files, work / "workspace")
    fuzz_lsp.add_extras(workspace, plan.get("linked", False))
    plan.update(workspace=str(workspace), timeout=timeout)
    return plan, workspace, b""


# --- the command line ------------------------------------------------------------------------------

def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--inputs", type=int, default=1000, help="how many mutated inputs to try")
    parser.add_argument("--seed", type=int, default=0, help="the inputs are a function of the seed and their number")
    parser.add_argument("--first", type=int, default=0, help="the number of the first input (a long run in parts: "
                        "--first 0 --inputs 30000, then --first 30000 --inputs 20000)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--games", default=",".join(GAMES), help="games to fuzz, comma-separated (default: every game "
                        "of rulesets/)")
    parser.add_argument("--targets", default=",".join(TARGETS), help="what to fuzz, comma-separated: games (mutated "
                        "files), serve (requests to the web page's server), lsp (messages to the language server)")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds allowed to each phase of an input")
    parser.add_argument("--findings", default="fuzz-findings", help="folder for reproducers of crashes and hangs")
    parser.add_argument("--keep", type=int, default=3, help="reproducers saved per signature and worker")
    parser.add_argument("--report", help="write the counts and findings to this JSON file")
    parser.add_argument("--progress", type=float, default=15.0, help="seconds between progress lines")
    parser.add_argument("--replay", type=Path, help="run a saved finding again")
    parser.add_argument("--in-process", action="store_true", help="with --replay: no child, no timeout")
    args = parser.parse_args(argv)
    args.games = [g for g in args.games.split(",") if g]
    unknown = [g for g in args.games if not (ROOT / "rulesets" / g / "game.yaml").exists()]
    if unknown:
        parser.error(f"--games: no ruleset {', '.join(unknown)}")
    args.targets = [t for t in args.targets.split(",") if t]
    if not args.targets or set(args.targets) - set(TARGETS):
        parser.error(f"--targets: some of {', '.join(TARGETS)}")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    install_hooks()
    if args.replay:
        return replay(args.replay, args.timeout if "--timeout" in (argv or sys.argv) else None, args.in_process)
    report = fuzz(args)
    print_report(report)
    if args.report:
        Path(args.report).write_text(json.dumps(report, indent=2, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
