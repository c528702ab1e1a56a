"""The table names its bots by their levels' titles in the chosen language (the seat
plates' "Nord · Intermédiaire", the side bar's "Robots : Intermédiaire"), never by the
name the command line takes (``greedy``)."""

from __future__ import annotations

from atout.ui import i18n
from atout.ui.rules import resolve_rules
from atout.ui.savegame import Setup
from atout.ui.window.app import App


def test_the_table_names_the_bots_by_their_titles_in_french(app: App) -> None:
    i18n.set_language("fr")
    setup = Setup(game="belote", bot="greedy", seed=5)
    table = app.start_match(setup, resolve_rules(app.engine, "belote", None))
    casual = i18n._("Casual")
    assert casual != "Casual"
    plates = [label.text for label in table.status_panel.seat_labels.values()]
    assert f"{i18n._('North')} · {casual}" in plates, plates
    words = [t.text for t in table.hud.texts if t.visible and t.x > table.frame.table_right]
    assert i18n._("Bots: {bots}").format(bots=casual) in words, words
    assert not [w for w in [*plates, *words] if "greedy" in w]
    app.leave_table()
