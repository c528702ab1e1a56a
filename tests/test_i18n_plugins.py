"""The texts that come from the plugins and the core, in French and German: a game's and
a bot's titles and descriptions, a rule option's description, the shipped packs' titles
and descriptions, why a card is refused, a hint's reason, a deal's notes, the end of a
match.

The plugins mark them (``atout.core.text``: ``N_`` and :class:`Message`) and the front
end translates them (``atout.ui.messages.shown``): the message id, then each parameter in
the language — never the English sentence already written.
"""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Iterator
from pathlib import Path

import pytest
from atout.core import Action
from atout.core import Engine
from atout.core import IllegalMoveError
from atout.core.cards import HEARTS
from atout.core.cards import JACK
from atout.core.cards import NINE
from atout.core.cards import SPADES
from atout.core.cards import make_card
from atout.core.packs import list_packs
from atout.core.session import BOT
from atout.core.session import PERSON
from atout.core.session import AnnounceEvent
from atout.core.session import MatchOverEvent
from atout.core.session import NoticeEvent
from atout.core.session import Player
from atout.core.session import ScoreEvent
from atout.core.session import Session
from atout.core.text import CardCode
from atout.core.text import CardWord
from atout.core.text import Message
from atout.core.text import SeatWord
from atout.core.text import SuitWord
from atout.plugins.bots.hints import BOTH
from atout.plugins.bots.hints import with_reason
from atout.ui import i18n
from atout.ui.hint_text import hint_line
from atout.ui.messages import shown
from atout.ui.messages import shown_error
from atout.ui.messages import shown_pack
from babel.messages.pofile import read_po

LOCALE = Path(__file__).resolve().parent.parent / "ui" / "locale"
JACK_OF_HEARTS = make_card(HEARTS, JACK)
NINE_OF_SPADES = make_card(SPADES, NINE)


@pytest.fixture
def french() -> Iterator[None]:
    i18n.set_language("fr")
    yield
    i18n.set_language("en")


@pytest.fixture
def german() -> Iterator[None]:
    i18n.set_language("de")
    yield
    i18n.set_language("en")


def test_a_message_is_the_english_sentence_and_keeps_its_id_and_parameters() -> None:
    said = Message("must beat {card}", card=CardWord(JACK_OF_HEARTS))
    assert said == "must beat the jack of hearts" and isinstance(said, str)
    assert said.msgid == "must beat {card}"
    assert said.params == {"card": CardWord(JACK_OF_HEARTS)}
    for again in (copy.deepcopy(said), pickle.loads(pickle.dumps(said))):
        assert isinstance(again, Message) and again.msgid == said.msgid and again == said
    data = json.loads(json.dumps(said.to_json()))
    assert Message.from_json(data) == said and Message.from_json(data).msgid == said.msgid  # type: ignore[union-attr]
    assert Message.from_json({"id": "x {card}", "params": {"card": {"card": 99}}}) is None


def test_a_message_is_translated_by_its_id_and_its_card_written_in_the_language(
    french: None,
) -> None:
    said = Message("must beat {card}", card=CardWord(JACK_OF_HEARTS))
    assert shown(said) == "vous devez monter sur le valet de cœur"
    follow = Message("must follow {suit}", suit=SuitWord(HEARTS))
    assert shown(follow) == "vous devez fournir à cœur"
    # the English sentence itself is not what the catalog is asked for
    assert shown("must follow hearts") == "must follow hearts"


def test_german_writes_the_seat_and_the_card_in_its_words(german: None) -> None:
    capot = Message("{seat} won every trick (capot)", seat=SeatWord("North"))
    assert shown(capot) == "Nord hat alle Stiche gemacht (Capot)"
    missing = Message("{card} is not among your cards", card=CardCode(NINE_OF_SPADES))
    assert shown(missing) == "9♠ ist nicht unter deinen Karten"


def test_a_refused_card_is_told_in_the_language_by_the_session_and_the_engine(
    engine: Engine, french: None
) -> None:
    """A card the rules forbid, found in real deals: the session's reason and the
    engine's refusal are told in French, with no English word of the rule left."""
    told = []
    for seed in range(40):
        players = [Player(PERSON, "You"), *[Player(BOT, "", "greedy")] * 3]
        session = Session(engine, "belote", players=players, seed=seed)
        session.next_deal()
        refused: list[int] = []
        while not refused:
            session.play_bots()
            if session.to_act != 0:
                break
            view = session.view(0)
            if view.phase == "play":
                refused = [c for c in range(32) if view.hand >> c & 1 and not view.legal >> c & 1]
            if not refused:
                session.act(0, view.legal_actions()[0])
        if not refused:
            continue
        reason = session.explain(refused[0])
        assert isinstance(reason, Message)
        told.append(shown(reason))
        with pytest.raises(IllegalMoveError) as refusal:
            session.act(0, Action.play(refused[0]))
        assert shown_error(refusal.value) == told[-1]
    assert len(told) >= 3
    assert all(t.startswith("vous devez") for t in told), told
    assert not [t for t in told if "must" in t or "hearts" in t or "spades" in t]


def test_the_plugins_texts_are_in_the_catalogs(engine: Engine) -> None:
    """Every title and description the installed games, bots, options and shipped packs
    give is a message of both catalogs, translated: a plugin text left unmarked fails."""
    texts = set()
    for info in engine.games.values():
        texts |= {info.title, info.description}
        for option in engine.rule_options(info.name).values():
            texts |= {option.description, option.title, *option.choice_titles}
    for bot in engine.bots.values():
        texts |= {bot.title, bot.description}
    for pack in list_packs(engine):
        if pack.origin == "shipped":
            texts |= {pack.title, pack.description}
    texts.discard("")
    assert len(texts) > 50
    for language in ("fr", "de"):
        with (LOCALE / language / "LC_MESSAGES" / "atout.po").open("rb") as source:
            catalog = read_po(source, locale=language)
        missing = [t for t in sorted(texts) if catalog.get(t) is None or not catalog.get(t).string]  # type: ignore[union-attr]
        assert not missing, (language, missing)


def test_every_option_of_a_shipped_game_has_a_title_and_a_title_for_each_choice(
    engine: Engine,
) -> None:
    """A person reads an option by its title and a choice by its name (the rules' last
    page, the settings), never by the pack file's key and value."""
    for game in engine.games:
        for option in engine.rule_options(game).values():
            assert option.title, (game, option.key)
            if option.kind == "choice":
                assert len(option.choice_titles) == len(option.choices), (game, option.key)


def test_a_shipped_pack_is_translated_and_a_pack_someone_wrote_is_shown_as_written(
    german: None,
) -> None:
    assert shown_pack("Tournament", "shipped") == "Turnier"
    assert shown_pack("Tournament", "user") == "Tournament"
    assert shown_pack("Tournament", "file") == "Tournament"


def test_a_hint_s_reason_is_told_in_the_language_and_shortened_by_its_parts(
    french: None,
) -> None:
    reason = Message(
        BOTH,
        reason=Message("wins the trick"),
        margin=Message("{points} points better than {other}", points=12, other="A♥"),
    )
    hint = with_reason(Action.play(NINE_OF_SPADES), reason)
    assert hint_line(hint) == "Conseil : jouer 9♠ — gagne le pli\u00a0; 12 points de mieux que A♥"
    assert hint_line(hint, parts=1) == "Conseil : jouer 9♠ — gagne le pli"
    assert hint_line(hint, parts=0) == "Conseil : jouer 9♠"


def test_the_end_of_a_match_and_a_deal_s_notes_are_told_in_the_language(
    engine: Engine, german: None
) -> None:
    session = Session(engine, "decouverte", players=[Player(BOT, "", "random")] * 2, seed=3)
    while session.result is None:
        session.next_deal()
        session.play_bots()
    notes = [n for s in session.match.history for n in s.notes]
    assert notes and all(isinstance(n, Message) for n in notes)
    assert all("taker" not in shown(n) and "trick" not in shown(n) for n in notes)
    assert shown(session.result.reason).endswith("erreicht") or "beide" in shown(
        session.result.reason
    )


def test_a_client_over_the_network_is_told_the_rule_in_its_language(french: None) -> None:
    """The server sends the refused card's rule as its message id and parameters beside
    the English text, so that a French client says it in French."""
    from atout.ui.net.client import Client
    from atout.ui.net.client import RemoteTable
    from atout.ui.net.client import create_table
    from atout.ui.net.runner import ServerThread
    from atout.ui.net.server import TableServer

    engine = Engine()
    server = ServerThread(TableServer(engine, None, grace=30.0)).start()
    try:
        url = f"ws://127.0.0.1:{server.port}"
        owner = Client(url).start()
        made = create_table(owner, engine.default_rules("belote"), bot="greedy", seed=7)
        client = Client(url).start()
        table = RemoteTable(client, made["table"], made["tokens"][0], "Ada")
        table.start(made["host"])
        told = ""
        for _ in range(400):
            if table.needs_deal:
                table.next_deal()
            if table.to_act != 0:
                table.wait(0.5)
                continue
            view = table.view(0)
            refused = [c for c in range(32) if view.hand >> c & 1 and not view.legal >> c & 1]
            if view.phase == "play" and refused:
                reason = table.explain(refused[0])
                assert isinstance(reason, Message)
                told = shown(reason)
                break
            table.act(0, view.legal_actions()[0])
        assert told.startswith("vous devez"), told
        client.close()
        owner.close()
    finally:
        server.stop()


def test_a_message_read_from_another_program_formats_plain_fields_only() -> None:
    """A message from the network is formatted only when its fields are plain names of
    its parameters: no attribute, index or conversion reaches the client's objects."""
    for msgid in ("{card.__class__}", "{card[0]}", "{card!r}", "{card:>99}", "{other}", "{"):
        assert Message.from_json({"id": msgid, "params": {"card": {"card": 3}}}) is None
    said = Message.from_json({"id": "must beat {card}", "params": {"card": {"card": 3}}})
    assert said is not None and said.cards() == 1 << 3


def test_the_rules_in_force_name_each_option_and_value_in_the_language(
    engine: Engine, german: None
) -> None:
    """The rules' last page names every option and its value in the language (the rule
    plugin's titles), never the pack file's keys and values."""
    from atout.ui.rules_text import rules_text

    words = " ".join(rules_text(engine.default_rules("belote"), engine).split())
    assert "Richtung: Gegen den Uhrzeigersinn" in words
    assert "Zwischen den Runden: Einsammeln und abheben" in words
    assert "Untertrumpfen: Nicht beim Partner" in words
    for english in ("anticlockwise", "gather-and-cut", "Deal packets", "not-on-partner"):
        assert english not in words, english


def test_a_client_over_the_network_is_told_the_end_of_the_match_in_its_language(
    german: None,
) -> None:
    """The update that ends the match carries its reason as a message too: a German
    client says why the match ended in German."""
    from atout.ui.net.client import Client
    from atout.ui.net.client import RemoteTable
    from atout.ui.net.client import create_table
    from atout.ui.net.runner import ServerThread
    from atout.ui.net.server import TableServer

    engine = Engine()
    server = ServerThread(TableServer(engine, None, grace=30.0)).start()
    try:
        url = f"ws://127.0.0.1:{server.port}"
        owner = Client(url).start()
        rules = engine.default_rules("decouverte").replace(target=1)
        made = create_table(owner, rules, bot="random", seed=4)
        client = Client(url).start()
        table = RemoteTable(client, made["table"], made["tokens"][0], "Ada")
        table.start(made["host"])
        for _ in range(400):
            if table.result is not None:
                break
            if table.needs_deal:
                table.next_deal()
            if table.to_act != 0:
                table.wait(0.5)
                continue
            table.act(0, table.view(0).legal_actions()[0])
        assert table.result is not None
        assert isinstance(table.result.reason, Message)
        assert shown(table.result.reason) == "1 erreicht" or "beide" in shown(table.result.reason)
        client.close()
        owner.close()
    finally:
        server.stop()


def test_a_bot_s_failure_is_told_in_the_language(engine: Engine, french: None) -> None:
    """A bot that answers a card the rules forbid: the session's notice says so, the
    rule included, in the language."""
    from atout.core.session import NOTICE

    players = [Player(PERSON, "You"), Player(BOT, "", "greedy")]
    session = Session(engine, "decouverte", players=players, seed=2)
    session.next_deal()
    told = ""
    while not told and session.result is None:
        if session.to_act is None:
            session.next_deal()
            continue
        seat = session.to_act
        view = session.view(seat)
        refused = [c for c in range(32) if view.hand >> c & 1 and not view.legal >> c & 1]
        if seat == 1 and view.phase == "play" and refused:
            events = session.bot_answer(1, Action.play(refused[0]))
            told = shown(next(e.text for e in events if e.kind == NOTICE))
        else:
            session.act(seat, view.legal_actions()[0])
    assert told.startswith("le robot de Nord a essayé "), told
    assert "vous devez" in told and "must" not in told


def test_an_event_s_texts_travel_as_messages_the_client_says_in_its_language(
    french: None,
) -> None:
    """An announcement, a deal's notes and the end of the match keep their messages
    through the events' JSON form (what a network client reads); a message naming a card
    the event does not show travels as its English text only."""
    from atout.core.model import DealScore
    from atout.core.model import MatchResult
    from atout.core.session import Event

    def again(event: Event) -> Event:
        return Event.from_json(json.loads(json.dumps(event.to_json())))

    tierce = Message("tierce to {card}", card=CardWord(JACK_OF_HEARTS))
    said = again(AnnounceEvent(seat=1, deal=1, cards=1 << JACK_OF_HEARTS, text=tierce))
    assert shown(said.text) == "tierce, le valet de cœur en tête"
    note = Message("the taker has {points} points, 81 or fewer: dedans", points=70)
    score = DealScore((70, 92), (0, 0), (0, 162), "dedans", notes=(note, "plain"))
    told = again(ScoreEvent(deal=1, score=score)).score
    assert told is not None
    assert [shown(n) for n in told.notes] == [
        "le preneur a 70 points, 81 ou moins\u00a0: dedans",
        "plain",
    ]
    over = again(
        MatchOverEvent(deal=2, result=MatchResult(0, Message("reached {target}", target=500)))
    )
    assert over.result is not None and shown(over.result.reason) == "500 atteints"
    hidden = Message("must beat {card}", card=CardWord(NINE_OF_SPADES))
    notice = NoticeEvent(seat=1, deal=1, text=hidden)
    assert "message" not in notice.to_json()
    assert not isinstance(again(notice).text, Message)
