"""The simple bots: they see only a seat's view, like every bot."""

from __future__ import annotations

import random

from atout.core.model import Action
from atout.core.views import View


class RandomBot:
    """Plays a uniformly random legal action (a baseline and a test opponent)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        """A random legal action of ``view``."""
        return self.rng.choice(view.legal_actions())
