"""Where the table keeps its files: the saved match, the deal records, the settings.

All live in atout's data folder (``$XDG_DATA_HOME/atout``, see
:func:`atout.ui.paths.data_dir`):

* ``saved-match.jsonl`` — the match being played at the table: the session's save file
  (:meth:`atout.core.session.Session.attach`), with the start view's choices beside it.
  The session writes it: whole at each deal's start and end, one line per action in
  between.  **Continue** resumes it (:meth:`atout.core.session.Session.resume`).  A save
  that cannot be resumed is never deleted: it is moved aside, and the message says where.
* ``terminal-match.jsonl`` — the same for the terminal game (``atout play --text``),
  which ``atout play --text --continue`` resumes; kept apart so that neither front end
  replaces the other's match.  A terminal game claims it for as long as it runs
  (:func:`~atout.ui.terminal_save.claim_terminal`: an advisory lock on
  ``terminal-match.lock``, which holds the player's process id): a second terminal game
  in the same data folder says which process plays and stops, touching nothing, so two
  games never share a save; :mod:`atout.ui.terminal_save` holds the terminal game's
  side of its save.
* ``records/GAME-SEED.json`` — the record of a match (``atout replay`` reads it), and
  ``records/GAME-SEED-dealN.json`` the record of each of its finished deals.  A match
  never takes the name of an earlier one: playing a seed again gives
  ``GAME-SEED-2.json`` (the name is claimed when the match starts, see
  :func:`claim_record`).
* ``saved-match-kept-DATE.jsonl`` — a match set aside, unfinished, when another one
  started (:func:`keep_saved_match`): never removed, listed by the start view
  (:func:`kept_matches`), which continues one by making it the saved match again
  (:func:`continue_kept`, the saved match going aside in its turn).
* ``settings.json`` — the last choices of the start view, the speed, the language
  (``"language"``, see :func:`atout.ui.i18n.choose_language`) and the settings
  (see :data:`SETTINGS`).

Nothing here deletes or overwrites a file a person saved: a save file that is in the way
(a folder where the save goes, a data folder that is a file, a folder that cannot be
written) is a :class:`SaveError`, one line that says which file and why.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Callable
from dataclasses import asdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from atout.core import Deal
from atout.core import Engine
from atout.core import Match
from atout.core import Rules
from atout.core.errors import AtoutError
from atout.core.errors import error_message
from atout.core.files import link_new
from atout.core.files import read_bytes
from atout.core.files import sync_folder
from atout.core.files import write_new
from atout.core.limits import MAX_TARGET
from atout.core.limits import MAX_THINK
from atout.core.limits import LimitError
from atout.core.limits import check_file_name
from atout.core.limits import check_seconds
from atout.core.limits import check_seed
from atout.core.packs import user_dir
from atout.core.packs import yaml_text
from atout.core.records import deal_to_record
from atout.core.records import load_json
from atout.core.records import parse_json
from atout.core.records import record_text
from atout.core.records import save_json
from atout.core.savefile import MAX_BYTES as MAX_SAVE_BYTES
from atout.core.savefile import SaveFile
from atout.core.session import BOT
from atout.core.session import PERSON
from atout.core.session import Player
from atout.core.session import Session
from atout.core.text import Message
from atout.core.views import Bot

from .i18n import _
from .paths import data_dir
from .settings import SETTINGS as SETTINGS
from .settings import setting as setting
from .settings import signals_spec

BotFactory = Callable[[str, int, Rules, int], Bot]
"""Makes the bot for a seat: ``(game, seat, rules, seed) -> bot`` (tests pass their own)."""

RECORD_KEY = "record"
"""The key of a save file's ``meta`` that names the match's record file."""
MAX_SETTINGS_BYTES = 64 * 1024
"""The largest settings file read."""


KEPT_LABEL = "kept"
"""The word in the name of a match set aside to start another (``saved-match-kept-DATE``)."""


class SaveError(AtoutError):
    """The match cannot be saved or resumed where atout keeps it (a file or a folder in
    the way, no permission, no space); the message names the file."""


def save_problem(exc: OSError, path: Path) -> SaveError:
    where = exc.filename or path
    if isinstance(exc, FileExistsError | NotADirectoryError):
        reason = _("a file is in the way of a folder")
    else:
        reason = exc.strerror or str(exc)
    return SaveError(
        _("{file}: cannot save the match there ({why})").format(file=where, why=reason)
    )


@dataclass
class Setup:
    """What the start view chose: the game, the pack, the bots' level, the target, the
    seed, and whether the match is a practice match (free undo)."""

    game: str = "decouverte"
    pack: str = ""
    bot: str = "greedy"
    target: int | None = None
    seed: int | None = None
    think: float = 0.0
    practice: bool = False

    @classmethod
    def from_json(cls, data: Any) -> Setup:
        """A setup from its JSON form; unknown or wrong fields fall back to the defaults."""
        setup = cls()
        if not isinstance(data, dict):
            return setup
        for key, kind in (("game", str), ("pack", str), ("bot", str)):
            if isinstance(data.get(key), kind):
                setattr(setup, key, data[key])
        for key, check in (("target", _target), ("seed", check_seed)):
            with contextlib.suppress(LimitError):
                setattr(setup, key, check(data.get(key)))
        with contextlib.suppress(LimitError):
            setup.think = check_seconds(data.get("think"), most=MAX_THINK, zero=True)
        if isinstance(data.get("practice"), bool):
            setup.practice = data["practice"]
        return setup


def _target(value: object) -> int:
    """A target score within :data:`~atout.core.limits.MAX_TARGET`."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_TARGET:
        raise LimitError(
            Message(
                "{what} is a whole number from {least} to {most}",
                what=Message("a target score"),
                least=1,
                most=MAX_TARGET,
            )
        )
    return value


def saved_match_path() -> Path:
    return data_dir() / "saved-match.jsonl"


def terminal_match_path() -> Path:
    """The terminal game's save file (kept apart from the table's)."""
    return data_dir() / "terminal-match.jsonl"


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
    signals: bool = True,
) -> Session:
    """A new match for the person at seat 0 against ``setup.bot`` bots (or the bots
    ``bot_factory`` makes), a practice match when ``setup.practice``, following the save
    file when ``persist``.  ``signals``: whether the bots (and the hint bot) signal (the
    setting ``bot_signals``, given to them in their spec by
    :func:`~atout.ui.settings.signals_spec`, so that the save and the bot process make
    them the same)."""
    seats = engine.game(setup.game).seats
    bot = signals_spec(engine, setup.bot, setup.game, signals)
    players = [Player(PERSON, "You")] + [Player(BOT, "", bot)] * (seats - 1)
    match = Match(engine, setup.game, rules, seed=setup.seed, practice=setup.practice)
    bots = None
    if bot_factory is not None:
        bots = {s: bot_factory(match.game, s, rules, match.seed + s) for s in range(1, seats)}
    session = Session(engine, players=players, think=setup.think, bots=bots, match=match)
    session.hint_bot = signals_spec(engine, session.hint_bot, session.game, signals)
    if persist:
        follow(session, saved_match_path(), {"setup": asdict(setup)})
    return session


def follow(session: Session, path: Path, meta: dict[str, Any]) -> Path:
    """Make ``session`` follow the save file ``path`` (with ``meta``) and claim the name
    of its match record (:func:`claim_record`), kept in ``meta``; returns the record's
    path.  A match saved in ``path`` before is never replaced: it is moved aside first
    (:func:`keep_saved_match`).  A file in the way, or a save that cannot be moved
    aside, is a :class:`SaveError`, and nothing is written then."""
    try:
        if path.is_dir():
            raise SaveError(
                _("{file}: is a folder; the match is saved in a file of that name").format(
                    file=path
                )
            )
        keep_saved_match(path)
        session.attach(path, meta)  # the save first: a file in its way stops us here
        record = claim_record(session)
        session.attach(path, {**meta, RECORD_KEY: record.name})
    except OSError as exc:
        raise save_problem(exc, path) from None
    return record


def claim_record(session: Session, folder: Path | None = None) -> Path:
    """A record file of its own for the session's match: ``GAME-SEED.json``, or
    ``GAME-SEED-2.json`` (and so on) when an earlier match has that name.  The file is
    created at once, whole (written to a temporary file, forced to disk, then linked
    under the name, which fails rather than replace a file), holding the match record as
    it stands; :func:`save_deal_record` replaces it as deals are played."""
    folder = records_dir() if folder is None else folder
    folder.mkdir(parents=True, exist_ok=True)
    match = session.match
    text = record_text(session.record())
    return write_new(
        folder,
        f"{match.game}-{match.seed}",
        text,
        taken=lambda name: (folder / f"{name}-deal01.json").exists(),
    )


def record_path(session: Session) -> Path:
    """The match's record file: the one claimed when it started (its name is in the
    save file's ``meta``), or a newly claimed one.

    A save is a file like any other, so the name it holds is trusted only when it is
    this match's: a plain file name within :func:`atout.core.limits.check_file_name`'s
    limits, of the form ``GAME-SEED.json`` or ``GAME-SEED-N.json`` for this match's game
    and seed, naming no file or a record of this match at another moment (the same seed
    and rules, the actions of one a beginning of the other's).  Any other name (another
    match's record, a path, an escape sequence, a name too long to create) is ignored and
    a fresh name is claimed, which the save names from then on: no record but the
    match's own is ever replaced."""
    name = session.meta.get(RECORD_KEY)
    folder = records_dir()
    if _own_record(session, folder, name):
        return folder / str(name)
    record = claim_record(session)
    save = session.save_path
    if save is not None:  # the save names the new record from now on (written whole)
        session.attach(save, {**session.meta, RECORD_KEY: record.name})
    return record


def _own_record(session: Session, folder: Path, name: object) -> bool:
    """Whether ``name`` (from the save's ``meta``) may be the match's record file."""
    try:
        name = check_file_name(name, suffix=".json")
    except LimitError:
        return False
    match = session.match
    if not re.fullmatch(rf"{re.escape(match.game)}-{match.seed}(-[1-9][0-9]{{0,8}})?\.json", name):
        return False
    path = folder / name
    if not path.exists() and not path.is_symlink():
        return True
    try:
        existing = load_json(path)
    except AtoutError:
        return False
    return _extends(session.record(), existing)


def _extends(ours: dict[str, Any], existing: dict[str, Any]) -> bool:
    """Whether the match record ``existing`` is the match of ``ours`` at another moment:
    the same match (format, game, pack, rules, seed, first dealer), the same layout in
    each deal both hold, and the actions of one, deal after deal, a beginning of the
    other's (the record may hold an action more than a save that lost its torn last
    line)."""
    for key in ("format", "game", "pack", "rules", "seed", "first_dealer"):
        if existing.get(key) != ours.get(key):
            return False
    old, new = existing.get("deals"), ours["deals"]
    if not isinstance(old, list):
        return False
    played: list[list[Any]] = [[], []]
    for side, deals in enumerate((old, new)):
        for deal in deals:
            actions = deal.get("actions") if isinstance(deal, dict) else None
            if not isinstance(actions, list):
                return False
            played[side].extend(actions)
    for before, now in zip(old, new, strict=False):
        if before.get("layout") != now.get("layout"):
            return False
    shorter = min(len(played[0]), len(played[1]))
    return played[0][:shorter] == played[1][:shorter]


def resume_session(
    engine: Engine, bot_factory: BotFactory | None = None, signals: bool = True
) -> tuple[Setup, Session]:
    """The saved match, standing where it was saved, following its save file again (its
    bots as they were saved; its hint bot signalling as ``signals`` says).

    A save that cannot be resumed (broken, from another version, a plugin or a bot no
    longer installed) raises :class:`~atout.core.errors.AtoutError` with one line that
    says why; the file is left as it is (see :func:`set_aside`).
    """

    def factory(match: Match, seat: int) -> Bot:
        assert bot_factory is not None
        return bot_factory(match.game, seat, match.rules, match.seed + seat)

    session = resume(engine, saved_match_path(), factory if bot_factory is not None else None)
    session.hint_bot = signals_spec(engine, session.hint_bot, session.game, signals)
    setup = Setup.from_json(session.meta.get("setup"))
    setup.game = session.game
    setup.practice = session.practice  # the match record says, whatever the meta says
    return setup, session


def resume(
    engine: Engine, path: Path, bot_factory: Callable[[Match, int], Bot] | None = None
) -> Session:
    """:meth:`Session.resume` of the save file ``path``, every problem one
    :class:`~atout.core.errors.AtoutError` naming the file (a file that cannot be
    followed again, e.g. in a read-only folder, is a :class:`SaveError`)."""
    try:
        return Session.resume(engine, path, bot_factory=bot_factory)
    except OSError as exc:
        raise save_problem(exc, path) from None


def set_aside(path: Path | None = None, label: str = "unreadable") -> Path | None:
    """Move a save that cannot be resumed out of Continue's way, keeping it: it becomes
    ``NAME-LABEL-DATE.jsonl`` beside it (``path``: by default the table's save).
    Returns where it went (``None`` when there was nothing to move or it could not be
    moved); an existing file is never replaced."""
    path = saved_match_path() if path is None else path
    stamp = time.strftime("%Y%m%d-%H%M%S")
    base = path.name.removesuffix(".jsonl")
    try:
        target = link_new(path, path.parent, f"{base}-{label}-{stamp}", ".jsonl")
    except OSError:
        return None
    try:
        path.unlink()
    except OSError:
        target.unlink(missing_ok=True)
        return None
    sync_folder(path.parent)
    return target


def keep_saved_match(path: Path | None = None) -> Path | None:
    """Move the match saved in ``path`` (by default the table's) aside, unchanged, so
    that a new match can take its place: it becomes ``NAME-kept-DATE.jsonl`` beside it,
    which :func:`kept_matches` lists and :func:`continue_kept` brings back.  Returns
    where it went (``None``: nothing was saved there).  A save that cannot be moved is a
    :class:`SaveError`, and it is left where it was (the new match must not start)."""
    path = saved_match_path() if path is None else path
    if not path.is_file():
        return None
    kept = set_aside(path, KEPT_LABEL)
    if kept is None:
        raise SaveError(
            _(
                "{file}: the saved match cannot be moved aside to make room for a new one; "
                "it is left as it is"
            ).format(file=path)
        )
    return kept


@dataclass(frozen=True)
class KeptMatch:
    """A match set aside by :func:`keep_saved_match`, as the start view lists it.

    ``scores`` are the totals of the deals finished when it was last saved, ``deals``
    their number; ``problem`` says why the file cannot be read (it is listed still, and
    Continue explains)."""

    path: Path
    when: float
    game: str = ""
    pack: str = ""
    scores: tuple[int, ...] = ()
    deals: int = 0
    problem: str = ""


def kept_paths() -> list[Path]:
    """The files of the matches set aside in the data folder (none read)."""
    current = saved_match_path()
    return sorted(current.parent.glob(f"{current.stem}-{KEPT_LABEL}-*{current.suffix}"))


def kept_matches() -> list[KeptMatch]:
    """The matches set aside in the data folder, the last one kept first."""
    found: list[KeptMatch] = []
    for path in kept_paths():
        try:
            when = path.stat().st_mtime
        except OSError:
            continue
        if path.is_file():
            found.append(_kept(path, when))
    found.sort(key=lambda k: (k.when, k.path.name), reverse=True)
    return found


def _kept(path: Path, when: float) -> KeptMatch:
    """What a kept save file says of its match (its header only: the game, the pack, the
    scores of the finished deals)."""
    try:
        header, _records = SaveFile(path).read()
    except (AtoutError, OSError, ValueError) as exc:
        return KeptMatch(path, when, problem=error_message(exc))
    record = header.get("match")
    record = record if isinstance(record, dict) else {}
    game, pack = record.get("game"), record.get("pack")
    raw_scores = record.get("scores")
    scores = raw_scores if isinstance(raw_scores, list) else []
    deals = record.get("deals")
    return KeptMatch(
        path,
        when,
        game=game if isinstance(game, str) else "",
        pack=pack if isinstance(pack, str) else "",
        scores=tuple(s for s in scores if isinstance(s, int) and not isinstance(s, bool)),
        deals=sum(1 for d in (deals if isinstance(deals, list) else []) if _scored(d)),
    )


def _scored(deal: Any) -> bool:
    """Whether a deal of a match record was played out and scored (not redealt)."""
    result = deal.get("result") if isinstance(deal, dict) else None
    return isinstance(result, dict) and result.get("outcome") != "redeal"


def continue_kept(path: Path) -> Path | None:
    """Make the kept match ``path`` the table's saved match again (Continue then resumes
    it); a match saved there is kept aside in its turn (:func:`keep_saved_match`):
    returns where it went.  Nothing is replaced or removed: a problem is a
    :class:`SaveError` and the files are then as they were."""
    current = saved_match_path()
    if path.parent != current.parent or not path.is_file():
        raise SaveError(_("{file}: no kept match of the table is there").format(file=path))
    kept = keep_saved_match(current)
    try:
        os.link(path, current)  # fails rather than replace a file
    except OSError as exc:
        raise save_problem(exc, current) from None
    try:
        path.unlink()
    except OSError as exc:
        current.unlink(missing_ok=True)
        raise save_problem(exc, path) from None
    sync_folder(current.parent)
    return kept


OWN_PACK = "my-{game}"
"""The name of the person's own pack of a game (``my-belote``, then ``my-belote-2``...)."""


def save_own_pack(engine: Engine, game: str, values: dict[str, Any], based_on: str) -> str:
    """Write the person's own house rules of ``game`` as a pack in the user's pack folder
    (:func:`~atout.core.packs.user_dir`) and return its name: every option of ``values``
    that differs from the game's default, written out whole (no ``extends``, so the pack
    stands alone); ``based_on`` names the rules it started from, for its description.
    A pack file is never replaced: a new one takes the next free name (``my-belote-2``).
    Values the game refuses are an :class:`~atout.core.errors.AtoutError` and nothing is
    written; a folder that cannot be written is a :class:`SaveError`."""
    rules = engine.make_rules(game, values)  # checks every value first
    defaults = engine.default_rules(game)
    folder = user_dir()
    stem = OWN_PACK.format(game=game)
    n = 1
    while (folder / f"{stem}{'' if n == 1 else f'-{n}'}.yaml").exists():
        n += 1
    title = "My rules" if n == 1 else f"My rules {n}"
    plain = "".join(c for c in based_on[:60] if c.isprintable() and c not in '"\\') or "defaults"
    lines = [
        f"game: {game}",
        f'description: "My house rules, made on the start view from {plain}."',
        f'title: "{title}"',
    ]
    lines += [
        f"{key}: {yaml_text(value)}" for key, value in rules.items() if defaults[key] != value
    ]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path = write_new(folder, stem, "\n".join(lines) + "\n", suffix=".yaml")
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise SaveError(
            _("{file}: cannot save your rules there ({why})").format(
                file=exc.filename or folder, why=reason
            )
        ) from None
    return path.stem


def finish(session: Session) -> None:
    """The match is over: stop following its save file and remove it (its deals are in
    the records), so that Continue does not offer a finished match.  The file is removed
    only while it is this match's save (:func:`is_own_save`): a save another game wrote
    there since is never removed."""
    path = session.save_path
    own = path is not None and is_own_save(session, path)
    session.detach()
    if path is not None and own:
        path.unlink(missing_ok=True)


def is_own_save(session: Session, path: Path) -> bool:
    """Whether the save file at ``path`` is ``session``'s: its header holds the same
    ``meta`` (which names the match's own record) and a match of the same game and seed."""
    try:
        first = read_bytes(path, MAX_SAVE_BYTES).split(b"\n", 1)[0]
        header = parse_json(first.decode("utf-8"), str(path))
    except (AtoutError, ValueError):
        return False
    match = header.get("match") if isinstance(header, dict) else None
    return (
        isinstance(match, dict)
        and header.get("meta") == session.meta
        and match.get("game") == session.match.game
        and match.get("seed") == session.match.seed
    )


def save_deal_record(session: Session, deal: Deal) -> Path:
    """Write the record of a finished deal, and of the match so far; return the deal's path."""
    match = session.match
    number = sum(1 for d in match.deals[: match.deals.index(deal) + 1] if d.score is not None)
    whole = record_path(session)
    path = save_json(
        whole.with_name(f"{whole.stem}-deal{number:02d}.json"),
        deal_to_record(deal, seed=match.seed),
    )
    save_json(whole, session.record())
    return path


def load_settings() -> dict[str, Any]:
    """The saved settings (an empty dict when there are none or they are unreadable)."""
    try:
        data = parse_json(read_bytes(settings_path(), MAX_SETTINGS_BYTES).decode(), "settings")
    except (AtoutError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save_settings(settings: dict[str, Any]) -> None:
    """Keep the settings for the next start (failures to write are not worth a crash)."""
    with contextlib.suppress(OSError):
        save_json(settings_path(), settings)
