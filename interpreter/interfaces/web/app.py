"""The web page of `ludolex serve`: a Flask application over one table (a game played or replayed).

    GET  /                      the page (static HTML, CSS and JavaScript: nothing to build)
    GET  /api/table             the game, its board, the seats this link may see, and the mode
    GET  /api/state?seat=S      the game as seat S sees it (a player, `(spectator)`, or `(all)`)
    POST /api/choose            {"seat", "index"}: answer the seat's decision; the bots then play
    POST /api/why               {"seat", "label"} or {"seat", "picks"}: why that option is not offered
    POST /api/undo              {"seat"}: back to the seat's previous decision
    POST /api/goto              {"step"}: a replay, after that many choices

Every request of /api/ carries the secret of a link (`Authorization: Bearer SECRET`, see `access`),
and names only the seats it grants. Every answer is JSON; a request the game cannot take is a 400
whose `error` says why, one that is not allowed a 403.
"""
from __future__ import annotations

from pathlib import Path

from flask import Flask, g, jsonify, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from interpreter.interfaces.web.access import Access, Link
from interpreter.interfaces.web.table import ALL, Logged, Played, Refused, Replayed, table_info

STATIC = Path(__file__).parent / "static"
LARGEST_REQUEST = 64 * 1024  # bytes: an answer, a label or a few clicks
LONGEST_LABEL = 300  # characters of a label asked about
MOST_PICKS = 20  # clicks explained at once


class Forbidden(Exception):
    """A request this caller may not make (another seat's view, no link, another site): a 403."""


def _number(value, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise Refused(f"`{name}` must be a whole number")
    return value


def _picks(value) -> list[list[str]]:
    if not (isinstance(value, list) and all(isinstance(p, list) and all(isinstance(t, str) for t in p) for p in value)):
        raise Refused("`picks` must be a list of lists of targets")
    if len(value) > MOST_PICKS:
        raise Refused(f"at most {MOST_PICKS} clicks are explained at once")
    return value


def _label(value) -> str | None:
    if value is not None and not isinstance(value, str):
        raise Refused("`label` must be a text")
    if value is not None and len(value) > LONGEST_LABEL:
        raise Refused(f"a label of at most {LONGEST_LABEL} characters")
    return value


def create_app(table: Logged, access: Access | None = None) -> Flask:
    """The page's server over `table`, open to the links of `access` (by default new ones, on 127.0.0.1:8000)."""
    access = access or Access(table)
    app = Flask(__name__, static_folder=str(STATIC), static_url_path="/static")
    app.config["MAX_CONTENT_LENGTH"] = LARGEST_REQUEST

    def posted() -> dict:
        try:
            data = request.get_json(silent=True)
        except RecursionError:  # lists nested a thousand deep: Python's decoder gives up
            raise Refused("the request's JSON is nested too deeply") from None
        return data if isinstance(data, dict) else {}

    def granted(seat) -> str:
        """The seat named, if this request's link may see it."""
        link: Link = g.link
        if not isinstance(seat, str):
            raise Refused("name the seat (`seat`)")
        if seat not in link.seats:
            raise Forbidden(f"this page's link is not for the seat `{seat}` (it is for {', '.join(link.seats)})")
        return seat

    @app.before_request
    def checked():
        if not access.host_allowed(request.headers.get("Host")):
            raise Forbidden("this server answers only at its own address (Host)")
        origin = request.headers.get("Origin")
        if origin is not None and origin.lower() != f"http://{request.host}".lower():
            raise Forbidden("this server answers only its own page (Origin)")
        if request.path.startswith("/api/"):
            g.link = access.link_of(request.headers.get("Authorization"))
            if g.link is None:
                raise Forbidden("open the page by the link `ludolex serve` printed: it carries your seat's key")

    @app.errorhandler(Refused)
    def refused(error: Refused):
        return jsonify(error=str(error)), 400

    @app.errorhandler(Forbidden)
    def forbidden(error: Forbidden):
        return jsonify(error=str(error)), 403

    @app.errorhandler(RequestEntityTooLarge)
    def too_large(error: RequestEntityTooLarge):
        return jsonify(error=f"a request of at most {LARGEST_REQUEST // 1024} KB"), 413

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
            return jsonify({**table_info(table), "seats": list(g.link.seats), "seat": g.link.seat})

    @app.get("/api/state")
    def state():
        seat = granted(request.args.get("seat", g.link.seat))
        with table.lock:
            return jsonify(table.state(seat))

    @app.post("/api/choose")
    def choose():
        data = posted()
        if not isinstance(table, Played):
            raise Refused("a replay takes no answers")
        seat, index = granted(data.get("seat")), _number(data.get("index"), "index")
        with table.lock:
            table.take(seat, index)
            return jsonify(table.state(seat))

    @app.post("/api/why")
    def why():
        data = posted()
        seat, label = granted(data.get("seat")), _label(data.get("label"))
        picks = None if label else _picks(data.get("picks"))
        with table.lock:
            return jsonify(answers=table.why_not(seat, label, picks))

    @app.post("/api/undo")
    def undo():
        data = posted()
        if not isinstance(table, Played):
            raise Refused("a replay has nothing to undo: step back instead")
        seat = granted(data.get("seat"))
        with table.lock:
            said = table.undo(seat)
            return jsonify({**table.state(seat), "said": said})

    @app.post("/api/goto")
    def goto():
        data = posted()
        if not isinstance(table, Replayed):
            raise Refused("only a replay steps through its choices")
        seat, step = granted(data.get("seat", ALL)), _number(data.get("step"), "step")
        with table.lock:
            table.goto(step)
            return jsonify(table.state(seat))

    return app


def serve(app: Flask, access: Access, started) -> None:
    """Serve until Ctrl-C at `access.host` and `access.port` (0: a free one, then written in `access`);
    `started()` is called once the server listens."""
    import logging

    from werkzeug.serving import make_server

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    server = make_server(access.host, access.port, app, threaded=True)
    access.port = server.server_port
    started()
    try:
        server.serve_forever()
    finally:
        server.server_close()
