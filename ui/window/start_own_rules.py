"""The start view's panel of the person's own house rules.

Every yes/no and choice option of the game, starting from the chosen pack's values; each
button turns its option to the next value and Save writes them as the person's own pack
(:func:`~atout.ui.savegame.save_own_pack`), which the start view then chooses.  The panel
is drawn by :func:`~atout.ui.window.start_panels.rules_dialog`; this part keeps the
values being edited while it is open (a new window size opens it again with them).
"""

from __future__ import annotations

from typing import Any
from typing import Protocol

import arcade
from atout.core import Engine
from atout.core import Rules
from atout.core.errors import AtoutError
from atout.core.packs import PackInfo
from atout.core.packs import list_packs

from .. import savegame
from ..i18n import _
from ..messages import option_title
from ..messages import shown
from ..messages import shown_error
from ..savegame import Setup
from .start_panels import rules_dialog
from .start_rows import Dialog


class RulesChooser(Protocol):
    """What the panel needs of the start view
    (:class:`~atout.ui.window.start_view.StartView`, which imports this module)."""

    engine: Engine
    setup: Setup
    packs: list[PackInfo]
    pack_page: int
    dialog: Dialog | None

    def pack_rules(self) -> Rules | None: ...

    def pack_title(self, name: str) -> str: ...

    def page_of(self, name: str) -> int: ...

    def screen(self) -> tuple[float, float]: ...

    def set_message(self, message: str) -> None: ...

    def close_dialog(self) -> None: ...

    def build(self) -> None: ...

    def select_pack(self, name: str) -> None: ...

    def refresh(self) -> None: ...


class OwnRules:
    """The panel of the person's own rules over ``view``, and its values while open."""

    def __init__(self, view: RulesChooser) -> None:
        self.view = view
        self.values: dict[str, Any] = {}
        """The values of the panel, while it is open."""
        self.note = ""
        """What is written under the list: the option last turned, or why Save failed."""
        self.text: arcade.Text | None = None
        """The text that writes :attr:`note` in the open panel."""

    def open(self, keep: bool = False) -> None:
        """The panel of the person's own house rules: every yes/no and choice option of
        the game, starting from the chosen pack's values (``keep``: from those being
        edited), each button turning to the next value; Save writes them as the person's
        own pack (:func:`~atout.ui.savegame.save_own_pack`) and chooses it."""
        view = self.view
        rules = view.pack_rules()
        if rules is None:
            view.set_message(_("The chosen house rules cannot be read: choose others first."))
            return
        if not keep or not self.values:
            self.values = rules.to_dict()
            self.note = ""
        base = view.pack_title(view.setup.pack) if view.setup.pack else _("the standard rules")
        view.dialog, self.text = rules_dialog(
            view.screen(),
            view.engine,
            view.setup.game,
            rules,
            base,
            self.values,
            self.note,
            (self.cycle, self.save, view.close_dialog),
        )

    def cycle(self, key: str) -> None:
        """The option ``key`` of the panel of the person's own rules takes its next value
        (yes/no, or the next choice), and its description is written under the list."""
        view = self.view
        option = view.engine.rule_options(view.setup.game)[key]
        values: list[Any] = [False, True] if option.kind == "bool" else list(option.choices)
        now = self.values.get(key, option.default)
        self.values[key] = (
            values[(values.index(now) + 1) % len(values)] if now in values else values[0]
        )
        self.note = _("{name}: {description}").format(
            name=option_title(option), description=shown(option.description)
        )
        self.open(keep=True)

    def save(self) -> None:
        """Save the panel's rules as the person's own pack and choose it."""
        view = self.view
        base = view.pack_title(view.setup.pack) if view.setup.pack else "the standard rules"
        try:
            name = savegame.save_own_pack(view.engine, view.setup.game, self.values, base)
        except AtoutError as exc:
            self.note = shown_error(exc)
            self.open(keep=True)
            return
        view.close_dialog()
        view.packs = list_packs(view.engine)
        self.values = {}
        view.build()
        view.select_pack(name)
        view.pack_page = view.page_of(name)
        view.refresh()
        view.set_message(
            _("Your rules are saved as the pack {name}, and chosen.").format(name=name)
        )


__all__ = ["OwnRules", "RulesChooser"]
