"""Where atout keeps a person's files: saved matches, deal records, settings."""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """atout's data folder: ``$XDG_DATA_HOME/atout``, by default ``~/.local/share/atout``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "atout"


def new_path(folder: Path, stem: str, suffix: str = ".json") -> Path:
    """A file name of its own in ``folder``: ``STEM.json``, else ``STEM-2.json`` and so
    on.  The file is created empty at once (never replacing one), so two writers cannot
    take the same name; the caller then writes it whole."""
    folder.mkdir(parents=True, exist_ok=True)
    n = 1
    while True:
        path = folder / (stem + (f"-{n}" if n > 1 else "") + suffix)
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
        except FileExistsError:
            n += 1
            continue
        return path
