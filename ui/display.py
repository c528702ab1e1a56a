"""What the screen can show: whether a window can open here (asked before arcade is
imported) and whether the terminal shows colours.

``atout play`` on a machine without a display must say so in one line, not fail in the
middle of loading OpenGL; this module imports nothing heavy.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import TextIO


def display_problem() -> str | None:
    """Why no window can open here, or ``None`` when one can (or the headless mode is on).

    On Linux and the BSDs a window needs an X11 or Wayland display; macOS and Windows
    always have one.
    """
    if "ARCADE_HEADLESS" in os.environ:
        return None
    if sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
            return "no display to open the window on (DISPLAY is not set)"
    return None


def terminal_colours(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """Whether colour escape codes may be written to ``stream``: it is a terminal, and
    neither ``NO_COLOR`` (set and not empty, as no-color.org says) nor ``TERM=dumb``
    asks for plain text.  A file or a pipe gets plain text, so a saved transcript holds
    no escape codes."""
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR", "") != "" or env.get("TERM", "") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    if isatty is None:
        return False
    try:
        return bool(isatty())
    except (OSError, ValueError):  # a closed or detached stream
        return False
