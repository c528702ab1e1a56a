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
        (["serve", "--linger", "-5"], "--linger: a number of seconds"),
        (["serve", "--linger", "nan"], "--linger: a number of seconds"),
        (["serve", "--per-address", "0"], "--per-address: a number from 1 to 2000"),
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


def test_serve_gives_the_server_its_linger_and_grace(
    monkeypatch: pytest.MonkeyPatch, tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    from atout.ui.commands import serve

    seen = {}

    async def fake_serve_forever(server, ready) -> None:  # type: ignore[no-untyped-def]
        seen.update(linger=server.linger, grace=server.grace, per=server.max_per_address)

    monkeypatch.setattr(serve, "serve_forever", fake_serve_forever)
    argv = ["serve", "--port", "0", "--data", str(tmp_path), "--linger", "12", "--grace", "4"]
    assert main([*argv, "--per-address", "300"]) == 0
    assert seen == {"linger": 12.0, "grace": 4.0, "per": 300}
