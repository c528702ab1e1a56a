"""Where the table keeps its files: the saved match, the deal records, the settings.

All live in atout's data folder (``$XDG_DATA_HOME/atout``, see
:func:`atout.ui.paths.data_dir`):

* ``saved-match.jsonl`` — the match being played: the session's save file
  (:meth:`atout.core.session.Session.attach`), with the start view's choices beside it.
  The session writes it: whole at each deal's start and end, one line per action in
  between.  **Continue** resumes it (:meth:`atout.core.session.Session.resume`).  A save
  that cannot be resumed is never deleted: it is moved aside, and the message says where.
* ``records/GAME-SEED-dealN.json`` — the record of every finished deal, and
  ``records/GAME-SEED.json`` the match so far (``atout replay`` reads both).
* ``settings.json`` — the last choices of the start view and the speed.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from atout.core import Deal, Engine, Match, Rules
from atout.core.records import deal_to_record, save_json
from atout.core.session import BOT, PERSON, Player, Session
from atout.core.views import Bot

from .paths import data_dir

BotFactory = Callable[[str, int, Rules, int], Bot]
"""Makes the bot for a seat: ``(game, seat, rules, seed) -> bot`` (tests pass their own)."""


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
    return data_dir() / "saved-match.jsonl"


def records_dir() -> Path:
    return data_dir() / "records"


def settings_path() -> Path:
    return data_dir() / "settings.json"


def has_saved_match() -> bool:
    """Whether a match waits to be continued."""
    return saved_match_path().is_file()


def start_session(
    engine: Engine,
    setup: Setup,
    rules: Rules,
    bot_factory: BotFactory | None = None,
    persist: bool = True,
) -> Session:
    """A new match for the person at seat 0 against ``setup.bot`` bots (or the bots
    ``bot_factory`` makes), following the save file when ``persist``."""
    seats = engine.game(setup.game).seats
    players = [Player(PERSON, "You")] + [Player(BOT, "", setup.bot)] * (seats - 1)
    match = Match(engine, setup.game, rules, seed=setup.seed)
    bots = None
    if bot_factory is not None:
        bots = {s: bot_factory(match.game, s, rules, match.seed + s) for s in range(1, seats)}
    session = Session(engine, players=players, think=setup.think, bots=bots, match=match)
    if persist:
        session.attach(saved_match_path(), {"setup": asdict(setup)})
    return session


def resume_session(engine: Engine, bot_factory: BotFactory | None = None) -> tuple[Setup, Session]:
    """The saved match, standing where it was saved, following its save file again.

    A save that cannot be resumed (broken, from another version, a plugin or a bot no
    longer installed) raises :class:`~atout.core.errors.AtoutError` with one line that
    says why; the file is left as it is (see :func:`set_aside`).
    """

    def factory(match: Match, seat: int) -> Bot:
        assert bot_factory is not None
        return bot_factory(match.game, seat, match.rules, match.seed + seat)

    session = Session.resume(
        engine, saved_match_path(), bot_factory=factory if bot_factory is not None else None
    )
    setup = Setup.from_json(session.meta.get("setup"))
    setup.game = session.game
    return setup, session


def set_aside() -> Path | None:
    """Move a save that cannot be resumed out of Continue's way, keeping it: it becomes
    ``saved-match-unreadable-DATE.jsonl`` beside it.  Returns where it went (``None``
    when there was nothing to move or it could not be moved)."""
    path = saved_match_path()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"saved-match-unreadable-{stamp}.jsonl")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"saved-match-unreadable-{stamp}-{n}.jsonl")
    try:
        path.rename(target)
    except OSError:
        return None
    return target


def finish(session: Session) -> None:
    """The match is over: stop following its save file and remove it (its deals are in
    the records), so that Continue does not offer a finished match."""
    path = session.save_path
    session.detach()
    if path is not None:
        path.unlink(missing_ok=True)


def save_deal_record(session: Session, deal: Deal) -> Path:
    """Write the record of a finished deal, and of the match so far; return the deal's path."""
    match = session.match
    number = sum(1 for d in match.deals[: match.deals.index(deal) + 1] if d.score is not None)
    folder = records_dir()
    path = save_json(
        folder / f"{match.game}-{match.seed}-deal{number:02d}.json",
        deal_to_record(deal, seed=match.seed),
    )
    save_json(folder / f"{match.game}-{match.seed}.json", session.record())
    return path


def load_settings() -> dict[str, Any]:
    """The saved settings (an empty dict when there are none or they are unreadable)."""
    try:
        data = json.loads(settings_path().read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def save_settings(settings: dict[str, Any]) -> None:
    """Keep the settings for the next start (failures to write are not worth a crash)."""
    with contextlib.suppress(OSError):
        save_json(settings_path(), settings)
