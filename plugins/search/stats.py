"""The statistics of the package tree: means, 95% intervals and percentiles.

Every interval a bot, a duplicate match or the review reports is computed here, so that
one figure means one thing everywhere:

* :func:`normal_interval`: the mean and its normal-approximation interval (z = 1.96),
  for the many paired deals of a duplicate match;
* :func:`interval`: the mean and its Student's t interval (:func:`t95`), for the few
  samples of a review's decision;
* :func:`halves_interval`: the mean of two independent halves of samples and its
  interval with Welch's degrees of freedom (the review's cross-fitted losses);
* :func:`percentile`: nearest-rank percentiles of timings;
* :class:`BiasBound`: how far an estimator's own bias may reach, by which an interval
  of its samples is widened (:func:`widened`) when the samples are not of the value
  itself (the review's sampled Découverte values: each layout solved as if both
  players saw it).

Only the standard library: the search library imports nothing but ``atout.core``.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959964
"""The normal quantile of a two-sided 95% interval."""

_T95 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip
"""Student's t quantile of a two-sided 95% interval for 1 to 30 degrees of freedom."""


def mean(values: Sequence[float]) -> float:
    """The mean of ``values``; 0 for no values."""
    return sum(values) / len(values) if values else 0.0


def percentile(values: Sequence[float], pct: float) -> float:
    """The ``pct``-th percentile of ``values`` (nearest rank); 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, math.ceil(pct / 100 * len(ordered)) - 1))
    return ordered[k]


def t95(df: int) -> float:
    """Student's t quantile of a two-sided 95% interval with ``df`` degrees of freedom:
    the interval of a mean of few samples is wider than the normal one (with 6 samples
    the normal interval holds the true mean about 89% of the time, not 95%).  Tabled to
    30, then the Cornish-Fisher expansion (within 0.001)."""
    if df < 1:
        raise ValueError("t95: at least one degree of freedom")
    if df <= len(_T95):
        return _T95[df - 1]
    z = Z95
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df * df)


def normal_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% confidence interval (normal approximation,
    z = 1.96: meant for many samples, as a duplicate match's paired deals); ``(0, 0, 0)``
    for no values, the mean itself for one."""
    if not values:
        return 0.0, 0.0, 0.0
    centre = statistics.fmean(values)
    if len(values) < 2:
        return centre, centre, centre
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return centre, centre - half, centre + half


def interval(samples: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``samples`` and its 95% interval (Student's t, :func:`t95`; the mean
    itself for fewer than two samples)."""
    n = len(samples)
    centre = mean(samples)
    if n < 2:
        return centre, centre, centre
    var = sum((x - centre) ** 2 for x in samples) / (n - 1)
    half = t95(n - 1) * math.sqrt(var / n)
    return centre, centre - half, centre + half


def halves_interval(values: Sequence[float], halves: Sequence[range]) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% interval, the mean taken as the weighted sum of
    its halves' means (``halves``: the indices of each), independent but not alike (in
    the review, one half's differences are all 0 when that half's best is the action
    taken): the variance is the sum of the halves' own, Student's t with Welch's degrees
    of freedom (rounded down).  With a half of fewer than two samples, :func:`interval`
    of all of them."""
    n = len(values)
    centre = sum(values) / n
    parts: list[tuple[float, int]] = []
    for half in halves:
        xs = [values[i] for i in half]
        k = len(xs)
        if k < 2:
            return interval(values)
        m = sum(xs) / k
        var = sum((x - m) ** 2 for x in xs) / (k - 1)
        parts.append((k * var / (n * n), k - 1))  # its share of the mean's variance
    total = sum(a for a, _ in parts)
    if total <= 0:
        return centre, centre, centre
    df = total * total / sum(a * a / d for a, d in parts)
    half_width = t95(max(1, int(df))) * math.sqrt(total)
    return centre, centre - half_width, centre + half_width


@dataclass(frozen=True)
class BiasBound:
    """A bound of the bias of an estimator whose samples are not draws of the value
    estimated, only near it: ``floor`` plus ``scale`` times the samples' standard
    deviation (:meth:`margin`).  The bias of solving each sampled layout as if both
    players saw it grows with how much the layouts differ (none when every layout is
    worth the same, which is still not proof of none: hence the floor).  Its figures
    come from positions where both the estimate and the exact value are known; an
    interval widened by it (:func:`widened`) is meant to hold the exact value 95% of
    the time, sampling noise and bias together."""

    floor: float
    scale: float

    def margin(self, *samples: Sequence[float]) -> float:
        """The bias bound of an estimate made of ``samples`` (one sequence, or several
        for a difference of estimates: the widest standard deviation counts)."""
        spread = max((statistics.stdev(s) for s in samples if len(s) > 1), default=0.0)
        return self.floor + self.scale * spread


def widened(bounds: tuple[float, float, float], margin: float) -> tuple[float, float, float]:
    """An estimate ``(centre, low, high)`` whose interval is widened by ``margin`` on
    each side (:class:`BiasBound`)."""
    centre, low, high = bounds
    return centre, low - margin, high + margin
