"""Sans Atout (no trumps) and Tout Atout (all trumps) contracts for atout.

An ordinary third-party rule plugin: installed with pip, found by atout through the
``atout.plugins`` entry point, written against ``atout.core`` only.  The hooks are in
:mod:`atout_sans_tout_atout.plugin`, the card tables and play obligations in
:mod:`atout_sans_tout_atout.rules`.
"""

from .rules import CONTRACTS
from .rules import SANS_ATOUT
from .rules import TOUT_ATOUT

__version__ = "0.1.0"
__all__ = ["CONTRACTS", "SANS_ATOUT", "TOUT_ATOUT", "__version__"]
