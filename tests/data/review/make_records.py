"""Write the review's fixed deal records (``python tests/data/review/make_records.py``).

Each record is the first played deal (redeals skipped) of a seeded match whose seats are
all played by one bot, the bots seeded too: the tests and ``atout bench``
(``review_decouverte_deal_s``, ``review_belote_deal_s``, ``review_coinche_deal_s``,
``review_coinche_decouverte_deal_s``) review them.  The experts play
with a fixed number of samples, so the records depend only on the seeds and the shipped
rules (run it again after a rule change and commit what changed); only atout's own
plugins are loaded.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from atout.core import Engine

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))  # the tests' helpers

from helpers import first_played_deal_record  # noqa: E402
from helpers import shipped_engine  # noqa: E402

RECORDS = [
    ("decouverte", "expert", 11),
    ("decouverte", "expert", 12),
    ("decouverte", "expert", 13),
    ("decouverte", "greedy", 11),
    ("belote", "expert", 21),
    ("belote", "expert", 22),
    ("belote", "expert", 23),
    ("coinche", "expert", 31),
    ("coinche", "expert", 32),
    ("coinche", "expert", 33),
    ("coinche-decouverte", "expert", 31),
    ("coinche-decouverte", "expert", 32),
    ("coinche-decouverte", "expert", 33),
]


def make(engine: Engine, game: str, bot: str, seed: int) -> dict[str, object]:
    """The record of the first played deal of ``Match(seed=seed)`` with ``bot`` at
    every seat."""
    rules = engine.default_rules(game)
    info = engine.game(game)
    if bot == "expert" and info.seats == 2:
        from atout.plugins.bots.decouverte_expert import DecouverteExpert

        bots = [DecouverteExpert(rules, seed=s, samples=24, engine=engine) for s in range(2)]
    elif bot == "expert":
        from atout.plugins.bots.belote_expert import BeloteExpert

        bots = [BeloteExpert(rules, seed=s, samples=12, engine=engine) for s in range(4)]
    else:
        bots = [engine.bot(bot, game, rules, seed=s) for s in range(info.seats)]
    return first_played_deal_record(engine, game, bots, seed)


def main() -> None:
    engine = shipped_engine()
    for game, bot, seed in RECORDS:
        path = HERE / f"{game}_{bot}_{seed}.json"
        path.write_text(json.dumps(make(engine, game, bot, seed), indent=1) + "\n")
        print(path.name)


if __name__ == "__main__":
    main()
