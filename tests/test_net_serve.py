"""``atout serve`` and the network options of ``atout play`` on the command line: bad
input is one clear line, never a traceback."""

from __future__ import annotations

import pytest
from atout.ui.cli import main


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["serve", "--port", "70000"], "argument --port: a port (0: any free port) is a whole"),
        (["serve", "--grace", "-1"], "argument --grace: a wait is a number of seconds"),
        (["serve", "--linger", "-5"], "argument --linger: a wait is a number of seconds"),
        (["serve", "--linger", "nan"], "argument --linger: a wait is a number of seconds"),
        (["serve", "--per-address", "0"], "argument --per-address: a count of tables is a whole"),
        (["serve", "--workers", "17"], "argument --workers: a count of processes is a whole"),
        (["play", "--text", "--join", "no-table-here"], "--join: expected HOST:PORT/TABLE"),
        (["play", "--host", "--listen", "nowhere"], "--listen: expected HOST:PORT"),
        (["play", "--text", "--join", "127.0.0.1:1/ABCDEF"], "cannot reach the table server"),
    ],
)
def test_bad_network_options_are_one_line(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A value the parser refuses is its usage and one error line (exit code 2); a
    server that cannot be reached is one line (exit code 1)."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    assert code in (1, 2)
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert said in lines[-1]
    if code == 1:
        assert len(lines) == 1


def test_serve_says_when_it_cannot_listen(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = main(["serve", "--port", str(port), "--data", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 1 and "cannot listen" in err and "Traceback" not in err


@pytest.mark.parametrize("workers", ["1", "2"])
def test_serve_gives_the_server_its_linger_and_grace(
    monkeypatch: pytest.MonkeyPatch, tmp_path, capsys: pytest.CaptureFixture[str], workers: str
) -> None:
    """One process: its server is given them; several: each worker's command line."""
    from atout.ui import cli
    from atout.ui.commands import serve

    seen = {}

    async def fake_serve_forever(server, ready) -> None:  # type: ignore[no-untyped-def]
        seen.update(linger=server.linger, grace=server.grace, per=server.max_per_address)

    async def fake_front_forever(front, ready) -> None:  # type: ignore[no-untyped-def]
        worker = cli.parse(front.spawn(1, 9)[3:])
        assert worker.worker == (1, 2, 9)
        seen.update(linger=worker.linger, grace=worker.grace, per=worker.per_address)

    monkeypatch.setattr(serve, "serve_forever", fake_serve_forever)
    monkeypatch.setattr(serve, "front_forever", fake_front_forever)
    argv = ["serve", "--port", "0", "--data", str(tmp_path), "--linger", "12", "--grace", "4"]
    assert main([*argv, "--per-address", "300", "--workers", workers]) == 0
    assert seen == {"linger": 12.0, "grace": 4.0, "per": 300}


def test_several_workers_off_linux_is_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Handing connections between processes needs Linux: elsewhere ``--workers 2`` is
    refused with one line, before anything listens."""
    monkeypatch.setattr("sys.platform", "darwin")
    code = main(["serve", "--port", "0", "--data", str(tmp_path), "--workers", "2"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and len(err) == 1 and "--workers above 1 needs Linux" in err[0]
