"""Where the table keeps its files: the saved match, the deal records, the settings.

All live in atout's data directory (``$XDG_DATA_HOME/atout``, see
:func:`atout.ui.paths.data_dir`):

* ``saved-match.json`` — the match being played, written after every action and on
  quit: the match record (seed and actions, :func:`atout.core.records.match_to_record`)
  and the choices of the start view.  **Continue** re-runs the match from its seed to
  the same position (:func:`atout.core.records.match_from_record`).
* ``records/GAME-SEED-dealN.json`` — the record of every finished deal, and
  ``records/GAME-SEED.json`` the match so far (``atout replay`` reads both).
* ``settings.json`` — the last choices of the start view and the speed.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from atout.core import Deal, Engine, Match
from atout.core.errors import AtoutError
from atout.core.records import (
    deal_to_record,
    load_json,
    match_from_record,
    match_to_record,
    save_json,
)

from .paths import data_dir

SAVE_FORMAT = "atout-saved-game"
SAVE_VERSION = 1


@dataclass
class Setup:
    """What the start view chose: the game, the pack, the bots' level, the target, the seed."""

    game: str = "decouverte"
    pack: str = ""
    bot: str = "greedy"
    target: int | None = None
    seed: int | None = None
    think: float = 0.0

    @classmethod
    def from_json(cls, data: Any) -> Setup:
        """A setup from its JSON form; unknown or wrong fields fall back to the defaults."""
        setup = cls()
        if not isinstance(data, dict):
            return setup
        for key, kind in (("game", str), ("pack", str), ("bot", str)):
            if isinstance(data.get(key), kind):
                setattr(setup, key, data[key])
        for key in ("target", "seed"):
            value = data.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                setattr(setup, key, value)
        think = data.get("think")
        if isinstance(think, int | float) and not isinstance(think, bool) and think >= 0:
            setup.think = float(think)
        return setup


def saved_match_path() -> Path:
    return data_dir() / "saved-match.json"


def records_dir() -> Path:
    return data_dir() / "records"


def settings_path() -> Path:
    return data_dir() / "settings.json"


def has_saved_match() -> bool:
    """Whether a match waits to be continued."""
    return saved_match_path().is_file()


def save_match(match: Match, setup: Setup) -> Path:
    """Write the match in progress (atomically) for Continue."""
    data = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "setup": asdict(setup),
        "match": match_to_record(match),
    }
    return save_json(saved_match_path(), data)


def load_saved_match(engine: Engine) -> tuple[Setup, Match]:
    """The saved match, re-run to where it was saved.

    A missing, broken or no longer playable save (a plugin removed, a rule changed)
    raises :class:`~atout.core.errors.AtoutError` with one line that says why.
    """
    path = saved_match_path()
    data = load_json(path)
    if data.get("format") != SAVE_FORMAT or data.get("version") != SAVE_VERSION:
        raise AtoutError(f"{path}: not a saved atout match (or from another version)")
    setup = Setup.from_json(data.get("setup"))
    record = data.get("match")
    if not isinstance(record, dict):
        raise AtoutError(f"{path}: the saved match is missing")
    match = match_from_record(engine, record, str(path))
    setup.game = match.game
    return setup, match


def clear_saved_match() -> None:
    """Forget the saved match (it is over, or the person started another)."""
    saved_match_path().unlink(missing_ok=True)


def save_deal_record(match: Match, deal: Deal) -> Path:
    """Write the record of a finished deal, and of the match so far; return the deal's path."""
    number = sum(1 for d in match.deals[: match.deals.index(deal) + 1] if d.score is not None)
    folder = records_dir()
    path = save_json(
        folder / f"{match.game}-{match.seed}-deal{number:02d}.json",
        deal_to_record(deal, seed=match.seed),
    )
    save_json(folder / f"{match.game}-{match.seed}.json", match_to_record(match))
    return path


def load_settings() -> dict[str, Any]:
    """The saved settings (an empty dict when there are none or they are unreadable)."""
    try:
        data = json.loads(settings_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save_settings(settings: dict[str, Any]) -> None:
    """Keep the settings for the next start (failures to write are not worth a crash)."""
    with contextlib.suppress(OSError):
        save_json(settings_path(), settings)
