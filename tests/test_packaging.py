"""The wheel that ``pip install .`` builds holds every module and data file, so a
non-editable install works like the checkout."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAPPED = {
    "core": "atout/core",
    "plugins": "atout/plugins",
    "ui": "atout/ui",
    "variants": "atout/variants",
}


def test_the_wheel_holds_every_module_pack_and_entry_point(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    wheel = next(tmp_path.glob("atout-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = set()
    for folder, target in MAPPED.items():
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".yaml") and "__pycache__" not in path.parts:
                rel = path.relative_to(ROOT / folder).as_posix()
                if folder == "core" and rel.startswith("testing/"):
                    expected.add("atout/" + rel)
                else:
                    expected.add(f"{target}/{rel}")
    missing = sorted(expected - names)
    assert missing == []
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    for line in (
        "atout = atout.ui.cli:main",
        "belote = atout.plugins.belote",
        "decouverte = atout.plugins.decouverte",
        "bots = atout.plugins.bots",
    ):
        assert line in text
