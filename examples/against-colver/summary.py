"""The figures of ``duel.py``'s lines: one file against colver, or two files paired by
deal (the same seeds played by two versions of atout).

    python summary.py A.jsonl            # atout against colver
    python summary.py A.jsonl B.jsonl    # A minus B, paired by deal, and each against colver

Each figure is the mean of a pair's result (the deal's score, atout's team minus
colver's, averaged over the two seatings) with its 95% interval, by atout's scoring and
by colver's.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from atout.plugins.search.stats import normal_interval


def read(path: Path) -> dict[int, dict[str, Any]]:
    """The played pairs of a file, by seed."""
    lines = (json.loads(line) for line in path.read_text().splitlines() if line.strip())
    return {line["seed"]: line for line in lines if "tables" in line}


def figure(values: list[float]) -> str:
    """``mean (low to high; n)``."""
    if len(values) < 2:
        return f"{len(values)} pairs"
    mean, low, high = normal_interval(values)
    return f"{mean:+.1f} ({low:+.1f} to {high:+.1f}; {len(values)} pairs)"


def against_colver(name: str, pairs: dict[int, dict[str, Any]]) -> None:
    """One file's figures against colver."""
    lines = list(pairs.values())
    replaced = sum(t["replaced"] for line in lines for t in line["tables"])
    print(f"{name} against colver, atout's scoring: {figure([p['atout'] for p in lines])}")
    print(f"{name} against colver, colver's scoring: {figure([p['colver'] for p in lines])}")
    print(f"  colver cards replaced by atout's rule: {replaced} in {2 * len(lines)} tables")


def main(argv: list[str]) -> int:
    if len(argv) not in (1, 2):
        print(__doc__, file=sys.stderr)
        return 2
    files = [Path(a) for a in argv]
    data = [read(f) for f in files]
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
