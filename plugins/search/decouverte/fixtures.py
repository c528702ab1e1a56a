"""The benchmark's positions of Découverte and the timing of its solvers: random deals
(:func:`deal`) played on by random legal cards (:func:`random_play`), the known layouts
(:func:`known_positions`) and real positions (:func:`chance_positions`) that ``atout
bench`` solves, and :func:`time_solvers`."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from atout.core import Engine
from atout.core.cards import cards_of

from ..stats import percentile
from .chance import expectimax_value
from .known import solve_known
from .position import TRICKS
from .position import Position
from .position import deal_rules
from .position import hide
from .position import legal_cards
from .position import play_known


def deal(
    rng: random.Random, trump: int | None = -1, engine: Engine | None = None, **options: bool
) -> Position:
    """A random Découverte deal as a fully known position: eight piles a seat (a face-up
    card on a face-down one), a random trump (unless given), taker and first leader,
    under the rules ``engine`` (default: :func:`~atout.plugins.search.rules.default_engine`) compiles for that
    contract with the rule ``options`` given (see :func:`deal_rules`)."""
    pack = list(range(32))
    rng.shuffle(pack)
    hands = [0, 0]
    under = []
    for s in (0, 1):
        for i in range(8):
            up, down = pack[16 + 8 * s + i], pack[8 * s + i]
            hands[s] |= 1 << up
            under.append((up, down))
    tr = rng.randrange(4) if trump == -1 else trump
    taker = rng.randrange(2)
    leader = rng.randrange(2)
    rules = deal_rules(tr, taker, engine, **options)
    return Position(rules, taker, leader, (hands[0], hands[1]), tuple(under))


def random_play(pos: Position, rng: random.Random, cards: int) -> Position:
    """Play ``cards`` random legal cards from a fully known position."""
    for _ in range(cards):
        pos = play_known(pos, rng.choice(cards_of(legal_cards(pos))))
    return pos


def known_positions(seed: int = 2024, n: int = 50, tricks_left: int = 8) -> list[Position]:
    """The benchmark's fully known layouts: ``n`` positions between tricks with
    ``tricks_left`` tricks to play, each reached from a random deal (random trump, taker
    and leader) by random legal moves; every face-down card known.  Fixed by ``seed``."""
    rng = random.Random(seed)
    return [random_play(deal(rng), rng, 2 * (TRICKS - tricks_left)) for _ in range(n)]


def chance_positions(seed: int = 2024, n: int = 30, tricks_left: int = 7) -> list[Position]:
    """The benchmark's real positions: ``n`` positions between tricks with ``tricks_left``
    tricks to play, reached like :func:`known_positions`, whose face-down cards are
    unknown (a pool).  Fixed by ``seed``."""
    rng = random.Random(seed)
    return [hide(random_play(deal(rng), rng, 2 * (TRICKS - tricks_left))) for _ in range(n)]


# --- timing the solvers ------------------------------------------------------------------------


def time_solvers(seed: int = 2024, known: int = 50, chance: int = 30) -> dict[str, float]:
    """Time both exact solvers on the benchmark's position sets: milliseconds per
    position of :func:`solve_known` on ``known_positions(seed, known)`` and of
    :func:`expectimax_value` on ``chance_positions(seed, chance)`` (median and 95th
    percentile), one fresh solver per position."""
    out: dict[str, float] = {}
    sets: tuple[tuple[str, list[Position], Callable[[Position], float]], ...] = (
        ("decouverte_solve_ms", known_positions(seed, known), solve_known),
        ("decouverte_expectimax_ms", chance_positions(seed, chance), expectimax_value),
    )
    for name, positions, solve in sets:
        ms = []
        for pos in positions:
            start = time.perf_counter()
            solve(pos)
            ms.append((time.perf_counter() - start) * 1000)
        out[f"{name}_median"] = round(percentile(ms, 50), 2)
        out[f"{name}_p95"] = round(percentile(ms, 95), 2)
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(time_solvers()))
