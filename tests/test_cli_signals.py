"""Ctrl-C at any moment of ``atout``'s start, and output into a pipe closed early, end
quietly: exit code 130 and 141, never a traceback nor Python's "Exception ignored"; a
program that calls ``main`` again after a Ctrl-C gets a whole run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path

import pytest

INTERRUPT_EXIT = 130
"""128 + SIGINT, as a shell reports an interrupted command."""

SCRIPT = "(script,) = importlib.metadata.entry_points(group='console_scripts', name='atout')\n"
"""The line that finds the installed console script ``atout`` (needs importlib.metadata)."""

ENTRY = (
    "import importlib.metadata\n"
    "import importlib.util\n"
    "import sys\n"
    "import atout.ui\n" + SCRIPT + "importlib.util.find_spec(script.module)\n"
    "print('ready', flush=True)\n"
    "sys.stdin.readline()\n"
    "sys.exit(script.load()())\n"
)
"""What the installed console script ``atout`` does (``from MODULE import main;
sys.exit(main())``, its entry point read from the install), once the interpreter has
started and found the ``atout.ui`` package and the entry point's module.  An interrupt
before the first line of that module runs (Python starting, looking up the module on its
path, compiling it when no cached bytecode is there) is Python's, not atout's: the
moments tested begin just after ``main`` is asked for, the module found."""
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
        if process.returncode != INTERRUPT_EXIT or b"Traceback" in err or b"Exception" in err:
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


AT_EVERY_HANDLER_CHANGE = (
    "import importlib.metadata, os, signal, sys\n"
    "moment = int(sys.argv.pop(1))\n"
    "seen = 0\n"
    "def after(call):\n"
    "    def watched(*args):\n"
    "        global seen\n"
    "        result = call(*args)\n"
    "        seen += 1\n"
    "        if seen == moment:\n"
    "            os.kill(os.getpid(), signal.SIGINT)\n"
    "        return result\n"
    "    return watched\n"
    "signal.signal = after(signal.signal)\n"
    "signal.getsignal = after(signal.getsignal)\n"
    "import atexit\n"
    "atexit.register(lambda: print(f'calls {seen}', file=sys.stderr))\n"
    + SCRIPT
    + "entry = script.load()\n"
    "if moment == 0:\n"
    "    os.kill(os.getpid(), signal.SIGINT)\n"
    "sys.exit(entry())\n"
)
"""What the installed console script ``atout`` does (``from MODULE import main;
sys.exit(main())``, read from the install's entry points), with Ctrl-C sent the moment
after the entry point is imported (moment 0) or the moment after the n-th look at or
change of SIGINT's handler (moment n): each is a moment when Python's own handler could
be back in place for a few instructions."""


def _run_at(moment: int, argv: list[str], data: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-c", AT_EVERY_HANDLER_CHANGE, str(moment), *argv],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env={**os.environ, "XDG_DATA_HOME": str(data)},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        timeout=120,
    )


def test_ctrl_c_as_the_handler_is_looked_at_or_changed_is_a_quiet_exit_130(
    tmp_path: Path,
) -> None:
    argv = ["variants", "list"]
    probe = _run_at(-1, argv, tmp_path)
    assert probe.returncode == 0, probe.stderr.decode(errors="replace")
    calls = int(probe.stderr.decode().rsplit("calls ", 1)[1])
    assert calls >= 2  # main takes Ctrl-C, and gives it back
    loud = []
    for moment in range(calls + 1):
        run = _run_at(moment, argv, tmp_path)
        err = run.stderr.decode(errors="replace")
        if run.returncode != INTERRUPT_EXIT or "Traceback" in err or "Exception" in err:
            loud.append((moment, run.returncode, err[-300:]))
    assert not loud, f"{len(loud)} of {calls + 1} interrupts were loud: {loud}"


def test_a_program_that_calls_main_again_after_a_ctrl_c_gets_a_whole_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from atout.ui import cli

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        run = cli._main

        def interrupted(argv: list[str]) -> int:  # Ctrl-C as the command runs
            handler = signal.getsignal(signal.SIGINT)
            assert callable(handler)
            handler(signal.SIGINT, None)
            return 0

        monkeypatch.setattr(cli, "_main", interrupted)
        assert cli.main(["variants", "list"]) == INTERRUPT_EXIT
        monkeypatch.setattr(cli, "_main", run)
        signal.signal(signal.SIGINT, signal.default_int_handler)  # the program's own again
        assert cli.main(["variants", "list"]) == 0
        assert "belote" in capsys.readouterr().out
    finally:
        signal.signal(signal.SIGINT, before)


def _ctrl_c_while_a_class_is_built(handler: Callable[[int, object], None]) -> None:
    """Ctrl-C landing while a class is built, as when a dataclass is created at import:
    Python 3.11 wraps the handler's exception raised in ``__set_name__``."""

    class Field:
        def __set_name__(self, owner: type, name: str) -> None:
            handler(signal.SIGINT, None)

    type("Event", (), {"actions": Field()})


def test_ctrl_c_wrapped_while_a_class_is_built_is_a_quiet_exit_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from atout.ui import cli

    def interrupted(argv: object) -> int:
        _ctrl_c_while_a_class_is_built(cli._interrupt)
        return 0

    monkeypatch.setattr(cli, "_main", interrupted)
    monkeypatch.setattr(signal, "getsignal", lambda signum: signal.default_int_handler)
    monkeypatch.setattr(signal, "signal", lambda signum, handler: None)
    assert cli.main([]) == INTERRUPT_EXIT
    assert "Traceback" not in capsys.readouterr().err


def test_ctrl_c_wrapped_while_the_console_script_loads_is_a_quiet_exit_130(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from atout.ui import console

    def loading(name: str) -> object:
        _ctrl_c_while_a_class_is_built(console.quiet_exit)
        raise AssertionError("the interrupt did not arrive")

    half_loaded = types.ModuleType("atout.ui.cli")
    half_loaded.__getattr__ = loading  # type: ignore[method-assign]
    monkeypatch.setitem(sys.modules, "atout.ui.cli", half_loaded)
    monkeypatch.setattr(console, "interrupted", False)
    assert console.main() == INTERRUPT_EXIT


def test_an_error_that_is_not_an_interrupt_still_surfaces(monkeypatch: pytest.MonkeyPatch) -> None:
    from atout.ui import cli

    def broken(argv: object) -> int:
        raise RuntimeError("a bug") from ValueError("its cause")

    monkeypatch.setattr(cli, "_main", broken)
    with pytest.raises(RuntimeError, match="a bug"):
        cli.main([])
