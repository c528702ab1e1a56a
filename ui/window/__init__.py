"""The Arcade window: the start view, the tables of both games, their panels.

* :mod:`.app` opens the window, holds what the views share and switches between them;
  it is the only module that imports the views, which know it as a :mod:`.host`
  protocol (so no import goes back to the app).
* :mod:`.start_view`: the first screen (game, pack, bots, target, seed); its columns are
  built by :mod:`.start_columns`, its panels (settings, kept matches, own rules) by
  :mod:`.start_panels`, the own rules' values while their panel is open kept by
  :mod:`.start_own_rules`.
* Learning the game: :mod:`.rules_view` (the Rules screen, the words of
  :mod:`atout.ui.rules_pages`) and :mod:`.guided` (the guided first deal: the Découverte
  table with a coach); the start view's row of :mod:`.learn_row` and the help panel
  show them on the window themselves (they need nothing of the app but the host).
* The table, by composition: a :mod:`.table` (the view's life cycle and drawing)
  holds a layout (:mod:`.table_layout`; the two games' own, :mod:`.table_decouverte` and
  :mod:`.table_belote`) and a driver (:mod:`.table_driver`; a local session's,
  :mod:`.driver`: deals, bots, hint, undo, saving; a server's, :mod:`.net_table`), its
  stage between deals one of :mod:`.table_stage`'s, its input a :mod:`.table_input`
  (the bid buttons, the keyboard's focus, clicks and keys); its parts :mod:`.board` (the cards'
  places and moves), :mod:`.panels` (the status line, seats and side bar's words),
  :mod:`.side_bar` (the score sheet, the cards not seen yet),
  :mod:`.overlays` (help, menu, last trick, end of a deal), :mod:`.table_tell` (what an
  event says at the table), :mod:`.review_view` (the Review screen; its graph's functions
  in :mod:`.review_graph`, its labels' in :mod:`.review_labels`).
* :mod:`.frame`: the logical table laid out for the window's size (every view lays
  itself out again when it changes); :mod:`.gallery`: every screen at every size, the
  screenshots of ``atout play --screenshots`` and the walk the layout tests check.
* Below them: :mod:`.sprites` (card textures and moves), :mod:`.widgets` (layers,
  buttons, messages), :mod:`.theme` (sizes, colours, pace), :mod:`.worker` (where the
  bots think: the bot process of :mod:`.botproc`, or a thread) and :mod:`.measures` (the
  window's figures in ``atout bench``).

Card and seat words shared with the terminal game are in :mod:`atout.ui.cards_text`.
"""

import pyglet

# The window plays no sound: pyglet need not load the audio libraries it would otherwise
# probe for when arcade imports it (about a tenth of a second of the start).
pyglet.options.audio = ("silent",)
