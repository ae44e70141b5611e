"""Who may ask the page's server what.

A played game gives each person's seat a link of its own, `http://HOST:PORT/?token=SECRET`: the page
sends the secret with every request (`Authorization: Bearer SECRET`), and the server answers it only
about the seats that secret grants (the player's own view, and the spectator's). `--debug` adds a
link to every view, for the person who started the server; a replay, of a game already played, has
one link that shows everything.

A request whose Host is not an address of this server is refused, whatever it carries: that is how a
hostile page reaches a server on 127.0.0.1 (DNS rebinding: its own name made to point here). So is
one whose Origin is another page's.
"""
from __future__ import annotations

import ipaddress
import secrets
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from interpreter.interfaces.web.table import ALL, SPECTATOR, Logged, Played

LOOPBACK_NAMES = {"127.0.0.1", "localhost", "::1"}
EVERY_ADDRESS = {"0.0.0.0", "::", ""}


@dataclass(frozen=True)
class Link:
    """A link the server prints: `name` says whose (a player, or ALL: every view); `seats` the views it
    opens, `seat` the one the page shows first."""
    name: str
    token: str
    seats: tuple[str, ...]
    seat: str


def links_of(table: Logged) -> list[Link]:
    if not isinstance(table, Played):
        return [Link(ALL, secrets.token_urlsafe(16), tuple(table.viewers), ALL)]
    links = [Link(human, secrets.token_urlsafe(16), (human, SPECTATOR), human) for human in table.humans]
    if table.debug:
        first = table.humans[0] if table.humans else ALL
        links.append(Link(ALL, secrets.token_urlsafe(16), tuple(table.viewers), first))
    return links


def is_loopback(host: str) -> bool:
    host = host.strip("[]").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return False


class Access:
    """The links of a table, and the addresses (`host`, `port`: where the server listens) requests may name."""

    def __init__(self, table: Logged, host: str = "127.0.0.1", port: int = 8000):
        self.links, self.host, self.port = links_of(table), host, port

    def url(self, link: Link) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/?token={link.token}"

    def link_of(self, authorization: str | None) -> Link | None:
        """The link whose secret a request carries (`Bearer SECRET`), or None."""
        scheme, _, token = (authorization or "").partition(" ")
        if scheme.lower() != "bearer" or not token:
            return None
        found = None
        for link in self.links:  # each compared in constant time, all of them every time
            if secrets.compare_digest(link.token.encode(), token.strip().encode()):
                found = link
        return found

    def host_allowed(self, header: str | None) -> bool:
        """Whether a request's Host names this server: a loopback name or the address it listens on, with
        its port. Listening on every address, any IP address is one of its own (a rebinding page has a
        name, never an address), and so are this machine's names."""
        try:
            parsed = urlsplit("//" + (header or ""))
            name, port = parsed.hostname or "", parsed.port or 80
        except ValueError:
            return False
        if port != self.port:
            return False
        listened = self.host.strip("[]").lower()
        if name in LOOPBACK_NAMES or name == listened:
            return True
        if listened in EVERY_ADDRESS:
            return _is_address(name) or name in {socket.gethostname().lower(), socket.getfqdn().lower()}
        return False
