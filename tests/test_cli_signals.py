"""Ctrl-C at any moment of ``atout``'s start, and output into a pipe closed early, end
quietly: exit code 130 and 141, never a traceback nor Python's "Exception ignored"."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ENTRY = (
    "import sys\n"
    "import importlib.util\n"
    "import atout.ui\n"
    "importlib.util.find_spec('atout.ui.cli')\n"
    "print('ready', flush=True)\n"
    "sys.stdin.readline()\n"
    "from atout.ui.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)
"""What the console script ``atout`` does (its entry point is ``atout.ui.cli:main``),
once the interpreter has started and found the ``atout.ui`` package and the
``atout.ui.cli`` module (a docstring).  An interrupt before the first line of
``atout.ui.cli`` runs (Python starting, looking up the module on its path, compiling it
when no cached bytecode is there) is Python's, not atout's: the moments tested begin
just after ``main`` is asked for, the module found."""
MOMENTS = 24
"""Interrupts sent, spread over the time a start takes."""


def _start(argv: list[str], data: Path) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [sys.executable, "-c", ENTRY, *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "XDG_DATA_HOME": str(data)},
        # a suite started in the background inherits SIGINT ignored: judge the CLI
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert process.stdout is not None and process.stdin is not None
    assert process.stdout.readline() == b"ready\n"
    process.stdin.write(b"go\n")
    process.stdin.flush()
    return process


def test_ctrl_c_at_any_moment_of_the_start_is_a_quiet_exit_130(tmp_path: Path) -> None:
    argv = ["play", "--text", "--seed", "3"]
    probe = _start(argv, tmp_path)
    begin = time.monotonic()
    assert probe.stdout is not None
    probe.stdout.readline()  # the match has started: every import is done
    start_time = time.monotonic() - begin
    probe.kill()
    probe.communicate()
    loud = []
    for n in range(1, MOMENTS + 1):
        process = _start(argv, tmp_path)
        time.sleep(start_time * n / (MOMENTS + 1))
        process.send_signal(signal.SIGINT)
        process.wait(timeout=60)  # stdin stays open: the interrupt, not its end, stops it
        _, err = process.communicate()
        if process.returncode != 130 or b"Traceback" in err or b"Exception" in err:
            loud.append((n, process.returncode, err.decode(errors="replace")[-200:]))
    assert not loud, f"{len(loud)} of {MOMENTS} interrupts were loud: {loud}"


def test_help_into_a_pipe_closed_at_once_is_quiet(tmp_path: Path) -> None:
    for argv in (["play", "--help"], ["--help"], ["variants", "--help"]):
        process = subprocess.Popen(
            [sys.executable, "-m", "atout.ui.cli", *argv],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            # buffered output, as in a shell: flushed when the process ends
            env={**_buffered(), "XDG_DATA_HOME": str(tmp_path)},
        )
        assert process.stdout is not None
        process.stdout.close()  # `atout play --help | true`
        _, err = process.communicate(timeout=60)
        assert process.returncode in (0, 141), (argv, process.returncode, err)
        assert err == b"", err


def _buffered() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
