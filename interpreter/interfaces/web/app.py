"""The web page of `ludolex serve`: a Flask application over one table (a game played or replayed).

    GET  /                      the page (static HTML, CSS and JavaScript: nothing to build)
    GET  /api/table             the game, its board, its seats and the mode
    GET  /api/state?seat=S      the game as seat S sees it (a player, `(spectator)`, or `(all)`)
    POST /api/choose            {"seat", "index"}: answer the seat's decision; the bots then play
    POST /api/why               {"seat", "label"} or {"seat", "picks"}: why that option is not offered
    POST /api/undo              {"seat"}: back to the seat's previous decision
    POST /api/goto              {"step"}: a replay, after that many choices

Every answer is JSON; a request the game cannot take is a 400 whose `error` says why.
"""
from __future__ import annotations

from pathlib import Path

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException

from interpreter.interfaces.web.table import ALL, SPECTATOR, Logged, Played, Refused, Replayed, table_info

STATIC = Path(__file__).parent / "static"


def _number(value, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise Refused(f"`{name}` must be a whole number")
    return value


def _picks(value) -> list[list[str]]:
    if not (isinstance(value, list) and all(isinstance(p, list) and all(isinstance(t, str) for t in p) for p in value)):
        raise Refused("`picks` must be a list of lists of targets")
    return value


def create_app(table: Logged) -> Flask:
    app = Flask(__name__, static_folder=str(STATIC), static_url_path="/static")

    def posted() -> dict:
        data = request.get_json(silent=True)
        return data if isinstance(data, dict) else {}

    def seat_of(data: dict) -> str:
        if not isinstance(data.get("seat"), str):
            raise Refused("name the seat (`seat`)")
        return data["seat"]

    @app.errorhandler(Refused)
    def refused(error: Refused):
        return jsonify(error=str(error)), 400

    @app.errorhandler(Exception)
    def failed(error: Exception):  # said in one line to the page, never as a traceback
        if isinstance(error, HTTPException):
            return jsonify(error=error.description), error.code
        return jsonify(error=f"the server failed: {type(error).__name__}: {error}"), 500

    @app.get("/")
    def page():
        return app.send_static_file("index.html")

    @app.get("/api/table")
    def info():
        with table.lock:
            default = ALL if isinstance(table, Replayed) else (table.humans[0] if table.humans else SPECTATOR)
            return jsonify({**table_info(table), "seat": default})

    @app.get("/api/state")
    def state():
        with table.lock:
            return jsonify(table.state(request.args.get("seat", SPECTATOR)))

    @app.post("/api/choose")
    def choose():
        data = posted()
        if not isinstance(table, Played):
            raise Refused("a replay takes no answers")
        with table.lock:
            seat = seat_of(data)
            table.take(seat, _number(data.get("index"), "index"))
            return jsonify(table.state(seat))

    @app.post("/api/why")
    def why():
        data = posted()
        label = data.get("label")
        if label is not None and not isinstance(label, str):
            raise Refused("`label` must be a text")
        with table.lock:
            return jsonify(answers=table.why_not(seat_of(data), label, None if label else _picks(data.get("picks"))))

    @app.post("/api/undo")
    def undo():
        data = posted()
        if not isinstance(table, Played):
            raise Refused("a replay has nothing to undo: step back instead")
        with table.lock:
            seat = seat_of(data)
            said = table.undo(seat)
            return jsonify({**table.state(seat), "said": said})

    @app.post("/api/goto")
    def goto():
        data = posted()
        if not isinstance(table, Replayed):
            raise Refused("only a replay steps through its choices")
        with table.lock:
            table.goto(_number(data.get("step"), "step"))
            return jsonify(table.state(data.get("seat") if isinstance(data.get("seat"), str) else ALL))

    return app


def serve(app: Flask, host: str, port: int, started) -> None:
    """Serve until Ctrl-C; `started(url)` is called once the server listens (port 0: a free port)."""
    import logging

    from werkzeug.serving import make_server

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    server = make_server(host, port, app, threaded=True)
    started(f"http://{host}:{server.server_port}/")
    try:
        server.serve_forever()
    finally:
        server.server_close()

