"""``atout serve`` and the network options of ``atout play`` on the command line: bad
input is one clear line, never a traceback."""

from __future__ import annotations

import pytest
from atout.ui.cli import main


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["serve", "--port", "70000"], "--port: a port is 0..65535"),
        (["serve", "--grace", "-1"], "--grace: a number of seconds"),
        (["play", "--text", "--join", "no-table-here"], "--join: expected HOST:PORT/TABLE"),
        (["play", "--host", "--listen", "nowhere"], "--listen: expected HOST:PORT"),
        (["play", "--text", "--join", "127.0.0.1:1/ABCDEF"], "cannot reach the table server"),
    ],
)
def test_bad_network_options_are_one_line(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(argv)
    err = capsys.readouterr().err
    assert code in (1, 2)
    assert said in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_serve_says_when_it_cannot_listen(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = main(["serve", "--port", str(port), "--data", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 1 and "cannot listen" in err and "Traceback" not in err
