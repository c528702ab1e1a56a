"""Write the review's fixed deal records (``python tests/data/review/make_records.py``).

Each record is the first played deal (redeals skipped) of a seeded match whose seats are
all played by one bot, the bots seeded too: the tests and ``atout bench``
(``review_decouverte_deal_s``, ``review_belote_deal_s``) review them.  The experts play
with a fixed number of samples, so the records depend only on the seeds and the shipped
rules (run it again after a rule change and commit what changed); only atout's own
plugins are loaded.
"""

from __future__ import annotations

import importlib.metadata
import json
from pathlib import Path

from atout.core import Engine
from atout.core import Match
from atout.core import make_plugin_manager
from atout.core.records import deal_to_record

HERE = Path(__file__).resolve().parent

RECORDS = [
    ("decouverte", "expert", 11),
    ("decouverte", "expert", 12),
    ("decouverte", "expert", 13),
    ("decouverte", "greedy", 11),
    ("belote", "expert", 21),
    ("belote", "expert", 22),
    ("belote", "expert", 23),
]


def make(engine: Engine, game: str, bot: str, seed: int) -> dict[str, object]:
    """The record of the first played deal of ``Match(seed=seed)`` with ``bot`` at
    every seat."""
    rules = engine.default_rules(game)
    match = Match(engine, game, rules, seed=seed)
    info = engine.game(game)
    if bot == "expert" and game == "decouverte":
        from atout.plugins.bots.decouverte_expert import DecouverteExpert

        bots = [DecouverteExpert(rules, seed=s, samples=24, engine=engine) for s in range(2)]
    elif bot == "expert":
        from atout.plugins.bots.belote_expert import BeloteExpert

        bots = [BeloteExpert(rules, seed=s, samples=12, engine=engine) for s in range(4)]
    else:
        bots = [engine.bot(bot, game, rules, seed=s) for s in range(info.seats)]
    while True:
        deal = match.next_deal()
        while not deal.is_over:
            deal.apply(bots[deal.turn].choose(deal.view(deal.turn)))
        if deal.score is not None:
            return deal_to_record(deal, seed)
        match.end_deal(deal)


def shipped_engine() -> Engine:
    """atout's own plugins only (a third-party plugin installed beside it may add rule
    options or bids that the records must not depend on)."""
    others = [
        ep.name
        for dist in importlib.metadata.distributions()
        if (dist.metadata["Name"] or "").lower() != "atout"
        for ep in dist.entry_points
        if ep.group == "atout.plugins"
    ]
    return Engine(make_plugin_manager(disable=others))


def main() -> None:
    engine = shipped_engine()
    for game, bot, seed in RECORDS:
        path = HERE / f"{game}_{bot}_{seed}.json"
        path.write_text(json.dumps(make(engine, game, bot, seed), indent=1) + "\n")
        print(path.name)


if __name__ == "__main__":
    main()
