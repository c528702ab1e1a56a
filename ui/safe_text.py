"""Text from files and the network, made safe to print on a terminal.

A record's bid, a pack's description, a player's name over the network: any of them may
hold control characters.  Printed raw, an ANSI or OSC escape sequence recolours the
terminal, moves the cursor or retitles the window, and a newline forges a second line of
output.  :func:`printable` escapes every control, format and surrogate character
(``\\x1b``, ``\\u202e``, ``\\ud800``) and keeps the rest (accents, ``♥``) as it is.
"""

from __future__ import annotations

import unicodedata

UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Control, format (bidirectional overrides, zero-width), surrogate, private-use and
unassigned characters, and the line and paragraph separators."""


def _escape(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def printable(text: object, keep_newlines: bool = False) -> str:
    """``text`` with every character a terminal would act on escaped; with
    ``keep_newlines``, ``\\n`` stays (text of several lines that atout wrote itself)."""
    value = str(text)
    if value.isprintable():  # the usual case: nothing to escape
        return value
    out: list[str] = []
    for char in value:
        if keep_newlines and char == "\n":
            out.append(char)
        elif unicodedata.category(char) in UNSAFE_CATEGORIES:
            out.append(_escape(char))
        else:
            out.append(char)
    return "".join(out)
