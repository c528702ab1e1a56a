"""Whether a window can open here: asked before arcade is imported.

``atout play`` on a machine without a display must say so in one line, not fail in the
middle of loading OpenGL; this module imports nothing heavy.
"""

from __future__ import annotations

import os
import sys


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
