"""The ``atout`` console script's entry point: Ctrl-C at any moment of the start, and at
any moment of the end, is a quiet exit with code 130, never a traceback.

This module imports nothing but ``signal``, so its first lines replace Python's Ctrl-C
handler (a :class:`KeyboardInterrupt` and its traceback) before any of atout's modules
load.  That quiet handler stays until :func:`atout.ui.cli.main` takes Ctrl-C inside its
own ``try``, and it is what Ctrl-C does again once ``main`` has returned, until the
process ends: Python's own handler is never back in place, not even for the few
instructions between loading and running, where a Ctrl-C would escape every ``try``.

The quiet handler is installed by this module only: importing :mod:`atout.ui.cli`, as the
tests and other programs do, changes no handler.
"""

from __future__ import annotations

import signal

INTERRUPT_EXIT = 130
"""The exit code after Ctrl-C (128 + SIGINT)."""

interrupted = False
"""Whether Ctrl-C came while atout loaded: the interpreter may swallow the exception a
signal handler raises (while it compiles a module's source, it does), so :func:`main`
looks at the flag again."""


def quiet_exit(signum: int, frame: object) -> None:
    """Ctrl-C before or after :func:`atout.ui.cli.main` runs: a quiet exit
    (``SystemExit`` prints nothing)."""
    global interrupted
    interrupted = True
    raise SystemExit(INTERRUPT_EXIT)


# Swapped in first and looked at after: a Ctrl-C during the swap meets the quiet handler.
# A handler someone else chose (Ctrl-C ignored in a background job) is put back.
_previous = signal.signal(signal.SIGINT, quiet_exit)
if _previous is not signal.default_int_handler:
    signal.signal(signal.SIGINT, _previous)


def main() -> int:
    """Run ``atout`` (the console script's entry point); returns the exit code."""
    try:
        from atout.ui.cli import main as run  # the heavy imports, Ctrl-C still quiet
    except Exception:
        if interrupted:  # the Ctrl-C, wrapped: see :func:`atout.ui.cli.main`
            return INTERRUPT_EXIT
        raise

    if interrupted:  # a Ctrl-C the loading swallowed
        return INTERRUPT_EXIT
    return run(quiet=quiet_exit)
