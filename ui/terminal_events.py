"""The terminal game's account of the events: each event the table answers, told in
words to the person (see :mod:`atout.ui.terminal`)."""

from __future__ import annotations

from collections.abc import Iterable

from atout.core.cards import SUITS
from atout.core.model import BID_CONTRACT
from atout.core.model import BID_DOUBLE
from atout.core.model import BID_PASS
from atout.core.model import BID_REDOUBLE
from atout.core.model import Contract
from atout.core.session import AnnounceEvent
from atout.core.session import BidEvent
from atout.core.session import ClaimEvent
from atout.core.session import ContractEvent
from atout.core.session import DealEvent
from atout.core.session import Event
from atout.core.session import MatchOverEvent
from atout.core.session import NoticeEvent
from atout.core.session import PlayEvent
from atout.core.session import RedealEvent
from atout.core.session import ScoreEvent
from atout.core.session import TrickEvent
from atout.core.session import TurnEvent
from atout.core.session import UndoEvent
from atout.core.session import for_seat

from .cards_text import bid_spoken
from .i18n import _
from .i18n import ngettext
from .i18n import pgettext
from .messages import announcement_words
from .messages import outcome_words
from .messages import shown
from .terminal_board import TerminalBoard
from .terminal_text import contract_words


class TerminalEvents(TerminalBoard):
    """The terminal game telling in words what the table answered (the events this seat
    may know), the score of a deal at its end."""

    # --- telling the events --------------------------------------------------------------

    def tell(self, events: Iterable[Event]) -> None:
        """Say in words what the session answered (only what this seat may know)."""
        told = for_seat(events, self.seat)
        for i, e in enumerate(told):
            if isinstance(e, ContractEvent) and i and self.made_by(told[i - 1]):
                continue  # the bid that made the contract said it
            following = told[i + 1] if i + 1 < len(told) else None
            if isinstance(e, BidEvent) and isinstance(following, ContractEvent) and self.made_by(e):
                self.say(self.bid_words(e.seat, e.text, following.contract))
            else:
                self.tell_one(e)

    def made_by(self, e: Event) -> bool:
        """Whether the bid event ``e`` is the one that made the contract following it (a
        take, a named suit): then the bid says the contract.  A pass, a double or a
        redouble that ends an auction does not: the contract is said after it."""
        return (
            isinstance(e, BidEvent)
            and e.text != "pass"
            and self.describe(e.text).kind not in (BID_PASS, BID_CONTRACT, BID_DOUBLE, BID_REDOUBLE)
        )

    def bid_words(self, seat: int, bid: str, contract: Contract | None = None) -> str:
        """A bid as a player says it: "You pass.", "North takes ♦ diamonds." (the
        ``contract`` the bid made, when it made one), "East bids 90 ♥ hearts.", "West
        says contre." (the bids the engine describes)."""
        if bid == "pass":
            return self.by(seat, _("You pass."), _("{name} passes."))
        if contract is not None:
            return self.taken(seat, contract)
        info = self.describe(bid)
        if info.kind == BID_CONTRACT:
            self.last_bid = info
            spoken = bid_spoken(info, self.plain)
            return self.by(seat, _("You bid {bid}."), _("{name} bids {bid}."), bid=spoken)
        if info.kind in (BID_DOUBLE, BID_REDOUBLE):
            return self.by(seat, _("You say {bid}."), _("{name} says {bid}."), bid=bid_spoken(info))
        if bid == "take":
            return self.by(seat, _("You take."), _("{name} takes."))
        if len(bid) == 1 and bid in SUITS:
            suit = self.suit(SUITS.index(bid))
            return self.by(seat, _("You name {suit}."), _("{name} names {suit}."), suit=suit)
        return self.by(seat, _("You bid {bid}."), _("{name} bids {bid}."), bid=bid)

    def taken(self, seat: int, contract: Contract) -> str:
        """ "North takes ♦ diamonds.": the contract as its taker says it; a contract an
        auction by values made is its own message ("East takes 130 tout atout,
        redoubled (surcontre)."), which a language may say otherwise than naming the
        trump."""
        words = contract_words(contract, self.plain, self.last_bid)
        if contract.value is not None:
            return self.by(
                seat,
                pgettext("auction", "You take {contract}."),
                pgettext("auction", "{name} takes {contract}."),
                contract=words,
            )
        return self.by(
            seat, _("You take {contract}."), _("{name} takes {contract}."), contract=words
        )

    def tell_one(self, e: Event) -> None:
        """Say one event in words (each kind read by its class, its fields typed)."""
        if isinstance(e, DealEvent):
            self.shown = {}  # a new deal: the whole table again
            dealt = self.by(
                e.seat, _("Deal {deal}: You deal"), _("Deal {deal}: {name} deals"), deal=e.deal
            )
            if self.plain:
                self.say(f"{dealt}.")
            else:
                self.say("")
                self.say(f"=== {dealt} ===")
        elif isinstance(e, BidEvent):
            self.say(self.bid_words(e.seat, e.text))
        elif isinstance(e, ContractEvent):
            self.say(self.taken(e.seat, e.contract))
        elif isinstance(e, PlayEvent):
            forced = e.seat == self.seat and e.card == self.forced
            self.forced = None
            card = self.show(e.card)
            if forced:
                self.say(_("You play {card} (your only legal card).").format(card=card))
            else:
                self.say(
                    self.by(e.seat, _("You play {card}."), _("{name} plays {card}."), card=card)
                )
        elif isinstance(e, UndoEvent):
            more = e.actions - 1
            if more:
                self.say(
                    self.by(
                        e.seat,
                        ngettext(
                            "You take back your last card and the {n} action after it.",
                            "You take back your last card and the {n} actions after it.",
                            more,
                        ),
                        ngettext(
                            "{name} takes back their last card and the {n} action after it.",
                            "{name} takes back their last card and the {n} actions after it.",
                            more,
                        ),
                        n=more,
                    )
                )
            else:
                self.say(
                    self.by(
                        e.seat,
                        _("You take back your last card."),
                        _("{name} takes back their last card."),
                    )
                )
        elif isinstance(e, ClaimEvent):
            self.say(
                self.by(
                    e.seat,
                    _("You claim the match (l'arrêt)!"),
                    _("{name} claims the match (l'arrêt)!"),
                )
            )
        elif isinstance(e, AnnounceEvent):
            text = announcement_words(e.text)
            said = self.by(
                e.seat, _("You announce: {text}"), _("{name} announces: {text}"), text=text
            )
            self.say(f"{said}." if self.plain else f"  {said}")
        elif isinstance(e, TrickEvent):
            won = self.by(
                e.seat,
                ngettext(
                    "You win the trick ({points} point).",
                    "You win the trick ({points} points).",
                    e.points,
                ),
                ngettext(
                    "{name} wins the trick ({points} point).",
                    "{name} wins the trick ({points} points).",
                    e.points,
                ),
                points=e.points,
            )
            self.say(won if self.plain else f"  {won}")
        elif isinstance(e, TurnEvent):
            turned = self.by(
                e.seat,
                _("Your face-down card is turned: {card}"),
                _("{name}'s face-down card is turned: {card}"),
                card=self.show(e.card),
            )
            self.say(f"{turned}." if self.plain else f"  {turned}")
        elif isinstance(e, RedealEvent):
            if self.info.seats == 2:
                self.say(_("Redeal: both players passed; the cards are gathered and dealt again."))
            else:
                self.say(_("Redeal: everybody passed; the cards are gathered and dealt again."))
        elif isinstance(e, ScoreEvent):
            self.tell_score(e)
        elif isinstance(e, MatchOverEvent):
            r = e.result
            if r.winner is None:
                self.say(_("The match is drawn: {reason}.").format(reason=shown(r.reason)))
            else:
                winners = self.team_names()[r.winner]
                members = [s for s in range(self.info.seats) if s % self.info.teams == r.winner]
                if members == [self.seat]:
                    said = _("You win the match: {reason}.")
                elif self.seat in members:
                    said = pgettext("a team with you", "{team} win the match: {reason}.")
                elif len(members) > 1:
                    said = pgettext("a team", "{team} win the match: {reason}.")
                else:
                    said = _("{team} wins the match: {reason}.")
                self.say(said.format(team=winners, reason=shown(r.reason)))
        elif isinstance(e, NoticeEvent):
            self.say(f"  ({shown(e.text)})")

    def tell_score(self, e: ScoreEvent) -> None:
        sc = e.score
        end = _("End of the deal: {outcome}").format(outcome=outcome_words(sc.outcome))
        if self.plain:
            self.say(f"{end}.")
        else:
            self.say("")
            self.say(f"--- {end} ---")
        for team, name in enumerate(self.team_names()):
            self.say(
                self.line(
                    _(
                        "{team}: card points {cards}, declarations {declarations}, scores {score}"
                    ).format(
                        team=name,
                        cards=sc.card_points[team],
                        declarations=sc.declaration_points[team],
                        score=sc.score[team],
                    )
                )
            )
        for note in sc.notes:
            self.say(f"  ({shown(note)})")
        self.show_scores()
