"""Which requests the server answers: only those whose Host header names a loopback interface or a name the
server was told to serve on, so that a page of another site cannot reach the games (DNS rebinding)."""

from __future__ import annotations

import ipaddress
import json
import re


LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")


def _host_of(header: str | None) -> str | None:
    """The host name of a Host header, lower case and without its port; None when it is not a host[:port]."""
    if not header:
        return None
    value = header.strip().lower()
    if value.startswith("["):  # an IPv6 address: [::1] or [::1]:8000
        end = value.find("]")
        name, rest = value[1:end], value[end + 1:]
        if end < 0 or (rest and not (rest[:1] == ":" and rest[1:].isdigit())):
            return None
        try:
            return str(ipaddress.IPv6Address(name))
        except ValueError:
            return None
    name, colon, port = value.partition(":")
    if (colon and not port.isdigit()) or not name or not re.fullmatch(r"[a-z0-9._-]+", name):
        return None
    return name[:-1] if name.endswith(".") else name


def _host_name(host: str) -> str | None:
    """A host to serve on as a Host header names it: `mybox.lan`, `192.168.1.5`, `fe80::1` or `[fe80::1]`."""
    try:
        return str(ipaddress.IPv6Address(host.strip()))
    except ValueError:
        return _host_of(host)


def _is_loopback(name: str) -> bool:
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


class HostCheck:
    """Refuses (403) every request whose Host header does not name this machine's loopback interface or one
    of ``hosts``: a page of another site that points its own name at 127.0.0.1 (DNS rebinding) sends that
    name, and so cannot read or play the games here."""

    def __init__(self, app, hosts=()):
        self.app = app
        self.hosts = frozenset(h for h in (_host_name(x) for x in hosts) if h and not _is_loopback(h))

    def allowed(self, header: str | None) -> bool:
        name = _host_of(header)
        return name is not None and (_is_loopback(name) or name in self.hosts)

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        header = next((v.decode("latin-1") for k, v in scope.get("headers", ()) if k == b"host"), None)
        if self.allowed(header):
            return await self.app(scope, receive, send)
        if scope["type"] == "websocket":
            return await send({"type": "websocket.close", "code": 1008})
        shown = ", ".join(LOOPBACK_NAMES + tuple(sorted(self.hosts)))
        detail = (f"this caput server answers only requests addressed to {shown} (any port); the Host header "
                  f"here is {header!r}. A page of another site cannot reach the games on this machine. "
                  "To serve on another name, start the server with --host NAME.")
        body = json.dumps({"detail": detail}).encode("utf-8")
        await send({"type": "http.response.start", "status": 403,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
