"""The table's stages: one enum, its moves written once; a driver's move outside them is
refused at once, with what and where; a table holds its game's layout and its match's
driver."""

from __future__ import annotations

import pytest
from atout.ui.cards_text import HUMAN
from atout.ui.savegame import Setup
from atout.ui.window.app import App
from atout.ui.window.driver import MatchDriver
from atout.ui.window.gallery import play_out
from atout.ui.window.gallery import start
from atout.ui.window.table_belote import BeloteLayout
from atout.ui.window.table_decouverte import DecouverteLayout
from atout.ui.window.table_stage import MOVES
from atout.ui.window.table_stage import Stage
from atout.ui.window.table_stage import after_deal

pytestmark = pytest.mark.ui


def test_every_stage_is_a_text_and_has_its_moves() -> None:
    assert set(MOVES) == set(Stage)
    assert Stage.PLAY == "play" and Stage("deal_over") is Stage.DEAL_OVER
    assert [s for s in Stage if s.over] == [Stage.DEAL_OVER, Stage.MATCH_OVER]
    assert after_deal(True) is Stage.MATCH_OVER and after_deal(False) is Stage.DEAL_OVER


def test_a_move_the_table_does_not_make_is_refused_with_both_stages() -> None:
    for stage, moves in MOVES.items():
        for other in Stage:
            if other in moves:
                assert stage.to(other) is other
            else:
                with pytest.raises(ValueError, match=f"from {stage.value} to {other.value}"):
                    stage.to(other)
    assert MOVES[Stage.MATCH_OVER] == frozenset()  # a new match is a new table


def test_a_table_holds_its_games_layout_and_a_sessions_driver(app: App) -> None:
    app.speed = 0.0
    belote = app.start_match(
        Setup(game="belote", bot="random", seed=3), app.engine.default_rules("belote")
    )
    assert isinstance(belote.layout, BeloteLayout) and belote.layout.table is belote
    assert isinstance(belote.driver, MatchDriver) and belote.driver.table is belote
    assert belote.match is belote.driver.session.match and belote.deal is belote.driver.deal
    table = start(app, "decouverte")
    assert isinstance(table.layout, DecouverteLayout)
    play_out(table)  # to the end of the first deal (a match to 1000 goes on)
    assert table.stage == Stage.DEAL_OVER
    with pytest.raises(ValueError, match="from deal_over to redeal"):
        table.go_to(Stage.REDEAL)
    assert table.stage == Stage.DEAL_OVER  # nothing half-done
    table.driver.start_deal()
    assert table.stage == Stage.PLAY and table.view is not None and table.view.seat == HUMAN
    assert len(table.match.history) == 1
