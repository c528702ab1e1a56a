"""Every text the window draws goes through the catalogs.

The window draws words through a few helpers: a layer's or a dialog's ``text``, a
``Button``, a dialog's ``button``, a label's ``set_label``, a message (``toast.show``,
``set_message``, ``say_wait``), a panel's ``fitted`` line, the people screen's
``heading``, ``field`` and ``go``, a ``Dialog``'s title, and a label's ``.text``.  This
test reads ui/window's source and fails where one of them is handed words written in the
code (a string or an f-string with letters) instead of ``_()``, ``ngettext`` or
``pgettext`` (or a name that holds a translated text).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

WINDOW = Path(__file__).resolve().parents[1] / "ui" / "window"

SHOWN_BY: dict[str, tuple[int, ...]] = {
    "text": (0,),
    "Button": (1,),
    "button": (0,),
    "set_label": (0,),
    "show": (0,),
    "set_message": (0,),
    "say_wait": (0,),
    "fitted": (0,),
    "heading": (1, 2),
    "field": (1,),
    "go": (1,),
    "Dialog": (3,),
    "bubble": (1,),
    "ask_bid": (1,),
}
"""The drawing helpers by name, and which of their arguments are shown as words."""

NOT_WORDS = {"atout"}
"""Words shown as written in every language: the game's own name."""


def words(node: ast.expr) -> str | None:
    """The words ``node`` writes in the code, if it is a string or an f-string with
    letters outside its fields (``None``: a translated text, a name, a symbol)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr):
        text = "".join(
            v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)
        )
    elif isinstance(node, ast.IfExp):
        return words(node.body) or words(node.orelse)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return words(node.left) or words(node.right)
    else:
        return None
    if text.strip() in NOT_WORDS or not any(ch.isalpha() for ch in text):
        return None
    return text


def unmarked(source: str, name: str) -> list[str]:
    """The places in ``source`` where a drawing helper is handed words not translated."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            for index in SHOWN_BY.get(called, ()):
                if index < len(node.args) and (text := words(node.args[index])) is not None:
                    found.append(f"{name}:{node.lineno}: {called}({text!r})")
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                text = words(node.value)
                if isinstance(target, ast.Attribute) and target.attr == "text" and text:
                    found.append(f"{name}:{node.lineno}: .text = {text!r}")
    return found


def test_every_text_the_window_draws_is_marked() -> None:
    found = []
    for path in sorted(WINDOW.glob("*.py")):
        found += unmarked(path.read_text(encoding="utf-8"), path.name)
    assert not found, "texts drawn without _(), ngettext or pgettext:\n" + "\n".join(found)


@pytest.mark.parametrize(
    ("line", "caught"),
    [
        ('layer.text("Score sheet", 0, 0, 14)', True),
        ('Button(layer, f"Take {suit}", 0, 0, 10, 10, go)', True),
        ('label.text = "Your bid" if mine else ""', True),
        ('toast.show("Wait: it is " + name + "\'s turn.", now)', True),
        ('layer.text(_("Score sheet"), 0, 0, 14)', False),
        ('Button(layer, "−", 0, 0, 46, 38, down)', False),
        ('layer.text("atout", 0, 0, 44)', False),
        ('label.text = _("Take {suit}").format(suit=suit)', False),
    ],
)
def test_the_check_tells_marked_from_unmarked(line: str, caught: bool) -> None:
    """The walk catches words written in the code, and lets translated texts, symbols
    and the game's name through."""
    assert bool(unmarked(line, "example")) is caught
