"""The terminal game: one person against bots, in plain text.

Everything shown comes from the person's :class:`~atout.core.views.View`; every rule (the
legal cards, why a card is refused) comes from the engine.  Input: a card in its text form
(``JH``, ``10S``, ``TS``, ``J♥``), a bid (``take``, ``pass``, a suit letter), ``claim``
for l'arrêt when offered, ``last`` for the last trick, ``help``, ``quit``; an empty line
shows the table again.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from atout.core import (
    SUITS,
    Action,
    CardParseError,
    Deal,
    Engine,
    IllegalMoveError,
    Match,
    Rules,
    View,
    card_str,
    parse_card,
)
from atout.core.cards import SUIT_NAMES, SUIT_SYMBOLS, sort_for_display
from atout.core.records import match_to_record, save_json
from atout.core.views import Bot

HUMAN = 0
FACE_DOWN = "▒▒"


def data_dir() -> Path:
    """Where atout keeps records and saved matches (``$XDG_DATA_HOME/atout``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "atout"


def show_card(card: int | None) -> str:
    """A card with its suit symbol: ``J♥``."""
    if card is None:
        return "  "
    text = card_str(card)
    return text[:-1] + SUIT_SYMBOLS[card >> 3]


def show_cards(mask: int, trump: int | None = None) -> str:
    """A hand, sorted by suit (trumps first) then rank."""
    order = "SHCD"
    if trump is not None:
        order = SUITS[trump] + "".join(s for s in order if s != SUITS[trump])
    return " ".join(show_card(c) for c in sort_for_display(mask, order))


class TerminalGame:
    """Runs a match in a terminal, reading the person's input from ``inp``."""

    def __init__(
        self,
        engine: Engine,
        match: Match,
        bots: dict[int, Bot],
        inp: TextIO = sys.stdin,
        out: TextIO = sys.stdout,
    ) -> None:
        self.engine = engine
        self.match = match
        self.bots = bots
        self.inp = inp
        self.out = out
        self.info = match.info
        self.quit = False

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def name(self, seat: int) -> str:
        return "You" if seat == HUMAN else self.info.seat_name(seat)

    def whose(self, seat: int) -> str:
        """``"Your"``, ``"North's"``."""
        return "Your" if seat == HUMAN else f"{self.info.seat_name(seat)}'s"

    def does(self, seat: int, verb: str) -> str:
        """``"North plays"``, ``"You play"``: the seat's name with the verb agreeing."""
        return f"You {verb}" if seat == HUMAN else f"{self.info.seat_name(seat)} {verb}s"

    # --- drawing -------------------------------------------------------------------------

    def show_table(self, view: View) -> None:
        """The table as the person sees it."""
        trump = view.trump
        if view.piles:
            self.show_piles(view)
        else:
            for seat in range(view.seats):
                if seat == HUMAN:
                    continue
                n = view.hand_sizes[seat]
                self.say(f"  {self.name(seat):6} {n} card{'' if n == 1 else 's'}")
            self.say(f"  Your hand: {show_cards(view.hand, trump)}")
        if view.phase == "bidding" and view.turnup is not None:
            self.say(f"  Proposed trump: {show_card(view.turnup)} ({SUIT_NAMES[view.turnup >> 3]})")
        if view.contract is not None:
            c = view.contract
            self.say(
                f"  Contract: {c.name} ({self._contract_text(c.trump)}), taken by {self.name(c.taker)}"
            )
        if view.tricks and not self.match.rules.get("arret"):
            team_names = self.team_names()
            points = ", ".join(f"{n} {p}" for n, p in zip(team_names, view.points, strict=True))
            self.say(f"  Card points so far: {points}")
        if view.trick:
            played = ", ".join(f"{self.name(s)} {show_card(c)}" for s, c in view.trick)
            self.say(f"  Trick: {played}")

    def _contract_text(self, trump: int | None) -> str:
        return f"trump {SUIT_NAMES[trump]}" if trump is not None else "no single trump"

    def show_piles(self, view: View) -> None:
        """Découverte's piles: the opponent's far and near rows, the line, ours."""

        def row(seat: int, positions: range) -> str:
            cells = []
            for i in positions:
                p = view.piles[seat][i]
                if p.top is None and p.covered:
                    cells.append(f"[{FACE_DOWN}  ]")
                elif p.top is None:
                    cells.append("[    ]")
                else:
                    under = "/" + FACE_DOWN[0] if p.covered else "  "
                    cells.append(f"[{show_card(p.top):>3}{under}]"[:7].ljust(7))
            return " ".join(cells)

        other = 1 - HUMAN
        self.say(f"  {self.name(other):6} far : {row(other, range(4, 8))}")
        self.say(f"  {'':6} near: {row(other, range(0, 4))}")
        self.say("  " + "-" * 50)
        self.say(f"  {'You':6} near: {row(HUMAN, range(0, 4))}")
        self.say(f"  {'':6} far : {row(HUMAN, range(4, 8))}")
        self.say(
            f"  ({FACE_DOWN[0]} marks a face-down card beneath; nobody knows it until it is turned)"
        )
        if any(p.top is None and p.covered for r in view.piles for p in r):
            self.say(
                f"  ({FACE_DOWN}: a face-down card whose cover was just played, turned after the trick)"
            )

    def show_scores(self) -> None:
        """The match score, unless l'arrêt is played: then players keep count themselves
        (RULES.md: no looking back), so the running score is not shown."""
        if self.match.rules.get("arret"):
            self.say("  (l'arrêt is on: keep count of the match score yourself)")
            return
        names = self.team_names()
        line = "   ".join(f"{n}: {s}" for n, s in zip(names, self.match.scores, strict=True))
        self.say(f"  Match: {line}  (target {self.match.rules.get('target', '?')})")

    def team_names(self) -> list[str]:
        if self.info.teams == self.info.seats:
            return [self.name(s) for s in range(self.info.seats)]
        return [
            "You & " + self.info.seat_name(2),
            self.info.seat_name(1) + " & " + self.info.seat_name(3),
        ]

    # --- input ---------------------------------------------------------------------------

    def ask(self, prompt: str) -> str | None:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.quit = True
            return None
        return line.strip()

    def human_action(self, deal: Deal) -> Action | None:
        """Ask the person for an action until a legal one is given (``None``: quit)."""
        while True:
            view = deal.view(HUMAN, tuple(self.match.scores))
            self.show_table(view)
            if view.phase == "bidding":
                bids = list(view.legal_bids)
                text = self.ask(f"  Your bid ({' / '.join(bids)}): ")
            else:
                legal = " ".join(show_card(c) for c in sort_for_display(view.legal))
                extra = " / claim" if view.can_claim else ""
                text = self.ask(f"  Your card (legal: {legal}){extra}: ")
            if text is None:
                return None
            word = text.lower()
            if not word:
                continue  # an empty line: the table again, no complaint
            if word in ("q", "quit", "exit"):
                self.quit = True
                return None
            if word in ("?", "h", "help"):
                self.say(__doc__ or "")
                continue
            if word == "last":
                self.show_last_trick(view)
                continue
            if view.phase == "bidding":
                for bid in view.legal_bids:
                    if word == bid.lower():
                        return Action.bid(bid)
                self.say(f"  Not a bid now: {text!r}. The bids are: {', '.join(view.legal_bids)}")
                continue
            if word == "claim" and view.can_claim:
                return Action("claim")
            try:
                card = parse_card(text)
            except CardParseError as exc:
                self.say(f"  {exc}")
                continue
            reason = deal.explain(card)
            if reason is not None:
                self.say(f"  You cannot play {show_card(card)}: {reason}.")
                continue
            return Action.play(card)

    def show_last_trick(self, view: View) -> None:
        if not view.tricks:
            self.say("  No trick has been played yet.")
            return
        t = view.tricks[-1]
        seats = [(t.leader + i * view.direction) % view.seats for i in range(len(t.cards))]
        cards = ", ".join(
            f"{self.name(s)} {show_card(c)}" for s, c in zip(seats, t.cards, strict=True)
        )
        self.say(f"  Last trick: {cards}; won by {self.name(t.winner)} ({t.points} points)")

    # --- the match -----------------------------------------------------------------------

    def bot_action(self, deal: Deal, seat: int) -> Action:
        return self.bots[seat].choose(deal.view(seat, tuple(self.match.scores)))

    def narrate(self, seat: int, action: Action, before: View, after: View) -> None:
        """Say what an action did, from the person's views before and after it."""
        if action.kind == "bid":
            self.say(f"{self.does(seat, 'bid')} {action.value}.")
        elif action.kind == "play":
            self.say(f"{self.does(seat, 'play')} {show_card(action.value)}.")
        else:
            self.say(f"{self.does(seat, 'claim')} the match (l'arrêt)!")
        for ann in after.announcements[len(before.announcements) :]:
            self.say(f"  {self.does(ann.seat, 'announce')}: {ann.text}")
        if len(after.tricks) > len(before.tricks):
            t = after.tricks[-1]
            self.say(f"  {self.does(t.winner, 'win')} the trick ({t.points} points).")
        for p_seat, (old_row, new_row) in enumerate(zip(before.piles, after.piles, strict=True)):
            for old, new in zip(old_row, new_row, strict=True):
                if old.covered and not new.covered and new.top is not None:
                    self.say(
                        f"  {self.whose(p_seat)} face-down card is turned: {show_card(new.top)}"
                    )

    def play_deal(self) -> Deal | None:
        deal = self.match.next_deal()
        self.say("")
        self.say(
            f"=== Deal {len(self.match.history) + 1}: {self.does(deal.view(HUMAN).dealer, 'deal')} ==="
        )
        while not deal.is_over:
            seat = deal.turn
            before = deal.view(HUMAN)
            if seat == HUMAN:
                action = self.human_action(deal)
                if action is None:
                    return None
            else:
                action = self.bot_action(deal, seat)
            try:
                deal.apply(action)
            except IllegalMoveError as exc:  # the engine re-checks every action
                self.say(f"  {exc}")
                continue
            self.narrate(seat, action, before, deal.view(HUMAN))
        self.match.end_deal(deal)
        if deal.score is None:
            self.say("Everybody passed twice: the cards are gathered and dealt again.")
            return deal
        sc = deal.score
        names = self.team_names()
        self.say("")
        self.say(f"--- End of the deal: {sc.outcome} ---")
        for team, name in enumerate(names):
            self.say(
                f"  {name}: card points {sc.card_points[team]}, declarations "
                f"{sc.declaration_points[team]}, scores {sc.score[team]}"
            )
        for note in sc.notes:
            self.say(f"  ({note})")
        self.show_scores()
        return deal

    def run(self) -> int:
        while self.match.result is None and not self.quit:
            if self.play_deal() is None:
                break
        if self.match.result is not None:
            r = self.match.result
            if r.winner is None:
                self.say(f"The match is drawn: {r.reason}.")
            else:
                self.say(f"{self.team_names()[r.winner]} win the match: {r.reason}.")
        return 0


def play_match(
    engine: Engine,
    game: str,
    rules: Rules,
    bot: str = "greedy",
    seed: int | None = None,
    think: float = 0.0,
    save: str | None = None,
    inp: TextIO = sys.stdin,
    out: TextIO = sys.stdout,
    bot_factory: Callable[[int], Bot] | None = None,
) -> int:
    """Play a whole match in the terminal; the match record is saved at the end (or on
    quit) and its path shown."""
    match = Match(engine, game, rules, seed=seed)
    seats = match.info.seats
    bots = {
        s: (
            bot_factory(s)
            if bot_factory
            else engine.bot(bot, game, rules, seed=match.seed + s, think=think)
        )
        for s in range(seats)
        if s != HUMAN
    }
    print(
        f"atout: {match.info.title}, seed {match.seed} (repeat it with --seed {match.seed}). "
        "Type help for help.",
        file=out,
    )
    game_ui = TerminalGame(engine, match, bots, inp, out)
    try:
        code = game_ui.run()
    finally:
        path = Path(save) if save else data_dir() / "records" / f"{game}-{match.seed}.json"
        saved = save_json(path, match_to_record(match))
        print(f"The match record is saved in {saved}", file=out)
    return code
