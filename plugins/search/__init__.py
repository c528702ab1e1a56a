"""The search library: what every search of a Belote-family deal runs on.

It imports only :mod:`atout.core`: the rules it searches are the ones the engine compiled
for the deal from the rule plugins, never a rule plugin's code.  The bots
(:mod:`atout.plugins.bots`) and the review (:mod:`atout.plugins.review`) stand on it.

* :mod:`.rules`: the deal's rules as tables (:class:`~.rules.CardRules`), asking the
  move rule from inside a search (:class:`~.rules.MoveAsker`), the deal's score sheet
  (:func:`~.rules.deal_outcome`), the installed plugins' engine and a deadline;
* :mod:`.declared`: declarations and belote-rebelote as a seat's view shows them;
* :mod:`.belote_dd`: the four-player double-dummy solver (:class:`~.belote_dd.BeloteDD`);
* :mod:`.decouverte`: Découverte's positions, its two exact solvers, the playout policy
  and sampling, one module each;
* :mod:`.stats`: means, 95% intervals and percentiles, the one place they are computed.
"""
