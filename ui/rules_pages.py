"""The rules of a game in words for a card player: one text for the window and the terminal.

docs/rules.md and docs/decouverte.md state the rules for developers, each sentence with
its test; this module says the same rules to someone who wants to play: the deal, the
piles, the bidding, what must be played, the cards' order and points, the scoring, and
the house rules of the pack in force.  :func:`rules_pages` gives them as
:class:`~atout.ui.rules_model.Page` objects (paragraphs and small
:class:`~atout.ui.rules_model.Example` pictures of cards) that the window's Rules screen
draws (:mod:`atout.ui.window.rules_view`) and :func:`atout.ui.rules_text.rules_text`
writes for the terminal (the ``rules`` command), wrapped to 80 columns.

The numbers are not written again here: the cards' order and points, the dix de der,
the points of a deal and what the taker needs are read from the engine's compiled rules
of a contract (:func:`atout.ui.rules_model.numbers`), the target, the capot bonus and
the other options from the resolved :class:`~atout.core.Rules`, and each option of the
pack is described with the rule plugin's own words (``atout_rule_options``).  The module
imports no arcade: the terminal loads it.
"""

from __future__ import annotations

from atout.core import Engine
from atout.core import Rules
from atout.core.cards import parse_card

from .cards_text import rank_letter
from .cards_text import show_card
from .i18n import _
from .i18n import pgettext
from .messages import option_title
from .messages import option_value
from .messages import shown
from .rules_model import EXAMPLE_PLAIN
from .rules_model import EXAMPLE_TRUMP
from .rules_model import Block
from .rules_model import Example
from .rules_model import Numbers
from .rules_model import Page
from .rules_model import cards
from .rules_model import numbers
from .rules_model import order_text
from .rules_model import points_text

FULL_OPTIONS = 9
"""A game with at most this many options has each described on the options' page; with
more, those left as standard are named with their values only (the page must fit)."""


def rules_pages(engine: Engine, rules: Rules) -> list[Page]:
    """The rules of ``rules.game`` under ``rules`` (the pack in force), page by page:
    Découverte's and four-player Belote's, and for a plugin's game the pages its rules
    share with Belote (the cards, the scoring, its options)."""
    n = numbers(engine, rules)
    if rules.game == "decouverte":
        pages = _decouverte(rules, n)
    elif rules.game == "belote":
        pages = _belote(rules, n)
    else:
        info = engine.game(rules.game)
        pages = [Page(shown(info.title), (shown(info.description),)), _cards_page(n)]
    pages.append(_options_page(engine, rules))
    return pages


def _cards_page(n: Numbers) -> Page:
    trump = tuple(EXAMPLE_TRUMP * 8 + r for r in n.trump_order)
    plain = tuple(EXAMPLE_PLAIN * 8 + r for r in n.plain_order)
    return Page(
        _("The cards: order and points"),
        (
            _(
                "32 cards: four suits of {ranks}. The trump suit has its own order, with "
                "the jack and the nine on top; any trump beats any card of another suit. "
                "A card of a suit other than the one led, if not a trump, never wins a trick."
            ).format(ranks=" ".join(rank_letter(r) for r in range(8))),
            Example(
                trump,
                _("In trumps, highest first: {order} ({points}).").format(
                    order=order_text(n.trump_order),
                    points=points_text(n.trump_order, n.trump_points),
                ),
                tuple(str(n.trump_points[r]) for r in n.trump_order),
            ),
            Example(
                plain,
                _("In the other suits: {order} ({points}).").format(
                    order=order_text(n.plain_order),
                    points=points_text(n.plain_order, n.plain_points),
                ),
                tuple(str(n.plain_points[r]) for r in n.plain_order),
            ),
            _(
                "The cards are worth {cards} points; whoever wins the last trick adds "
                "{last} (the dix de der): {total} points in a deal."
            ).format(cards=n.card_total, last=n.last_trick, total=n.deal_total),
        ),
    )


def _decouverte(rules: Rules, n: Numbers) -> list[Page]:
    reveal = bool(rules.get("reveal_on_lead", False))
    turned = (
        _(
            "When the leader plays a card, the card under it is turned at once, before the "
            "other player answers; the follower's card is turned at the end of the trick."
        )
        if reveal
        else _(
            "A face-down card is turned face up at the end of the trick in which the card "
            "above it was played, and from then on it may be played like any face-up card."
        )
    )
    needed = n.half + 1
    extra = []
    if rules.get("belote_rebelote", False):
        extra.append(
            _(
                "Belote-rebelote: the trump king and queen played by one player score 20 "
                'for him. He says "belote" on the first only when the other is face up '
                'among his cards, else "belote-rebelote" on the second: a face-down card '
                "is never told."
            )
        )
    if rules.get("declarations") == "on":
        extra.append(
            _(
                "Declarations: carrés and sequences in your eight face-up cards when the "
                "play starts count as in four-player Belote; only the player with the best "
                "one scores his."
            )
        )
    capot = int(rules.get("capot_bonus", 0))
    capot_text = (
        _("Capot: winning all {tricks} tricks adds {points} points.").format(
            tricks=n.tricks, points=capot
        )
        if capot
        else _("Capot (winning all {tricks} tricks) adds nothing under these rules.").format(
            tricks=n.tricks
        )
    )
    both = (
        _("play on until one total is higher.")
        if rules.get("both_past_target") == "play-on"
        else _("the match is drawn.")
    )
    return [
        Page(
            _("Belote Découverte: the deal"),
            (
                _(
                    "Belote for two, with the cards on the table. Each player has eight "
                    "piles in two rows: a card face down, and a card face up on top of it. "
                    "Nobody, the owner included, knows a face-down card until it is turned."
                ),
                Example(
                    (parse_card("JH"), None, parse_card("7S"), None, parse_card("AD"), None),
                    _("Three of your piles: a face-up card on a face-down card."),
                    stacked=True,
                ),
                _(
                    "You play only your face-up cards. The dealer alternates from deal to "
                    "deal (North deals first, so you lead first); the cards are shuffled for "
                    "every deal."
                ),
                turned,
            ),
        ),
        Page(
            _("Bidding on the proposed card"),
            (
                _("The last card dealt, the dealer's last face-up card, proposes the trump."),
                _(
                    "Round 1: the non-dealer speaks first. Take (the proposed card's suit "
                    "becomes trump) or pass; then the dealer takes or passes."
                ),
                _("Round 2, if both passed: each may name another suit as trump, or pass."),
                _("If both pass twice, the cards are dealt again by the other player."),
                _(
                    "The taker does not take the proposed card: it stays where it lies, in "
                    "the dealer's piles. Whoever takes, the taker must win more points than "
                    "the other player: {needed} of the {total}."
                ).format(needed=needed, total=n.deal_total),
            ),
        ),
        Page(
            _("Playing: what you must play"),
            (
                _(
                    "{tricks} tricks of two cards. The non-dealer leads to the first; the "
                    "winner of a trick leads to the next. The leader plays any face-up "
                    "card. Then, judged on your face-up cards only:"
                ).format(tricks=n.tricks),
                _(
                    "Follow suit if you can. If trump was led, beat the trump if you can. "
                    "If you cannot follow, you must trump, with a higher trump if you can, "
                    "else still a trump. With no trump, play any card."
                ),
                Example(
                    cards("KS 10S AH JC"),
                    _(
                        "The {led} is led, clubs trump: follow with a spade, either one; "
                        "the ace of hearts and the trump may not be played."
                    ).format(led=show_card(parse_card("8S"))),
                    allowed=(True, True, False, False),
                    trick=cards("8S"),
                    trump=0,
                ),
                Example(
                    cards("JC 8C KS 7D"),
                    _(
                        "The {led} is led, clubs trump: beat it if you can; only the jack does."
                    ).format(led=show_card(parse_card("9C"))),
                    allowed=(True, False, False, False),
                    trick=cards("9C"),
                    trump=0,
                ),
                _(
                    "A face-down card never obliges nor allows anything: it does not count "
                    "until it is turned."
                ),
            ),
        ),
        _cards_page(n),
        Page(
            _("Scoring a deal"),
            (
                _(
                    "Each player counts the points of the tricks he won ({total} in a deal "
                    "with the dix de der)."
                ).format(total=n.deal_total),
                _(
                    "The taker makes his contract with more points than the other player, "
                    "{needed} or more: then each scores his points."
                ).format(needed=needed),
                _(
                    "Dedans: with {half} or fewer the taker fails; the other player scores "
                    "all {total} and the taker nothing ({half_each} each, a tie, is a fail)."
                ).format(half=n.half, total=n.deal_total, half_each=n.deal_total // 2),
                capot_text,
                *extra,
                _(
                    "The first to reach {target} wins the match; both on the same deal: {both}"
                ).format(target=rules.get("target", 1000), both=both),
            ),
        ),
    ]


def _belote(rules: Rules, n: Numbers) -> list[Page]:
    clockwise = rules.get("direction") == "clockwise"
    way = (
        pgettext("way of play", "clockwise")
        if clockwise
        else pgettext("way of play", "anticlockwise")
    )
    first = (
        pgettext("side of the dealer", "left")
        if clockwise
        else pgettext("side of the dealer", "right")
    )
    packets = {
        "3-2": _("3 cards to each player, then 2"),
        "2-3": _("2 cards to each player, then 3"),
        "dealer": _("3 then 2, or 2 then 3, as the dealer chooses"),
    }.get(str(rules.get("deal_packets", "3-2")), _("3 then 2 cards to each player"))
    undertrump_always = rules.get("undertrump") == "always"
    trump_partner = bool(rules.get("must_trump_partner", False))
    partner = (
        _(
            "If your partner is winning the trick you must still trump; a lower trump is then allowed."
        )
        if trump_partner
        else _("If your partner is winning the trick you may play any card instead.")
    )
    under = (
        _(
            "Unable to beat a trump in the trick, you must still play a lower one, even on "
            "your partner's trick."
        )
        if undertrump_always
        else _(
            "Whenever you play a trump, beat the trumps in the trick if you can; over "
            "your partner's trump a lower one is allowed when you cannot."
        )
    )
    decl = str(rules.get("declarations", "on"))
    declarations: list[Block] = []
    if decl == "on":
        declarations = [
            _(
                "Declarations are found for you and shown with your first card: a carré of "
                "jacks 200, of nines 150, of aces, tens, kings or queens 100; a sequence "
                "({order} order) of 3, 4 or 5 cards 20, 50 or 100. Only the team with the "
                "single best declaration scores its declarations."
            ).format(order=" ".join(rank_letter(r) for r in range(7, -1, -1))),
        ]
    tie = {
        "takers-make": _("a tie makes it"),
        "takers-fail": _("a tie fails"),
        "abeyance": _("on a tie the points wait in abeyance for the next deal"),
        "litige": _(
            "on a tie (litige) the defenders score their points and the takers' wait for "
            "the next deal"
        ),
    }.get(str(rules.get("tie", "takers-make")), "")
    capot = int(rules.get("capot_bonus", 90))
    needed = n.half if rules.get("tie", "takers-make") == "takers-make" else n.half + 1
    belote_kept = rules.get("dedans_belote", "keeps") == "keeps"
    return [
        Page(
            _("Belote: the table and the deal"),
            (
                _(
                    "Four players in two teams; partners sit opposite (you and North, East "
                    "and West). Deal, bidding and play go {way}: the player at the dealer's "
                    "{first} is first."
                ).format(way=way, first=first),
                _(
                    "The dealer gives {packets}, then turns the next card face up: it "
                    "proposes the trump."
                ).format(packets=packets),
                Example(
                    cards("JS 9S AH 10H KD"),
                    _("Your first five cards; the turned-up card lies in the middle."),
                ),
                _(
                    "The taker receives the turned-up card; each other player then gets 3 "
                    "more cards and the taker 2: eight each."
                ),
            ),
        ),
        Page(
            _("Bidding on the turned-up card"),
            (
                _(
                    "Round 1, from the dealer's {first}: take (the turned-up card's suit is "
                    "trump) or pass."
                ).format(first=first),
                _("Round 2, if all four passed: name another suit as trump, or pass."),
                _("If all pass again the cards are gathered and the next player deals."),
                _(
                    "Your team takes: it must then score at least {needed} of the {total} "
                    "points when no declaration counts (declarations count for the team "
                    "that scores them)."
                ).format(needed=needed, total=n.deal_total),
            ),
        ),
        Page(
            _("Playing: what you must play"),
            (
                _(
                    "The player after the dealer leads; the winner of a trick leads to the "
                    "next. Follow suit if you can. If trump was led, beat the highest trump "
                    "if you can, even over your partner."
                ),
                _(
                    "If you cannot follow a plain suit, you must trump, with a higher trump "
                    "than any in the trick if you can, else a lower one."
                )
                + " "
                + partner,
                under,
                Example(
                    cards("7C QC 9D 10D KS"),
                    _(
                        "Hearts led by the opponent before you, clubs trump, you have no "
                        "heart: you must trump; either trump will do."
                    ),
                    allowed=(True, True, False, False, False),
                    trick=cards("AH"),
                    trump=0,
                ),
                *(
                    []
                    if trump_partner
                    else [
                        Example(
                            cards("7C QC 9D 10D KS"),
                            _(
                                "Hearts led, your partner's ace winning and you have no "
                                "heart: you may play any card."
                            ),
                            allowed=(True, True, True, True, True),
                            trick=cards("7H AH 8H"),
                            trump=0,
                        )
                    ]
                ),
                *declarations,
                _(
                    "Belote-rebelote: the trump king and queen in one hand score 20; say "
                    '"belote" on the first and "rebelote" on the second.'
                ),
            ),
        ),
        _cards_page(n),
        Page(
            _("Scoring a deal"),
            (
                _(
                    "Each team counts its tricks' points ({total} with the dix de der) and "
                    "the declarations it scores."
                ).format(total=n.deal_total),
                _(
                    "The takers make their contract with at least as many points as the "
                    "defenders ({tie}); then both teams score what they took."
                ).format(tie=tie),
                (
                    _(
                        "Dedans: otherwise the defenders score {total} plus the "
                        "declarations, the takers nothing; belote-rebelote stays with the "
                        "team that held it."
                    )
                    if belote_kept
                    else _(
                        "Dedans: otherwise the defenders score {total} plus the "
                        "declarations, the takers nothing; belote-rebelote goes to the "
                        "defenders too."
                    )
                ).format(total=n.deal_total),
                _(
                    "Capot: the team that wins all {tricks} tricks scores {capot} instead of "
                    "{total}."
                ).format(tricks=n.tricks, capot=n.deal_total + capot, total=n.deal_total),
                _("The first team to reach {target} wins the match.").format(
                    target=rules.get("target", 1000)
                ),
            ),
        ),
        _signals_page(),
    ]


def _signals_page() -> Page:
    """What the bots' discards and leads say, and what they read in everyone's: the club
    players' convention of :mod:`atout.plugins.bots.signals` (a custom of the table, not
    a rule: any legal card may be played), and where a person turns it off
    (:data:`atout.ui.settings.SIGNALS`)."""
    return Page(
        _("Signals: what a partner's cards say"),
        (
            _(
                "Not a rule but a custom of French clubs, which the bots follow: you may "
                "play any legal card, but your partner bot reads your cards so, and its "
                "own mean this."
            ),
            _(
                "Your first discard on a trick your partner is winning (neither the suit "
                "led nor a trump) speaks of its suit. An ace or a king, queen or jack "
                "calls it: play it to me, I hold its ace, or its ten with another card, "
                "or I can trump it now. An ace discarded also shows the ten."
            ),
            _(
                "A ten or a 9, 8 or 7 refuses the suit: nothing there, no ace. With no "
                "suit to call, a player refuses one it does not want."
            ),
            _(
                "A defender's first lead asks for its suit back: an ace, or a suit in "
                "which it keeps the ten."
            ),
            _(
                "The bots read everyone's signals, the opponents' too, as likelihoods: a "
                "player who signals otherwise only misleads them a little."
            ),
            _(
                "Another convention, or none? Turn the signals off with the switch beside "
                "Bots on the start screen (or in Settings; in the terminal, the setting "
                "bot_signals or --bot expert:signals=off): the bots then neither make nor "
                "read them."
            ),
        ),
    )


def _options_page(engine: Engine, rules: Rules) -> Page:
    """The options of the pack in force, in the rule plugin's words, those that differ
    from the game's standard rules first."""
    options = engine.rule_options(rules.game)
    standard = engine.default_rules(rules.game)
    changed: list[str] = []
    same: list[str] = []
    for key, option in options.items():
        if key not in rules:
            continue
        value = rules[key]
        named = _("{name}: {value}").format(
            name=option_title(option), value=option_value(option, value)
        )
        line = f"{named}. {shown(option.description)}"
        (changed if value != standard.get(key) else same).append(line)
    name = rules.pack or pgettext("the rules in force", "the standard rules")
    head = (
        _("The rules in force: {name}.").format(name=name)
        + " "
        + (
            _("They change these from the standard rules:")
            if changed
            else _("They are the game's standard rules.")
        )
    )
    blocks: list[Block] = [head, *changed]
    if same and len(changed) + len(same) <= FULL_OPTIONS:
        blocks.append(_("As standard:") if changed else _("Each option, as standard:"))
        blocks.extend(same)
    elif same:
        blocks.append(
            _("As standard: {options}.").format(options="; ".join(_short(line) for line in same))
        )
    return Page(_("The house rules in force"), tuple(blocks))


def _short(line: str) -> str:
    """``Key: value`` of an option's line, without its description."""
    return line.split(". ", 1)[0]


__all__ = ["rules_pages"]
