"""Where atout keeps a person's files: saved matches, deal records, settings."""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """atout's data folder: ``$XDG_DATA_HOME/atout``, by default ``~/.local/share/atout``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "atout"
