"""Where a table is and what a host asks for: an address ``HOST:PORT/TABLE`` as a
person types it (:func:`parse_address`) and the table a host orders (:class:`TableOrder`),
the values the front ends hand to :mod:`.connection` and :mod:`.runner`."""

from __future__ import annotations

from dataclasses import dataclass

from atout.core import Rules

from .protocol import DEFAULT_PORT


@dataclass(frozen=True)
class Address:
    """Where a table is: ``host:port/TABLE``."""

    host: str
    port: int
    table: str

    def __str__(self) -> str:
        return f"{self.host}:{self.port}/{self.table}"

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"ws://{host}:{self.port}"


def parse_address(text: str) -> Address:
    """``HOST:PORT/TABLE`` (``HOST/TABLE`` takes the default port); anything else is a
    :class:`ValueError` that says what is expected."""
    where, slash, table = text.strip().partition("/")
    if not slash or not table or not where:
        raise ValueError(
            f"expected HOST:PORT/TABLE, like 192.168.1.5:{DEFAULT_PORT}/K7QX2M, not {text!r}"
        )
    host, colon, port = where.rpartition(":")
    if not colon:
        host, port = where, str(DEFAULT_PORT)
    host = host.strip("[]")
    if not port.isdigit() or not 0 < int(port) < 65536 or not host:
        raise ValueError(f"expected HOST:PORT/TABLE with a port 1..65535, not {text!r}")
    return Address(host, int(port), table.upper())


@dataclass(frozen=True)
class TableOrder:
    """The table a host asks for: its resolved rules (they travel with the table, a pack's
    too), the bot that plays its empty seats, the seed its deals come from (``None``: a
    random one) and the name the host sits under at seat 0 (``""``: "Host").  Made once
    where the host's choices are read (``atout play --host``, the window's "Host a
    table") and handed down to the server that creates the table."""

    rules: Rules
    bot: str = "greedy"
    seed: int | None = None
    name: str = ""
