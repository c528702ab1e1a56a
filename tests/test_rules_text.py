"""The rules in the program's words (ui/rules_pages.py): read from the engine and the pack
in force, wrapped for the terminal (ui/rules_text.py), and printed by the terminal's
``rules`` command."""

from __future__ import annotations

import io

import pytest
from atout.core import Engine
from atout.core import card_str
from atout.core.cards import RANKS
from atout.core.cards import SUITS
from atout.core.records import deal_from_record
from atout.core.session import BOT
from atout.core.session import PERSON
from atout.core.session import Player
from atout.core.session import Session
from atout.plugins.tables import DEAL_POINTS
from atout.plugins.tables import PLAIN_POINTS
from atout.plugins.tables import TRUMP_POINTS
from atout.ui.rules import resolve_rules
from atout.ui.rules_model import Example
from atout.ui.rules_model import numbers
from atout.ui.rules_pages import rules_pages
from atout.ui.rules_text import rules_text
from atout.ui.terminal import TerminalGame


def words(engine: Engine, game: str, pack: str = "", target: int | None = None) -> str:
    return rules_text(resolve_rules(engine, game, pack, target), engine)


@pytest.mark.parametrize("game", ["decouverte", "belote"])
def test_every_line_of_the_rules_fits_80_columns(engine: Engine, game: str) -> None:
    text = words(engine, game)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert len(text.splitlines()) > 40


def test_the_cards_order_and_points_are_read_from_the_engine(engine: Engine) -> None:
    n = numbers(engine, engine.default_rules("decouverte"))
    assert " ".join(RANKS[r] for r in n.trump_order) == "J 9 A 10 K Q 8 7"
    assert " ".join(RANKS[r] for r in n.plain_order) == "A 10 K Q J 9 8 7"
    assert n.trump_points == TRUMP_POINTS and n.plain_points == PLAIN_POINTS
    assert n.deal_total == DEAL_POINTS and n.last_trick == 10 and n.tricks == 16
    text = " ".join(words(engine, "decouverte").split())
    assert "In trumps, highest first: J 9 A 10 K Q 8 7 (J 20, 9 14, A 11" in text
    assert "adds 10 (the dix de der): 162 points in a deal" in text


def test_decouverte_says_the_taker_needs_82_and_dedans_gives_all_162(engine: Engine) -> None:
    text = " ".join(words(engine, "decouverte").split())
    assert "82 or more" in text and "with 81 or fewer the taker fails" in text
    assert "scores all 162 and the taker nothing" in text
    assert "eight piles" in text and "face-down" in text and "turned face up at the end" in text
    assert "Round 2" in text and "name another suit" in text


def test_the_pack_in_force_changes_the_words(engine: Engine) -> None:
    standard = " ".join(words(engine, "decouverte").split())
    exoty = " ".join(words(engine, "decouverte", "decouverte-exoty").split())
    reveal = " ".join(words(engine, "decouverte", "decouverte-reveal-on-lead").split())
    assert "Belote-rebelote" not in standard and "Belote-rebelote: the trump king" in exoty
    assert "adds nothing" in standard and "winning all 16 tricks adds 50 points" in exoty
    assert "turned at once" in reveal and "turned at once" not in standard
    assert "The rules in force: decouverte-exoty" in exoty
    assert "Capot bonus: 50. Points added for winning all sixteen tricks" in exoty
    assert "They are the game's standard rules" in standard
    target = " ".join(words(engine, "decouverte", target=500).split())
    assert "The first to reach 500 wins" in target


def test_belote_says_the_partner_exception_and_the_tie_of_the_pack(engine: Engine) -> None:
    standard = " ".join(words(engine, "belote").split())
    assert "If your partner is winning the trick you may play any card instead" in standard
    assert "a tie makes it" in standard and "scores 252 instead of 162" in standard
    litige = " ".join(words(engine, "belote", "litige").split())
    assert "litige" in litige and "a tie makes it" not in litige
    clockwise = " ".join(words(engine, "belote", "clockwise").split())
    assert "go clockwise" in clockwise and "dealer's left" in clockwise


def test_the_examples_show_cards_and_which_may_be_played(engine: Engine) -> None:
    pages = rules_pages(engine, engine.default_rules("decouverte"))
    examples = [b for p in pages for b in p.blocks if isinstance(b, Example)]
    assert any(e.stacked and None in e.cards for e in examples)  # a pile: a card on a back
    assert any(e.allowed and not all(e.allowed) for e in examples)
    for e in examples:
        assert not e.labels or len(e.labels) == len(e.cards)
        assert not e.allowed or len(e.allowed) == len(e.cards)


def test_the_terminal_rules_command_prints_the_rules(engine: Engine) -> None:
    out = io.StringIO()
    players = [Player(PERSON), Player(BOT, "", "random")]
    session = Session(engine, "decouverte", players=players, seed=3)
    TerminalGame(session, io.StringIO("rules\nquit\n"), out).run()
    text = out.getvalue()
    assert "Bidding on the proposed card" in text and "82 or more" in text
    assert "The house rules in force" in text


def played_through_the_engine(engine: Engine, game: str, example: Example) -> list[bool]:
    """Which of the example's cards the engine lets the player play: a position set up
    by hand (docs/records.md, ``start``) with the player holding the example's cards (and
    others of no suit that could change it), the trick's cards played first."""
    seats = engine.game(game).seats
    trick = list(example.trick)
    assert example.trump is not None and trick
    shown = [c for c in example.cards if c is not None]
    avoid = {trick[0] >> 3, example.trump}
    pool = [c for c in range(32) if c not in shown and c not in trick]
    fill = [c for c in pool if c >> 3 not in avoid][: 8 - len(shown)]
    rest = [c for c in pool if c not in fill]
    leader = (-len(trick)) % seats
    ups: list[list[int]] = [shown + fill]
    for seat in range(1, seats):
        own = [c for i, c in enumerate(trick) if (leader + i) % seats == seat]
        ups.append(own + [rest.pop() for _ in range(8 - len(own))])
    layout: dict[str, object]
    if game == "decouverte":
        piles = [[{"up": card_str(c), "down": card_str(rest.pop())} for c in row] for row in ups]
        layout = {"hands": [[], []], "piles": piles, "open_hands": True}
    else:
        layout = {"hands": [[card_str(c) for c in row] for row in ups]}
    assert not rest
    record = {
        "format": "atout-deal",
        "version": 1,
        "game": game,
        "rules": {},
        "dealer": (leader - 1) % seats,
        "layout": layout,
        "start": {"contract": {"taker": 0, "trump": SUITS[example.trump]}, "leader": leader},
        "actions": [],
    }
    deal = deal_from_record(engine, record)
    for card in trick:
        deal.play(card)
    assert deal.state.turn == 0
    legal = deal.legal_cards()
    return [bool(legal >> c & 1) for c in shown]


@pytest.mark.parametrize("game", ["decouverte", "belote"])
def test_the_examples_of_what_may_be_played_are_what_the_engine_allows(
    engine: Engine, game: str
) -> None:
    examples = [
        b
        for p in rules_pages(engine, engine.default_rules(game))
        for b in p.blocks
        if isinstance(b, Example) and b.allowed
    ]
    assert len(examples) >= 2
    for example in examples:
        assert played_through_the_engine(engine, game, example) == list(example.allowed), (
            example.caption
        )
