"""The figures of ``duel.py``'s lines: one file against colver, or two files paired by
deal (the same seeds played by two versions of atout); and of ``screen.py``'s lines.

    python summary.py A.jsonl            # atout against colver
    python summary.py A.jsonl B.jsonl    # A minus B, paired by deal, and each against colver
    python summary.py S.jsonl [S2.jsonl ...]   # screen.py: each value minus the base

Each figure of a duel is the mean of a pair's result (the deal's score, atout's team
minus colver's, averaged over the two seatings) with its 95% interval, by atout's
scoring and by colver's.  A screen's figure is the mean over its tables of a value's
result minus the base's (nothing where their auctions agree), with its 95% interval.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from atout.plugins.search.stats import normal_interval


def read(path: Path) -> list[dict[str, Any]]:
    """The JSON lines of a file."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def pairs(lines: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """The played pairs of a duel's lines, by seed."""
    return {line["seed"]: line for line in lines if "tables" in line}


def figure(values: list[float], unit: str = "pairs", digits: int = 1) -> str:
    """``mean (low to high; n unit)``."""
    if len(values) < 2:
        return f"{len(values)} {unit}"
    mean, low, high = normal_interval(values)
    return f"{mean:+.{digits}f} ({low:+.{digits}f} to {high:+.{digits}f}; {len(values)} {unit})"


def against_colver(name: str, pairs: dict[int, dict[str, Any]]) -> None:
    """One file's figures against colver."""
    lines = list(pairs.values())
    replaced = sum(t["replaced"] for line in lines for t in line["tables"])
    print(f"{name} against colver, atout's scoring: {figure([p['atout'] for p in lines])}")
    print(f"{name} against colver, colver's scoring: {figure([p['colver'] for p in lines])}")
    print(f"  colver cards replaced by atout's rule: {replaced} in {2 * len(lines)} tables")


def screened(lines: list[dict[str, Any]]) -> None:
    """``screen.py``'s figures: each value of the setting minus the base (its first)."""
    base, *others = lines[0]["auctions"]
    print(f"{lines[0]['setting']}: {len(lines)} tables, base {base}")
    for value in others:
        differ = [line for line in lines if line["auctions"][value] != line["auctions"][base]]
        for index, scoring in enumerate(("atout", "colver")):
            diffs = [0.0] * (len(lines) - len(differ)) + [
                line["results"][value][index] - line["results"][base][index] for line in differ
            ]
            print(
                f"  {value} minus {base}, {scoring}'s scoring: "
                f"{figure(diffs, 'tables', 2)}, {len(differ)} with another auction"
            )


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    files = [Path(a) for a in argv]
    contents = [read(f) for f in files]
    if contents[0] and "auctions" in contents[0][0]:
        screened([line for lines in contents for line in lines])
        return 0
    if len(argv) > 2:
        print(__doc__, file=sys.stderr)
        return 2
    data = [pairs(lines) for lines in contents]
    if len(data) == 2:
        common = sorted(data[0].keys() & data[1].keys())
        data = [{s: d[s] for s in common} for d in data]
        for scoring in ("atout", "colver"):
            diffs = [data[0][s][scoring] - data[1][s][scoring] for s in common]
            print(f"{files[0].name} minus {files[1].name}, {scoring}'s scoring: {figure(diffs)}")
    for f, d in zip(files, data, strict=True):
        against_colver(f.name, d)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
