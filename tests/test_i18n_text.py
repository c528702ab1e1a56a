"""The terminal and the command line in French and German: the catalogs' texts, the
card letters of each language in what is shown and what is typed, records that stay
language-free, the plain mode for screen readers and the four-colour deck.

The catalogs are compiled here from the ``.po`` files with Babel's API, so that these
tests judge the translations as written, whatever builds the catalogs for a release.
"""

from __future__ import annotations

import gettext
import io
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from atout.core import Engine
from atout.core import card_str
from atout.core.cards import JACK
from atout.core.cards import SUIT_SYMBOLS
from atout.core.cards import SUITS
from atout.core.cards import CardParseError
from atout.core.cards import make_card
from atout.core.records import match_from_record
from atout.core.session import BOT
from atout.core.session import PERSON
from atout.core.session import Player
from atout.core.session import Session
from atout.ui import i18n
from atout.ui import savegame
from atout.ui.cards_text import card_name
from atout.ui.cards_text import read_card
from atout.ui.cards_text import show_card
from atout.ui.rules_text import rules_text
from atout.ui.terminal import BLUE
from atout.ui.terminal import GREEN
from atout.ui.terminal import RED
from atout.ui.terminal import TerminalGame
from atout.ui.terminal import help_text
from atout.ui.terminal import paint
from atout.ui.terminal_match import four_colour_setting
from atout.ui.terminal_match import play_match
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALE = Path(__file__).resolve().parent.parent / "ui" / "locale"


def catalog(lang: str) -> gettext.GNUTranslations:
    """The ``lang`` catalog, compiled from its ``.po`` file."""
    with open(LOCALE / lang / "LC_MESSAGES" / "atout.po", "rb") as f:
        po = read_po(f)
    mo = io.BytesIO()
    write_mo(mo, po)
    mo.seek(0)
    return gettext.GNUTranslations(mo)


@pytest.fixture
def language() -> Iterator[None]:
    """Each test chooses its language; English again afterwards."""
    yield
    i18n.use(gettext.NullTranslations())


def use(lang: str) -> None:
    i18n.use(catalog(lang))


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_every_message_of_the_terminal_is_translated_and_none_is_fuzzy(lang: str) -> None:
    with open(LOCALE / lang / "LC_MESSAGES" / "atout.po", "rb") as f:
        po = read_po(f)
    messages = [m for m in po if m.id]
    assert len(messages) > 150
    assert not [m.id for m in messages if m.fuzzy]
    untranslated = [
        m.id for m in messages if not all(m.string if isinstance(m.string, tuple) else [m.string])
    ]
    assert not untranslated
    assert [(m.id, errors) for m, errors in po.check()] == []  # plural forms, formats
    # each translation keeps the message's placeholders
    for m in messages:
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        wanted = set(re.findall(r"\{\w+\}", ids[-1]))
        for s in strings:
            found = set(re.findall(r"\{\w+\}", s))
            assert found <= wanted | set(re.findall(r"\{\w+\}", ids[0])), (m.id, s)


def test_card_letters_follow_the_language_in_what_is_shown(language: None) -> None:
    jack_of_hearts = make_card(SUITS.index("H"), JACK)
    assert show_card(jack_of_hearts) == "J♥"
    assert card_name(jack_of_hearts) == "the jack of hearts"
    use("fr")
    assert show_card(jack_of_hearts) == "V♥"
    assert card_name(jack_of_hearts) == "le valet de cœur"
    assert show_card(read_card("RS")) == "R♠" and show_card(read_card("DD")) == "D♦"
    use("de")
    assert show_card(jack_of_hearts) == "B♥"
    assert card_name(jack_of_hearts) == "der Herz-Bube"
    assert card_name(read_card("AS")) == "das Pik-Ass"


@pytest.mark.parametrize(
    ("lang", "typed", "english"),
    [
        ("fr", "VC", "JC"),
        ("fr", "dh", "QH"),
        ("fr", "R♠", "KS"),
        ("de", "BC", "JC"),
        ("de", "D♥", "QH"),
    ],
)
def test_the_language_s_letters_and_the_english_ones_are_both_accepted(
    language: None, lang: str, typed: str, english: str
) -> None:
    use(lang)
    assert read_card(typed) == read_card(english)


def test_a_letter_of_another_language_is_refused_with_the_accepted_letters(language: None) -> None:
    use("fr")
    with pytest.raises(CardParseError) as refused:
        read_card("BH")  # German's jack
    assert "n'est pas une carte" in str(refused.value)
    assert "V D R" in str(refused.value) and "(ou J Q K)" in str(refused.value)


@pytest.mark.parametrize(
    ("lang", "letters"), [("fr", "V D R A (ou J Q K)"), ("de", "B D K A (oder J Q)")]
)
def test_help_says_which_letters_are_accepted(language: None, lang: str, letters: str) -> None:
    use(lang)
    assert letters in help_text()


class ReadingPerson(io.StringIO):
    """A person who reads the prompt on the screen and answers it in the language's
    words: a bid offered there, or a card of the legal ones listed (typed in the
    language's letters, sometimes in the English ones), now and then a command."""

    def __init__(
        self, out: io.StringIO, bid: str, card: str, seed: int, commands: list[str]
    ) -> None:
        super().__init__()
        self.out = out
        self.bid, self.card = bid, card
        self.rng = random.Random(seed)
        self.commands = commands
        self.english_typed = 0

    def readline(self, size: int | None = -1) -> str:
        prompt = self.out.getvalue().rsplit("\n", 1)[-1]
        if self.commands and self.rng.random() < 0.1:
            return self.commands.pop() + "\n"
        if prompt.strip().startswith(self.bid):
            choices = prompt.strip()[len(self.bid) :].rsplit(")", 1)[0].split(":")[-1]
            choice = self.rng.choice(choices.split(" / ")).strip()
            return choice.split(" = ")[0] + "\n"
        assert self.card in prompt, prompt
        cards = prompt.split(self.card, 1)[1].split(")")[0].split()
        shown = self.rng.choice(cards)
        typed = shown[:-1] + SUITS[SUIT_SYMBOLS.index(shown[-1])]
        english = card_str(read_card(typed))
        if english != typed and self.rng.random() < 0.3:
            self.english_typed += 1
            return english + "\n"
        return typed + "\n"


PHRASES = {
    "fr": {
        "bid": "Votre enchère (",
        "card": "(permises : ",
        "commands": ["score", "dernier", "aide"],
        "said": [
            "Donne 1 : ",
            " : « Je passe. »",
            " : « Je prends à ",
            "Vous jouez ",
            "Nord joue ",
            "remporte le pli (",
            "Fin de la donne : ",
            "points des cartes",
            "Partie : Vous ",
            "Votre carte (permises : ",
            "La carte cachée de Nord est retournée : ",
            "Cartes : tapez la hauteur (7 8 9 10 V D R A (ou J Q K)",
            "Dernier pli : ",
            "donne comptée",
            "Retourne : ",
            "la partie : ",
            "graine",
            "L'enregistrement de la partie est sauvegardé dans",
        ],
        "letters": "VDR",
    },
    "de": {
        "bid": "Dein Gebot (",
        "card": "(erlaubt: ",
        "commands": ["stand", "letzter", "hilfe"],
        "said": [
            "Runde 1: ",
            ": „Ich passe.“",
            ": „Ich nehme an.“ Trumpf ist ",
            "Du spielst: ",
            "Nord spielt: ",
            "den Stich (",
            "Ende der Runde: ",
            "Kartenpunkte",
            "Partie: Du ",
            "Deine Karte (erlaubt: ",
            "Die verdeckte Karte von Nord wird aufgedeckt: ",
            "Karten: gib den Rang (7 8 9 10 B D K A (oder J Q)",
            "Letzter Stich: ",
            "bisher gewertet",
            "Aufgedeckte Karte: ",
            "die Partie: ",
            "Startwert",
            "Der Partiebericht ist gespeichert in",
        ],
        "letters": "BDK",
    },
}
ENGLISH = [
    "Deal 1:",
    "You play",
    " plays ",
    "the trick (",
    "End of the deal",
    "card points",
    "Match: ",
    "Your card (legal:",
    "face-down card is turned",
    "Cards: type the rank",
    "Last trick:",
    "scored so far",
    "Proposed trump",
    "the match:",
    " passes.",
    " takes ",
    "You pass",
    "North",
    "South",
    ", seed ",
    "The match record is saved",
    "reached ",
    "the taker has",
    "won every trick",
]
"""What the terminal says in English in a Découverte match, none of it left in the
French and German ones (the rule plugin's notes and the end of the match included)."""


def play_in(lang: str, engine: Engine, path: Path, seed: int) -> tuple[str, ReadingPerson]:
    use(lang)
    out = io.StringIO()
    words = PHRASES[lang]
    person = ReadingPerson(
        out, str(words["bid"]), str(words["card"]), seed, list(words["commands"])
    )
    play_match(
        engine,
        "decouverte",
        engine.default_rules("decouverte"),
        bot="random",
        seed=seed,
        save=str(path),
        inp=person,
        out=out,
        auto_forced=False,
    )
    return out.getvalue(), person


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_a_whole_decouverte_match_is_played_in_the_language(
    language: None, engine: Engine, tmp_path: Path, lang: str
) -> None:
    text, person = play_in(lang, engine, tmp_path / "match.json", seed=21)
    assert re.search(r"(gagnez|gagnent|gagne|gewinnen|gewinnt) la partie|die Partie", text)
    assert person.english_typed > 0  # the English letters were typed too, and taken
    assert not re.search("n'est pas une carte|ist keine Karte", text)
    words = PHRASES[lang]
    missing = [p for p in words["said"] if p not in text]
    assert not missing
    left = [p for p in ENGLISH if p in text]
    assert not left
    # the cards are shown in the language's letters, never the English J or Q
    shown = re.findall(r"(10|[7-9A-Z])[♣♦♥♠]", text)
    assert set(words["letters"]) & set(shown)
    assert not {"J", "Q"} & set(shown)


def test_a_record_made_in_french_replays_identically_in_german(
    language: None, engine: Engine, tmp_path: Path
) -> None:
    path = tmp_path / "match.json"
    play_in("fr", engine, path, seed=5)
    written = path.read_text(encoding="utf-8")
    data = json.loads(written)
    # the record is language-free: the fixed forms of cards and bids, no French word
    assert not re.search(r"Vous|Nord|Sud|prendre|passer|[VR][CDHS]\b", written)
    french = match_from_record(engine, data, str(path))
    use("de")
    german = match_from_record(engine, json.loads(written), str(path))
    assert french.scores == german.scores and german.result is not None
    assert [d.actions for d in french.deals] == [d.actions for d in german.deals]


def test_the_plain_mode_tells_each_event_in_one_sentence_and_the_cards_in_words(
    engine: Engine,
) -> None:
    out = io.StringIO()
    session = Session(
        engine,
        "decouverte",
        engine.default_rules("decouverte"),
        players=[Player(PERSON, "You"), Player(BOT, "", "random")],
        seed=3,
    )
    holder: list[TerminalGame] = []

    class Person(io.StringIO):
        def __init__(self) -> None:
            super().__init__()
            self.lines = ["board", "cards", "trick", "hand", "last"]

        def readline(self, size: int | None = -1) -> str:
            if self.lines:
                return self.lines.pop() + "\n"
            view = holder[0].session.view(0)
            return str(random.Random(len(out.getvalue())).choice(view.legal_actions())) + "\n"

    holder.append(TerminalGame(session, Person(), out, colour=True, plain=True))
    holder[0].run()
    text = out.getvalue()
    assert session.result is not None
    assert "\x1b[" not in text  # no colour codes for a screen reader
    assert not re.search("[♣♦♥♠▒]", text)  # cards and suits in words, no symbol to spell
    for mark in ("[", "▒", "===", "---", "far :", "near:"):
        assert mark not in text
    assert re.search(
        r"Your turn\. You may play the (seven|eight|nine|ten|jack|queen|king|ace) of", text
    )
    assert "You play the " in text and "North plays the " in text
    assert "Your piles: " in text and "North's piles: " in text
    assert ", each on a face-down card" in text and "face-down card alone" in text
    assert "Deal 1: " in text and "End of the deal: " in text
    # the board is not printed again: each part once a deal, unless asked for
    piles = [line for line in text.splitlines() if line.startswith("Your piles")]
    deals = text.count("Deal ")
    assert len(piles) <= deals + 3
    # every line is a sentence
    lines = [line for line in text.splitlines() if line.strip()]
    for line in lines:
        assert line.rstrip().endswith((".", ":", "!", ")", ": ")) or "Your turn" in line, line


def test_the_four_colour_deck_paints_diamonds_blue_and_clubs_green() -> None:
    text = "A♠ 10♥ V♦ 7♣"
    four = paint(text, four_colour=True)
    assert f"{RED}10♥" in four and f"{BLUE}V♦" in four and f"{GREEN}7♣" in four
    assert four.startswith("A♠ \x1b")  # spades keep the terminal's own colour
    two = paint(text)
    assert f"{RED}V♦" in two and GREEN not in two and BLUE not in two


def test_the_four_colour_setting_gives_no_colour_where_none_is_shown(engine: Engine) -> None:
    out = io.StringIO()  # not a terminal: plain text
    play_match(
        engine,
        "decouverte",
        engine.default_rules("decouverte"),
        bot="random",
        seed=2,
        inp=io.StringIO("quit\n"),
        out=out,
        four_colour=True,
    )
    text = out.getvalue()
    assert "♦" in text or "♣" in text
    assert "\x1b[" not in text


def test_the_four_colour_setting_is_read_from_the_settings_file() -> None:
    assert four_colour_setting() is False
    savegame.save_settings({"four_colour": True})
    assert four_colour_setting() is True


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("fr", ["Les cartes : ordre et valeur", "dix de der", "V 9 A 10 R D 8 7", "Dedans : "]),
        ("de", ["Die Karten: Rangfolge und Punkte", "Stich", "B 9 A 10 K D 8 7", "Trumpf"]),
    ],
)
def test_the_rules_text_is_told_in_the_language_within_80_columns(
    language: None, engine: Engine, lang: str, words: list[str]
) -> None:
    use(lang)
    for game in ("decouverte", "belote"):
        text = rules_text(engine.default_rules(game), engine)
        assert all(len(line) <= 80 for line in text.splitlines())
        for english in ("The cards: order and points", "Scoring a deal", "highest first"):
            assert english not in text
    text = rules_text(engine.default_rules("decouverte"), engine)
    assert [w for w in words if w not in text] == []


@pytest.mark.parametrize(
    ("lang", "typed", "bid"),
    [
        ("fr", "prendre", "take"),
        ("fr", "prends", "take"),
        ("fr", "PASSE", "pass"),
        ("de", "annehmen", "take"),
        ("de", "passen", "pass"),
        ("fr", "take", "take"),
    ],
)
def test_a_bid_is_typed_as_the_language_says_it_and_reaches_the_session_in_english(
    language: None, engine: Engine, lang: str, typed: str, bid: str
) -> None:
    use(lang)
    session = Session(
        engine,
        "decouverte",
        engine.default_rules("decouverte"),
        players=[Player(PERSON, "You"), Player(BOT, "", "random")],
        seed=1,
    )
    game = TerminalGame(session, io.StringIO(), io.StringIO())
    game.tell(session.next_deal())
    view = session.view(0)
    assert view.phase == "bidding" and bid in view.legal_bids
    action = game.read_action(typed, view)
    assert action is not None and action.kind == "bid" and action.value == bid
