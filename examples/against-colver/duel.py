"""Duplicate La Coinche between atout's expert and colver's bots, for the figures in
docs/benchmarks.md and docs/experiments.md.

colver (``pip install colver``, a Rust engine of La Coinche) is an outside engine; this
script is how atout is measured against it, kept beside the engine so that every figure
can be run again.  atout's engine referees: it deals, checks every action and scores; a
colver environment mirrors every bid and card so that colver's bots see the same game.
Each deal is played twice with the seats swapped.

Two modes:

- ``whole``: the auction and the play, atout's expert against colver's heuristic bidder
  (``improved``) and IS-DD player (uniform worlds, no downloaded model);
- ``play``: colver's heuristic bidder bids at all four seats, so both tables play the
  same contract, and only the card play is a duel.

The rules are set to agree where atout has the option (see ``RULES``).  Two differences
remain: colver does not make a player who cannot overtrump an opponent undertrump (when
colver's card breaks atout's rule, atout's cheapest legal trump is played instead and the
replacement counted), and a doubled contract scores (160 + value) x level in atout,
162 + value x level in colver; every table is scored both ways.

One JSON line per pair goes to ``--out`` (resumable: pairs already there are skipped);
``summary.py`` turns the lines into figures.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("RAYON_NUM_THREADS", "1")  # one core for colver's search

import colver
from atout.core.cards import card_str
from atout.core.engine import Deal
from atout.core.engine import Engine
from atout.core.model import BID_CONTRACT
from atout.core.model import BID_DOUBLE
from atout.core.model import BID_PASS
from atout.core.model import BID_REDOUBLE
from atout.core.model import Bid
from atout.core.model import Play
from atout.core.model import Rules
from atout.core.packs import load_rules
from atout.plugins.bots.duplicate import seated_margin
from summary import read

GAME = "coinche"
RULES = {"rounding": 0}
"""Over the ``coinche`` pack (belote the only declaration, no sans atout or tout atout,
made points, no bid after a contre, a tie falls): no rounding, as colver scores."""

# colver: suits S H D C, ranks 7 8 9 J Q K 10 A; atout: suits C D H S, ranks 7 8 9 10 J Q K A.
_RANK = (0, 1, 2, 4, 5, 6, 3, 7)
TO_ATOUT = tuple((3 - c // 8) * 8 + _RANK[c % 8] for c in range(32))
TO_COLVER = tuple(TO_ATOUT.index(a) for a in range(32))
_SUIT = "SHDC"


def bid_text(action: int) -> str:
    """atout's text of colver's bidding action."""
    if action == 0:
        return "pass"
    if action == 41:
        return "contre"
    if action == 42:
        return "surcontre"
    value, suit = divmod(action - 1, 4)
    amount = "capot" if value == 9 else str(80 + 10 * value)
    return f"{amount} {_SUIT[suit]}"


def bid_action(text: str) -> int:
    """colver's bidding action of atout's bid text, read through atout's description of
    the bid (value, suit, kind) rather than its spelling."""
    info = Table.engine.describe_bid(GAME, Table.rules, text)
    if info.kind == BID_PASS:
        return 0
    if info.kind == BID_DOUBLE:
        return 41
    if info.kind == BID_REDOUBLE:
        return 42
    if info.kind != BID_CONTRACT or info.value is None:
        raise ValueError(f"no colver action for atout's bid {text!r}")
    value = 9 if info.capot else (info.value - 80) // 10
    return 1 + 4 * value + _SUIT.index(info.strain)


def colver_spec(think_ms: int) -> str:
    """colver's strongest bot that needs no downloaded model."""
    return (
        '[bid]\nstrategy = "improved"\n'
        f'[play]\nstrategy = "isdd"\ntime_ms = {think_ms}\n'
        '[worlds]\nsource = "uniform"\n'
    )


def cheapest_legal(deal: Deal) -> int:
    """atout's replacement for a colver card its rules forbid: the legal card that the
    most cards beat (the trumps it must play, the lowest first)."""
    legal = deal.legal_cards()
    beats = deal.engine.play_rules(GAME, deal.state.rules, deal.state.contract).beats
    return max((c for c in range(32) if legal >> c & 1), key=lambda c: (beats[c].bit_count(), -c))


def colver_auction(seed: int) -> list[int]:
    """colver's heuristic bidder's auction at all four seats on deal ``seed`` (``play``
    mode); empty when it passes out."""
    _, env = Table.dealt(seed)
    actions = []
    while env.phase() == 0 and not env.is_terminal():
        action = env.bid_improved()
        actions.append(action)
        env.step(action)
    return [] if env.is_terminal() else actions


class Table:
    """One play of a deal: atout's deal and colver's mirror, and who sits where."""

    engine: Engine
    rules: Rules

    @classmethod
    def dealt(cls, seed: int) -> tuple[Deal, colver.Env]:
        """Deal ``seed`` in atout, and colver's environment given the same hands."""
        deal = cls.engine.new_deal(GAME, cls.rules, seed % 4, random.Random(seed))
        hands = [[TO_COLVER[c] for c in range(32) if h >> c & 1] for h in deal.state.layout.hands]
        return deal, colver.Env.deal_with_hands(seed % 4, hands)

    def __init__(
        self, seed: int, atout_team: int, args: argparse.Namespace, auction: list[int] | None
    ) -> None:
        engine, rules = self.engine, self.rules
        self.deal, self.env = self.dealt(seed)
        self.atout_seats = {s for s in range(4) if s % 2 == atout_team}
        self.bots = {
            s: engine.bot(
                "expert", GAME, rules, seed=seed * 8 + s + 4 * atout_team, think=args.think
            )
            for s in self.atout_seats
        }
        for attr, value in args.set:
            for bot in self.bots.values():
                if not hasattr(bot, attr):
                    raise SystemExit(f"--set: the expert has no setting {attr!r}")
                setattr(bot, attr, value)
        self.agents = {
            s: colver.Agent(colver_spec(round(args.think * 1000)), s, seed=seed * 8 + s)
            for s in range(4)
            if s not in self.atout_seats
        }
        for agent in self.agents.values():
            agent.init_deal(self.env)
        self.auction = auction
        self.replaced = 0
        self.actions: list[str] = []

    def step(self) -> None:
        """The seat to act acts, in both engines."""
        deal, env = self.deal, self.env
        seat = deal.turn
        if env.current_player() != seat:
            raise RuntimeError(f"colver has seat {env.current_player()} to act, atout {seat}")
        bidding = deal.phase == "bidding"
        if bidding and self.auction is not None:
            action = self.auction[len(self.actions)]
        elif seat in self.bots:
            chosen = self.bots[seat].choose(deal.view(seat))
            action = bid_action(chosen.text) if bidding else TO_COLVER[chosen.card]
        else:
            action = self.agents[seat].action(env)
            if not bidding and not deal.legal_cards() >> TO_ATOUT[action] & 1:
                action = TO_COLVER[cheapest_legal(deal)]
                self.replaced += 1
        for agent in self.agents.values():
            agent.observe(env, action)
        env.step(action)
        if bidding:
            deal.apply(Bid(bid_text(action)))
            self.actions.append(bid_text(action))
        else:
            deal.apply(Play(TO_ATOUT[action]))
            self.actions.append(card_str(TO_ATOUT[action]))

    def play(self) -> dict[str, Any]:
        """Play to the end; the table's line: each team's score by atout's scoring and
        by colver's, the contract, colver's cards replaced, every action."""
        while not self.deal.is_over:
            self.step()
        score = self.deal.score
        contract = self.deal.state.contract
        if score is not None and score.capot is None:
            mirrored = tuple(self.env.get_points())
            if tuple(score.card_points) != mirrored:
                raise RuntimeError(
                    f"card points {score.card_points} in atout, {mirrored} in colver"
                )
        return {
            "atout": list(score.score) if score is not None else [0, 0],
            "colver": [round(x) for x in self.env.rewards()],
            "contract": None
            if contract is None
            else [contract.taker, contract.name, contract.value, contract.level],
            "replaced": self.replaced,
            "actions": self.actions,
        }


def margin(score: list[int], team: int) -> int:
    """``team``'s deal score minus the other team's."""
    return score[team] - score[1 - team]


def json_lines(path: Path) -> list[dict[str, Any]]:
    """The JSON lines of an output file (none when it does not exist yet)."""
    return read(path) if path.exists() else []


def pair(seed: int, args: argparse.Namespace) -> dict[str, Any] | None:
    """Deal ``seed`` twice, atout on team 0 then on team 1; ``None`` when ``play`` mode's
    auction passes out."""
    auction = None
    if args.mode == "play":
        auction = colver_auction(seed)
        if not auction:
            return None
    start = time.perf_counter()
    tables = [Table(seed, team, args, auction).play() for team in (0, 1)]
    line: dict[str, Any] = {"seed": seed, "tables": tables}
    for scoring in ("atout", "colver"):
        line[scoring] = seated_margin(tables[0][scoring], tables[1][scoring])
    line["seconds"] = round(time.perf_counter() - start, 1)
    return line


def literal(text: str) -> tuple[str, Any]:
    """``--set name=value``, the value a Python literal."""
    name, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"write name=value, not {text!r}")
    return name, ast.literal_eval(value)


def stop_time(until: str | None) -> float | None:
    """``--until HH:MM`` as a ``time.time()`` of today; ``None`` without it."""
    if not until:
        return None
    hour, minute = map(int, until.split(":"))
    now = time.localtime()
    return time.mktime((*now[:3], hour, minute, 0, *now[6:]))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=("whole", "play"), default="whole")
    parser.add_argument("--start", type=int, default=0, help="the first deal's seed")
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--think", type=float, default=0.1, help="seconds a decision, both")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--until", help="stop at this time (HH:MM), fixed before the start")
    parser.add_argument(
        "--set",
        type=literal,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set an attribute of atout's expert",
    )
    args = parser.parse_args(argv)
    Table.engine = Engine()
    Table.rules = Table.engine.make_rules(GAME, {**dict(load_rules(Table.engine, GAME)), **RULES})
    done = {line["seed"] for line in json_lines(args.out)}
    stop = stop_time(args.until)
    with args.out.open("a") as out:
        for seed in range(args.start, args.start + args.pairs):
            if stop is not None and time.time() >= stop:
                break
            if seed in done:
                continue
            line = pair(seed, args)
            out.write(json.dumps(line if line else {"seed": seed, "passed_out": True}) + "\n")
            out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
