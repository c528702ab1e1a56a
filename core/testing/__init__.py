"""The conformance kit for rule plugins (``atout.testing``).

A plugin author checks a rule set in a few lines::

    from atout.testing import check_rule_set, engine_with
    import my_plugin

    def test_my_rules_keep_the_invariants():
        engine = engine_with(my_plugin)
        check_rule_set(engine, "belote", {"my_option": True}, deals=200).assert_ok()

or with the pytest fixtures that installing atout registers (``atout_engine``,
``atout_check``; see :mod:`atout.testing.pytest_plugin`).  The checks are listed in
:mod:`atout.testing.kit` and in ``docs/plugins.md``.
"""

from .kit import Failure
from .kit import Report
from .kit import check_rule_set
from .kit import engine_with
from .kit import play_random_deal
from .kit import secret_cards

__all__ = [
    "Failure",
    "Report",
    "check_rule_set",
    "engine_with",
    "play_random_deal",
    "secret_cards",
]
