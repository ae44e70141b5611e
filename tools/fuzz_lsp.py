"""The `lsp` target of tools/fuzz.py: mutated sessions of JSON-RPC messages to `ludolex lsp`.

The server is the command an editor starts (`ludolex lsp`, interpreter.interfaces.cli), run in a
process of its own over pipes for its standard input and output: the fuzzer's child forks it from
its warm worker (the engine already imported) and speaks the protocol to it, as an editor does.

The workspace is a copy of a game (see tools/fuzz.py) with, in `ruleset/extra/` and beside it,
files an editor may name but the server must not read: links to /etc/passwd, /proc/self/environ
and /dev/zero, a FIFO, a link in a loop, and a file outside the workspace. A quarter of the
sessions (LINKED_SHARE) have such links and a FIFO among the game's own files too (LINKED), as a
stranger's pull request may: the server's checks then meet them.

A session: `initialize` (the workspace as root, or none, or an odd one),
`initialized`, `didOpen` of one of the game's files with a text mutated by tools/fuzz_mutations.py,
requests (hover, completion, definition, references, prepareRename, rename, methods the server does
not know), a `didChange` to another mutated text, more requests, now and then `didSave`, `didClose`,
a message that is not JSON or not a request; then `shutdown` and `exit`. A request names the opened
document, another file of the game, one of the files above, a file outside, or a malformed uri, at a
place in its text or an odd one (negative, huge, not a number), its parameters now and then malformed.
The uris hold WORKSPACE, replaced by the workspace's folder when the session runs (a saved session
replays on a new copy).

Each request must be answered (a result or an error) within the timeout: one that is not is a hang,
and the session stops there (the server's stack is printed first). The server exiting before `exit`
is a crash; a file it reads outside the workspace is reported by tools/fuzz.py's audit hook, which
the server inherits.
"""
from __future__ import annotations

import json
import os
import random
import select
import signal
import sys
import time
from pathlib import Path

WORKSPACE = "@@workspace"
OUTSIDE_FILE = "outside-secret.rules"  # beside the workspace, never inside it
EXTRAS = {  # ruleset/extra/NAME -> what it is
    "passwd.rules": "/etc/passwd", "environ.rules": "/proc/self/environ", "zero.rules": "/dev/zero",
    "loop.rules": "loop.rules", "out.rules": f"../../../{OUTSIDE_FILE}",
}
FIFO = "fifo.rules"
LINKED = {  # in a linked workspace, among the game's files: path -> where the link leads
    "ruleset/zz_passwd.rules": "/etc/passwd", "ruleset/zz_environ.rules": "/proc/self/environ",
    "ruleset/tests/zz_zero.yaml": "/dev/zero", "ruleset/bots/zz_out.yaml": f"../../../{OUTSIDE_FILE}",
}
LINKED_FIFO = "ruleset/zz_fifo.rules"
LINKED_SHARE = 0.25
ANSWER_SHARE = 0.8  # of the phase's timeout, waited for an answer before it is a hang (tools/fuzz.py kills at 1)
PUBLISH_WAIT = 1.0  # seconds waited for diagnostics after an edit (a check that changes none publishes none)

REQUESTS = [  # (method, weight)
    ("textDocument/hover", 5), ("textDocument/completion", 5), ("textDocument/definition", 4),
    ("textDocument/references", 3), ("textDocument/prepareRename", 2), ("textDocument/rename", 3),
    ("textDocument/documentSymbol", 1), ("workspace/symbol", 1), ("textDocument/formatting", 1), ("nope/nothing", 1),
]
ODD_URIS = ["file:///etc/passwd", "file:///proc/self/environ", "file:///dev/zero", "file:///dev/stdin",
            "file:///proc/self/fd/0", "file:///", "file://", "file:", "", "untitled:Untitled-1",
            "http://evil.example/x.rules",
            "file:///nonexistent/game.yaml", "file://evil.example/etc/passwd", "file:///%00", "file:///a%00b.rules",
            "not a uri", "file:" + "/a" * 5000, "file:///tmp/../etc/passwd", f"file://{WORKSPACE}/../{OUTSIDE_FILE}",
            f"file://{WORKSPACE}/ruleset/%2e%2e/%2e%2e/{OUTSIDE_FILE}", f"file://{WORKSPACE}/ruleset",
            f"file://{WORKSPACE}/.git", f"file://{WORKSPACE}/ruleset/nope.rules", "file:///dev/urandom"]
ODD_NUMBERS = [-1, -(2**31), 2**31, 2**31 - 1, 2**63, 10**20, 1.5, "0", None, True, [], {}]
ODD_PARAMS = [None, [], "x", 0, {}, {"textDocument": "x"}, {"textDocument": {"uri": 1}}, {"position": {}},
              {"textDocument": {}, "position": {"line": 0, "character": 0}}]
GARBAGE = ["{", "[]", "[{}]", "null", "1", '"x"', '{"jsonrpc": "1.0", "id": 1, "method": "textDocument/hover"}',
           '{"jsonrpc": "2.0", "method": 1}', '{"jsonrpc": "2.0", "id": true, "method": "textDocument/hover"}',
           '{"jsonrpc": "2.0", "id": [1], "method": "shutdown"}', '{"jsonrpc": "2.0", "result": 1, "id": 12345}',
           '{"jsonrpc": "2.0", "id": 9, "error": {"code": 1}}', "\udcff\udcfe", "\x00",
           '{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": 1}}',
           '{"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 99999}}',
           '{"a": ' * 10_000 + "1" + "}" * 10_000]


# --- the workspace ------------------------------------------------------------------------------------

def add_extras(workspace: Path, linked: bool) -> None:
    """The files of the module's second paragraph, in a copy of a game."""
    extra = workspace / "ruleset" / "extra"
    extra.mkdir(parents=True, exist_ok=True)
    (workspace.parent / OUTSIDE_FILE).write_text("variable secret_of_the_machine = 1\n", encoding="utf-8")
    for name, target in EXTRAS.items():
        (extra / name).symlink_to(target)
    os.mkfifo(extra / FIFO)
    if linked:
        for path, target in LINKED.items():
            (workspace / path).parent.mkdir(parents=True, exist_ok=True)
            (workspace / path).symlink_to(target)
        os.mkfifo(workspace / LINKED_FIFO)


def workspace_uris(files, linked: bool) -> list[str]:
    """Uris of files of the game's copy and of the extras (WORKSPACE for its folder)."""
    inside = [f"file://{WORKSPACE}/{path}" for path in files.sandbox + ([*LINKED, LINKED_FIFO] if linked else [])]
    return inside + [f"file://{WORKSPACE}/ruleset/extra/{name}" for name in [*EXTRAS, FIFO]]


# --- sessions -------------------------------------------------------------------------------------

def session(rng: random.Random, files, mutate, linked: bool) -> list[dict]:
    """The messages of one input: each {"message": a JSON-RPC message} or {"raw": a text sent as it is}.
    `mutate(kind)` gives a mutation of a file of that kind (tools/fuzz_mutations.py); `linked`: the
    workspace has the files of LINKED."""
    uris = workspace_uris(files, linked)
    kind = rng.choice(sorted(files.kinds))
    first = mutate(kind)
    opened = f"file://{WORKSPACE}/{first.path}"
    texts = {opened: decode(first.data)}
    messages = [request("initialize", initialize_params(rng)), notification("initialized", {})]
    opened_as = rng.choice(["ludolex", "yaml", "", "plaintext"]) if rng.random() < 0.2 else \
        ("ludolex" if first.path.endswith(".rules") else "yaml")
    messages.append(notification("textDocument/didOpen", {"textDocument": {
        "uri": opened, "languageId": opened_as, "version": 1, "text": texts[opened]}}))
    messages.append({"wait": "diagnostics"})
    messages += requests(rng, uris, opened, texts[opened])
    if rng.random() < 0.8:
        second = mutate(kind) if rng.random() < 0.7 else mutate(rng.choice(sorted(files.kinds)))
        changed = opened if second.path == first.path or rng.random() < 0.7 else f"file://{WORKSPACE}/{second.path}"
        text = decode(second.data)
        messages.append(notification("textDocument/didChange", change_params(rng, changed, text)))
        messages.append({"wait": "diagnostics"})
        messages += requests(rng, uris, changed, text)
    for method in ("textDocument/didSave", "textDocument/didClose"):
        if rng.random() < 0.15:
            messages.append(notification(method, {"textDocument": {"uri": any_uri(rng, uris, opened)}}))
    if rng.random() < 0.2:
        messages.append({"raw": rng.choice(GARBAGE)})
        messages += requests(rng, uris, opened, texts[opened], count=1)
    messages += [request("shutdown", None), notification("exit", None)]
    for number, message in enumerate(messages):  # ids in order, from 1
        if "id" in message.get("message", {}):
            message["message"]["id"] = number + 1
    return messages


def request(method: str, params) -> dict:
    return {"message": {"jsonrpc": "2.0", "id": 0, "method": method, "params": params}}


def notification(method: str, params) -> dict:
    return {"message": {"jsonrpc": "2.0", "method": method, "params": params}}


def decode(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")  # what an editor holds is text: no lone surrogates in JSON


def initialize_params(rng) -> dict:
    root = rng.choices([f"file://{WORKSPACE}", None, f"file://{WORKSPACE}/ruleset", "untitled:x", "file:///nonexistent",
                        f"file://{WORKSPACE}/ruleset/game.yaml"], weights=[10, 3, 2, 1, 1, 1])[0]
    params = {"processId": None, "rootUri": root, "capabilities": {}}
    if root is not None and rng.random() < 0.5:
        params["workspaceFolders"] = [{"uri": root, "name": "game"}]
    return params


def change_params(rng, uri: str, text: str) -> dict:
    if rng.random() < 0.8:
        changes = [{"text": text}]
    else:  # a range in a server that takes whole texts, odd or not
        line = rng.choice([0, 1, 5, 10**6, -1])
        end = {"line": line, "character": rng.choice([0, 5, -3])}
        changes = [{"range": {"start": {"line": line, "character": 0}, "end": end}, "text": text[:200]}]
    return {"textDocument": {"uri": uri, "version": rng.choice([2, 2, 0, -1, 2**40])}, "contentChanges": changes}


def requests(rng, uris: list[str], opened: str, text: str, count: int | None = None) -> list[dict]:
    found = []
    for _ in range(count or rng.randint(2, 8)):
        method = rng.choices([m for m, _ in REQUESTS], weights=[w for _, w in REQUESTS])[0]
        uri = opened if rng.random() < 0.55 else any_uri(rng, uris, opened)
        params = {"textDocument": {"uri": uri}, "position": position(rng, text)}
        if method == "textDocument/references":
            params["context"] = {"includeDeclaration": rng.random() < 0.5}
        elif method == "textDocument/rename":
            params["newName"] = rng.choice(["renamed", "x", "", "1x", "if", "a b", "é", "__class__", "x" * 10_000,
                                            "green", "zz_new"])
        elif method == "workspace/symbol":
            params = {"query": rng.choice(["", "a", "x" * 1000])}
        elif method == "textDocument/formatting":
            params["options"] = {"tabSize": 4, "insertSpaces": True}
        if rng.random() < 0.15:
            params = odd_params(rng, params)
        found.append(request(method, params))
    return found


def any_uri(rng, uris: list[str], opened: str) -> str:
    return rng.choice([opened] + uris + ODD_URIS)


def position(rng, text: str) -> dict:
    lines = text.split("\n")
    if rng.random() < 0.8:  # a place in the text: on a name, mostly
        line = rng.randrange(len(lines))
        return {"line": line, "character": rng.randint(0, len(lines[line]) + 1)}
    return {"line": rng.choice(ODD_NUMBERS + [len(lines), len(lines) + 1]),
            "character": rng.choice(ODD_NUMBERS + [0, 10**6])}


def odd_params(rng, params: dict):
    choice = rng.randrange(4)
    if choice == 0:
        return rng.choice(ODD_PARAMS)
    params = dict(params)
    if choice == 1:
        params.pop(rng.choice(sorted(params)), None)
    elif choice == 2:
        params[rng.choice(sorted(params))] = rng.choice(ODD_NUMBERS + ["x", "file:///etc/passwd"])
    else:
        params["textDocument"] = {"uri": rng.choice(ODD_URIS), "extra": 1}
    return params


# --- running a session (in the child) ------------------------------------------------------------------

def run_session(messages: list[dict], workspace: Path, timeout: float, send, fork) -> None:
    """Start the server (`fork`: os.fork, allowed by the audit hook), send the messages, report each
    answer, and a crash or a hang; `send(**message)` reports to the fuzzer."""
    send(phase="lsp start")
    server = Server(workspace, fork)
    waited = ANSWER_SHARE * timeout
    try:
        for number, item in enumerate(messages):
            item = json.loads(json.dumps(item).replace(WORKSPACE, str(workspace)))
            message = item.get("message")
            what = message.get("method") if message else ("raw" if "raw" in item else "wait for diagnostics")
            send(phase=f"lsp message {number} {what}")
            if "wait" in item:
                server.wait_for_diagnostics(min(PUBLISH_WAIT, waited))
                continue
            written = server.write(item.get("raw") if message is None else json.dumps(message), waited)
            if written != "sent":
                if written == "blocked":
                    server.dump_stack()
                    send(target_finding="hang", signature=f"the server reads no more messages (at {what})",
                         details={"message": number})
                else:
                    report_crash(server, number, what, send)
                return
            if what == "exit":
                if not server.exited(waited):
                    server.dump_stack()
                    send(target_finding="hang", signature="the server does not exit after `exit`",
                         details={"message": number})
                return
            if message is None or "id" not in message:
                continue
            answer = server.answer(message["id"], waited)
            if answer is None:
                if server.alive():
                    server.dump_stack()
                    send(target_finding="hang", signature=f"no answer to {what} ({request_shape(message, workspace)})",
                         details={"message": number, "sent": json.dumps(message)[:3000]})
                else:
                    report_crash(server, number, what, send)
                return
            send(answered=answer_kind(answer))
    finally:
        server.stop()


def report_crash(server, number: int, what: str, send) -> None:
    send(target_finding="crash", signature=f"the server exited ({server.status_text()}) at {what}",
         details={"message": number})


def request_shape(message: dict, workspace: Path) -> str:
    """What a request names, in a few words, and whether its parameters are odd: for a hang's signature."""
    params = message.get("params")
    document = params.get("textDocument") if isinstance(params, dict) else None
    uri = document.get("uri") if isinstance(document, dict) else None
    place = params.get("position") if isinstance(params, dict) else None
    fits = isinstance(place, dict) and all(isinstance(place.get(k), int) and not isinstance(place.get(k), bool)
                                           and 0 <= place[k] < 2**31 for k in ("line", "character"))
    odd = "" if fits else ", odd parameters"
    if not isinstance(uri, str):
        return "no uri" + odd
    for path in [*(f"extra/{name}" for name in [*EXTRAS, FIFO]), *LINKED, LINKED_FIFO]:
        if uri.endswith(path):
            return path + odd
    return ("a file of the game" if str(workspace) in uri else f"uri {uri[:40]}") + odd


def _id_key(request_id) -> str:
    """A request's id as a key: a fuzzed id may be any JSON value, a list included."""
    return json.dumps(request_id, sort_keys=True)


def answer_kind(answer: dict) -> str:
    if "error" in answer:
        error = answer["error"]
        return f"error {error.get('code')}" if isinstance(error, dict) else "error"
    return "result" if answer.get("result") is not None else "null"


class Server:
    """`ludolex lsp` in a process of its own, and the editor's end of its pipes."""

    def __init__(self, workspace: Path, fork):
        to_server, self.to_server = os.pipe()
        self.from_server, from_server = os.pipe()
        self.pid = fork()
        if self.pid == 0:
            os.dup2(to_server, 0)
            os.dup2(from_server, 1)
            for fd in (to_server, from_server, self.to_server, self.from_server):
                os.close(fd)
            run_server(workspace)
        os.close(to_server)
        os.close(from_server)
        self.buffer, self.answers, self.replies, self.published, self.status = b"", {}, [], 0, None

    def write(self, text: str, seconds: float) -> str:
        """Send a message (and the answers owed to the server's own requests): "sent", "blocked" (not
        read within `seconds`) or "closed". What the server says meanwhile is read, so that a server
        blocked writing to its full pipe is not taken for one that reads nothing."""
        data = b"".join(frame(message) for message in [*self.replies, text])
        self.replies, deadline = [], time.monotonic() + seconds
        try:
            while data:
                left = deadline - time.monotonic()
                if left <= 0:
                    return "blocked"
                readable, writable, _ = select.select([self.from_server], [self.to_server], [], left)
                if readable and not self.receive():
                    return "closed"
                if writable:
                    data = data[os.write(self.to_server, data[:1 << 16]):]
            return "sent"
        except OSError:  # BrokenPipeError: the server is gone
            return "closed"

    def answer(self, number, seconds: float) -> dict | None:
        deadline = time.monotonic() + seconds
        while _id_key(number) not in self.answers:
            if not self.read(deadline - time.monotonic()):
                return None
        return self.answers.pop(_id_key(number))

    def wait_for_diagnostics(self, seconds: float) -> None:
        deadline, before = time.monotonic() + seconds, self.published
        while self.published == before and self.read(deadline - time.monotonic()):
            pass

    def read(self, seconds: float) -> bool:
        """Read what the server sends within `seconds`; False if nothing came (or it ended)."""
        if seconds <= 0:
            return False
        ready, _, _ = select.select([self.from_server], [], [], seconds)
        return bool(ready) and self.receive()

    def receive(self) -> bool:
        """Read once what the server sent, and take in each whole message; False at its end."""
        chunk = os.read(self.from_server, 1 << 20)
        if not chunk:
            return False
        self.buffer += chunk
        while True:
            head, separator, rest = self.buffer.partition(b"\r\n\r\n")
            if not separator:
                return True
            length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                           if line.lower().startswith(b"content-length:")), 0)
            if len(rest) < length:
                return True
            body, self.buffer = rest[:length], rest[length:]
            self.received(json.loads(body))

    def received(self, message) -> None:
        if not isinstance(message, dict):
            return
        if "method" in message:
            if message["method"] == "textDocument/publishDiagnostics":
                self.published += 1
            elif "id" in message:  # a request of the server's (registerCapability...): answered with the next message
                self.replies.append(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": None}))
        elif "id" in message:
            self.answers[_id_key(message["id"])] = message

    def alive(self) -> bool:
        if self.status is None:
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                self.status = status
        return self.status is None

    def exited(self, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while self.alive():
            if time.monotonic() > deadline:
                return False
            self.read(0.05)
        return True

    def status_text(self) -> str:
        self.exited(1.0)
        if self.status is None:
            return "still running, its pipe closed"
        if os.WIFSIGNALED(self.status):
            return f"killed by {signal.Signals(os.WTERMSIG(self.status)).name}"
        return f"status {os.WEXITSTATUS(self.status)}"

    def dump_stack(self) -> None:
        """Have the server print its Python stack (faulthandler, set up by tools/fuzz.py) in the output."""
        try:
            os.kill(self.pid, signal.SIGUSR1)
            time.sleep(0.3)
        except ProcessLookupError:
            pass

    def stop(self) -> None:
        for fd in (self.to_server, self.from_server):
            try:
                os.close(fd)
            except OSError:
                pass
        if self.alive():
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(self.pid, 0)


def frame(text: str) -> bytes:
    body = text.encode("utf-8", errors="surrogateescape")
    return f"Content-Length: {len(body)}\r\n\r\n".encode() + body


def run_server(workspace: Path) -> None:
    """In the server's process: `ludolex lsp` on this process's standard input and output."""
    code = 70
    try:
        sys.stdin = open(0, "r", closefd=False)  # noqa: SIM115 - the multiprocessing worker's were /dev/null
        sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115
        os.chdir(workspace)
        from interpreter.interfaces.cli import main

        main(["lsp"], prog_name="ludolex")
        code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 1
    except BaseException:  # noqa: BLE001 - said on standard error, which the fuzzer keeps
        import traceback

        traceback.print_exc()
    finally:
        sys.stderr.flush()
        os._exit(code)


def pristine_session(files) -> list[dict]:
    """An editor opening a rules file and asking about it: the fuzzer's warm-up checks it finds nothing."""
    path = files.kinds["rules"][0]
    uri, text = f"file://{WORKSPACE}/{path}", decode(files.files[path])
    line = next((n for n, content in enumerate(text.split("\n")) if content.strip()), 0)
    place = {"textDocument": {"uri": uri}, "position": {"line": line, "character": 1}}
    messages = [request("initialize", {"processId": None, "rootUri": f"file://{WORKSPACE}", "capabilities": {}}),
                notification("initialized", {}),
                notification("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "ludolex",
                                                                      "version": 1, "text": text}}),
                {"wait": "diagnostics"}, request("textDocument/hover", place),
                request("textDocument/completion", place), request("shutdown", None), notification("exit", None)]
    for number, message in enumerate(messages):
        if "id" in message.get("message", {}):
            message["message"]["id"] = number + 1
    return messages
