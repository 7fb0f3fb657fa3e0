"""Statistics of the reproduce report (docs/reproduce.md): trial summaries, the
ratio of two methods' mean throughputs with its 95% confidence interval, and the
paper's Table III summary (minimum, geometric mean and maximum of such ratios over
cells, each with its interval), and the same summary of the published cells.

Pure Python, no third-party modules, so the arithmetic is testable on any
interpreter (tests/scripts/test_report_stats.py). The per-cell formulas are those
of sim/report/statistics.cpp (Student's t, Fieller's interval), except that a
sample of one trial has no variance estimate: its intervals are unknown (NaN) and
nothing is called significant.
"""
import math

# Two-sided 97.5% quantiles of Student's t for 1..30 degrees of freedom (the
# table of sim/report/statistics.cpp).
_T975 = [math.inf, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
         2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074,
         2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]

NAN = float("nan")


def student_t975(dof):
    """97.5% quantile of Student's t; a fractional dof is rounded down (conservative)."""
    dof = int(math.floor(dof))
    if dof < 1:
        return math.inf
    if dof <= 30:
        return _T975[dof]
    z = 1.959964  # Cornish-Fisher expansion around the normal quantile
    n = float(dof)
    return z + (z ** 3 + z) / (4 * n) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * n * n)


class Summary:
    """Mean, sample standard deviation, cv and the 95% interval of the mean."""

    def __init__(self, values):
        values = [float(v) for v in values]
        if not values:
            raise ValueError("a summary needs at least one value")
        self.n = len(values)
        self.mean = sum(values) / self.n
        if self.n > 1:
            ss = sum((v - self.mean) ** 2 for v in values)
            self.sd = math.sqrt(ss / (self.n - 1))
            half = student_t975(self.n - 1) * self.sd / math.sqrt(self.n)
            self.ci = (self.mean - half, self.mean + half)
        else:
            self.sd = NAN
            self.ci = (NAN, NAN)
        self.cv = self.sd / self.mean if self.mean else NAN

    @property
    def var_of_mean(self):
        return self.sd ** 2 / self.n


class Ratio:
    """A ratio with its 95% interval; `significant` is True when the interval
    excludes 1, False when it includes it, None when it is unknown."""

    def __init__(self, ratio, low, high):
        self.ratio = ratio
        self.low = low
        self.high = high
        if math.isnan(low) or math.isnan(high):
            self.significant = None
        else:
            self.significant = low > 1.0 or high < 1.0

    def as_dict(self):
        return {"ratio": self.ratio, "ci95": [self.low, self.high],
                "significant": self.significant}


def ratio_of_means(a, b):
    """mean(a) / mean(b) with Fieller's 95% interval for independent samples:
    the q with (ma - q mb)^2 <= t^2 (va + q^2 vb), va and vb the variances of the
    means, t at min(na, nb) - 1 degrees of freedom. Unbounded when mean(b) is not
    significantly different from 0."""
    sa, sb = Summary(a), Summary(b)
    if sb.mean == 0:
        raise ValueError("ratio_of_means: the divisor's mean is 0")
    r = sa.mean / sb.mean
    if sa.n < 2 or sb.n < 2:
        return Ratio(r, NAN, NAN)
    va, vb = sa.var_of_mean, sb.var_of_mean
    t2 = student_t975(min(sa.n, sb.n) - 1) ** 2
    qa = sb.mean ** 2 - t2 * vb
    qb = -2 * sa.mean * sb.mean
    qc = sa.mean ** 2 - t2 * va
    if qa <= 0:
        return Ratio(r, -math.inf, math.inf)
    disc = max(0.0, qb * qb - 4 * qa * qc)
    return Ratio(r, (-qb - math.sqrt(disc)) / (2 * qa), (-qb + math.sqrt(disc)) / (2 * qa))


def geometric_mean_ratio(pairs):
    """Geometric mean over cells of mean(a_i) / mean(b_i), with a 95% interval.

    log G is the mean of the log ratios; each log ratio's variance is taken by
    the delta method, var(mean a)/mean(a)^2 + var(mean b)/mean(b)^2, so
    var(log G) = sum of those / N^2. The t quantile uses the Welch-Satterthwaite
    degrees of freedom of that sum, and the interval is G exp(-+ t sqrt(var))."""
    if not pairs:
        raise ValueError("geometric_mean_ratio needs at least one cell")
    logs, parts = [], []
    for a, b in pairs:
        sa, sb = Summary(a), Summary(b)
        logs.append(math.log(sa.mean / sb.mean))
        for s in (sa, sb):
            parts.append((s.var_of_mean / s.mean ** 2 if s.n > 1 else NAN, s.n))
    n = len(pairs)
    g = math.exp(sum(logs) / n)
    if any(math.isnan(v) for v, _ in parts):
        return Ratio(g, NAN, NAN)
    total = sum(v for v, _ in parts)
    if total == 0:
        return Ratio(g, g, g)
    dof = total ** 2 / sum(v * v / (k - 1) for v, k in parts)
    half = student_t975(dof) * math.sqrt(total) / n
    return Ratio(g, g * math.exp(-half), g * math.exp(half))


def ratio_summary(cells):
    """Table III for one method: `cells` is a list of (label, method trials,
    baseline trials). Returns the number of cells and, for the minimum and the
    maximum, the cell and its ratio with Fieller's interval, and the geometric
    mean with its interval."""
    if not cells:
        raise ValueError("ratio_summary needs at least one cell")
    ratios = [(label, ratio_of_means(a, b)) for label, a, b in cells]
    lo = min(ratios, key=lambda lr: lr[1].ratio)
    hi = max(ratios, key=lambda lr: lr[1].ratio)
    return {"cells": len(cells),
            "min": dict(lo[1].as_dict(), cell=lo[0]),
            "geomean": geometric_mean_ratio([(a, b) for _, a, b in cells]).as_dict(),
            "max": dict(hi[1].as_dict(), cell=hi[0])}


def published_ratio_summary(cells):
    """Table III recomputed from the published cells: `cells` is a list of (label,
    the method's published mean, the baseline's published mean) for the cells the
    model's row pairs; a cell without both values is left out by the caller.
    Returns the number of cells and the minimum and maximum ratio (each with its
    cell) and the geometric mean, as points: the published means carry no trials.
    None when no cell has both values."""
    ratios = [(label, a / b) for label, a, b in cells if a > 0 and b > 0]
    if not ratios:
        return None
    lo = min(ratios, key=lambda lr: lr[1])
    hi = max(ratios, key=lambda lr: lr[1])
    return {"cells": len(ratios),
            "min": {"ratio": lo[1], "cell": lo[0]},
            "geomean": {"ratio": math.exp(sum(math.log(r) for _, r in ratios) / len(ratios))},
            "max": {"ratio": hi[1], "cell": hi[0]}}


def cv_against_figure(cells, max_cv, exceptions=()):
    """The trial-to-trial variation of one of the paper's figures against its
    caption ("the maximum cv is 0.052, except for 0.25 on 8-byte wc on SPFS").

    `cells` is a list of (method, pattern, model cv); `max_cv` the caption's
    maximum; `exceptions` (method, pattern, published cv) for the cells the caption
    names apart. A cv that is unknown (one trial: NaN) is left out. Returns the
    model's largest cv among the cells the maximum covers as (method, pattern, cv)
    or None, those of them above it (largest first), and per exception its
    published and model cv (None when the model has no such cell)."""
    apart = {(m, p): cv for m, p, cv in exceptions}
    covered = [(m, p, cv) for m, p, cv in cells
               if (m, p) not in apart and not math.isnan(cv)]
    largest = max(covered, key=lambda c: c[2]) if covered else None
    above = sorted((c for c in covered if c[2] > max_cv), key=lambda c: -c[2])
    model = {(m, p): cv for m, p, cv in cells}
    named = [(m, p, cv, model.get((m, p))) for m, p, cv in exceptions]
    return {"largest": largest, "above": above, "exceptions": named}


def published_uncertainty(summary, rounding):
    """Half the interval a cell's published value has by itself (`published_low`,
    `published_high`: its printed rounding, narrowed by the tables' ratios), or
    `rounding` when the comparison gives none."""
    if "published_low" in summary and "published_high" in summary:
        return (float(summary["published_high"]) - float(summary["published_low"])) / 2
    return rounding


def published_interval(mean, cv, trials, rounding=0.0):
    """The 95% interval of a published mean of `trials` trials whose cv is `cv`
    (Student's t at trials - 1 degrees of freedom), widened by the `rounding` of the
    printed value (half its last digit): mean -+ (t cv mean / sqrt(trials) +
    rounding). With a figure's largest cv it is the widest the interval of any of
    its cells can be."""
    half = student_t975(trials - 1) * cv * mean / math.sqrt(trials) + rounding
    return (mean - half, mean + half)
