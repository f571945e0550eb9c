"""Agreement between two step-grade sources (WebSTAR 4.3): binary agreement around a cutoff with
the confusion matrix in Table 5's layout, Cohen's kappa, Spearman's rho, per-step spread over
repeated samples, the share of steps graded above each threshold (WebSTAR Figure 4), its
complement the CDF, and the steps kept per cutoff 2, 4, 5, 6, 8 (our table: WebSTAR's Table 6
is the Pass@k of policies trained at each cutoff, which needs training)."""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

from webmdp.errors import ConfigError
from webmdp.synth.sidefile import Row, step_key

Split = Literal["gt", "ge"]
CUTOFFS = (2, 4, 5, 6, 8)
"""The cutoffs of WebSTAR's threshold ablation (its Table 6 trains a policy at each)."""
TABLE6_CUTOFFS = CUTOFFS  # the former name, kept for importers


def kept(grade: float, cutoff: float, split: Split = "gt") -> bool:
    """The training mask: grade > cutoff (``gt``, eq. 2), or >= (``ge``, Table 5's split)."""
    return grade > cutoff if split == "gt" else grade >= cutoff


StepKey = tuple[str, str, str, int]


def by_step(rows: Sequence[Row]) -> dict[StepKey, list[float]]:
    """Graded rows by step; the samples of one step (``--samples k``) are its list."""
    out: dict[StepKey, list[float]] = defaultdict(list)
    for r in rows:
        if r.get("grade") is not None:
            out[step_key(r)].append(float(r["grade"]))
    return dict(out)


def cohen_kappa(a: Sequence[bool], b: Sequence[bool]) -> float:
    """Cohen's kappa of two binary labelings: (p_o - p_e) / (1 - p_e); 1.0 when both are
    constant and equal, 0.0 when p_e = 1 otherwise."""
    n = len(a)
    if n == 0:
        return float("nan")
    x, y = np.asarray(a, bool), np.asarray(b, bool)
    po = float(np.mean(x == y))
    pe = float(x.mean() * y.mean() + (1 - x.mean()) * (1 - y.mean()))
    if pe >= 1.0:
        return 1.0 if po == 1.0 else 0.0
    return (po - pe) / (1 - pe)


def _ranks(v: np.ndarray) -> np.ndarray:
    order = np.argsort(v, kind="mergesort")
    ranks = np.empty(len(v), float)
    ranks[order] = np.arange(1, len(v) + 1)
    for value in np.unique(v):  # ties share their mean rank
        tie = v == value
        ranks[tie] = ranks[tie].mean()
    return ranks


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    """Spearman's rho: Pearson's correlation of the (tie-averaged) ranks; NaN when either side
    is constant."""
    if len(a) < 2:
        return float("nan")
    ra, rb = _ranks(np.asarray(a, float)), _ranks(np.asarray(b, float))
    if ra.std() == 0 or rb.std() == 0:
        return float("nan")
    return float(np.corrcoef(ra, rb)[0, 1])


def spread(samples: dict[StepKey, list[float]]) -> dict[str, Any]:
    """Per-step spread over repeated samples (WebSTAR: mean change 0.81, median sd 0.49, CV)."""
    multi = [v for v in samples.values() if len(v) > 1]
    if not multi:
        return {"steps": 0}
    sds = [statistics.pstdev(v) for v in multi]
    ranges = [max(v) - min(v) for v in multi]
    cvs = [statistics.pstdev(v) / statistics.fmean(v) for v in multi if statistics.fmean(v) > 0]
    return {"steps": len(multi), "samples": round(statistics.fmean(len(v) for v in multi), 2),
            "mean_range": round(statistics.fmean(ranges), 3),
            "mean_sd": round(statistics.fmean(sds), 3),
            "median_sd": round(statistics.median(sds), 3),
            "median_cv": round(statistics.median(cvs), 4) if cvs else None}


def cdf(grades: Sequence[float]) -> list[list[float]]:
    """The CDF: for each score 0..10, the share of steps graded at most that score (the
    complement of Figure 4's curve)."""
    n = len(grades)
    return [[s, round(sum(g <= s for g in grades) / n, 4) if n else 0.0] for s in range(11)]


def share_above(grades: Sequence[float]) -> list[list[float]]:
    """WebSTAR Figure 4, "the proportion of actions with scores above each threshold": for
    each threshold t in 0..10, the share of steps graded above t (grade > t, the mask's
    comparison)."""
    n = len(grades)
    return [[t, round(sum(g > t for g in grades) / n, 4) if n else 0.0] for t in range(11)]


def kept_per_cutoff(grades: Sequence[float], split: Split = "gt") -> dict[str, float]:
    """Steps kept per cutoff: the share of steps the mask keeps at each of :data:`CUTOFFS`
    (our table; not WebSTAR's Table 6, which is the Pass@k of policies trained at each)."""
    n = len(grades)
    return {str(c): round(sum(kept(g, c, split) for g in grades) / n, 4) if n else 0.0
            for c in CUTOFFS}


kept_share = kept_per_cutoff  # the former name, kept for importers


def agreement(a_rows: Sequence[Row], b_rows: Sequence[Row], *, cutoff: float = 5,
              split: Split = "gt", names: tuple[str, str] = ("A", "B")) -> dict[str, Any]:
    """Compare two grade sources on the steps both graded (each step's mean over samples)."""
    if split not in ("gt", "ge"):
        raise ConfigError(f"--split must be gt or ge, got {split!r}")
    a, b = by_step(a_rows), by_step(b_rows)
    common = sorted(a.keys() & b.keys())
    ga = [statistics.fmean(a[k]) for k in common]
    gb = [statistics.fmean(b[k]) for k in common]
    ka = [kept(g, cutoff, split) for g in ga]
    kb = [kept(g, cutoff, split) for g in gb]
    pp = sum(x and y for x, y in zip(ka, kb, strict=True))
    pn = sum(x and not y for x, y in zip(ka, kb, strict=True))
    np_ = sum(y and not x for x, y in zip(ka, kb, strict=True))
    nn = len(common) - pp - pn - np_
    op = ">" if split == "gt" else ">="
    neg = "<=" if split == "gt" else "<"
    n = len(common)
    return {
        "a": names[0], "b": names[1], "n": n, "cutoff": cutoff, "split": split,
        "only_a": len(a.keys() - b.keys()), "only_b": len(b.keys() - a.keys()),
        "agreement": round((pp + nn) / n, 4) if n else None,
        "kappa": _round(cohen_kappa(ka, kb)) if n else None,
        "spearman": _round(spearman(ga, gb)) if n else None,
        "confusion": {"rows": [f"{names[0]} {op} {cutoff:g}", f"{names[0]} {neg} {cutoff:g}"],
                      "columns": [f"{names[1]} {op} {cutoff:g}", f"{names[1]} {neg} {cutoff:g}"],
                      "matrix": [[pp, pn], [np_, nn]]},
        "spread": {names[0]: spread(a), names[1]: spread(b)},
        "share_above": {names[0]: share_above(ga), names[1]: share_above(gb)},
        "cdf": {names[0]: cdf(ga), names[1]: cdf(gb)},
        "kept_share": {names[0]: kept_per_cutoff(ga, split),
                       names[1]: kept_per_cutoff(gb, split)},
    }


def verdict_agreement(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """An exact verdict (each row's ``exact``, 0 or 1) against a model judge's (``verdict``;
    None: unjudged) over the rows both judged: the confusion matrix (``tp`` / ``fp`` / ``fn``
    / ``tn``, positive = the judge says pass), the agreement and Cohen's kappa."""
    judged = [r for r in rows if r["verdict"] is not None and r["exact"] is not None]
    m = {"tp": 0, "fp": 0, "fn": 0, "tn": 0}
    for r in judged:
        m[("t" if r["exact"] == r["verdict"] else "f") + ("p" if r["verdict"] else "n")] += 1
    kappa = cohen_kappa([bool(r["exact"]) for r in judged],
                        [bool(r["verdict"]) for r in judged]) if judged else None
    return {"n": len(rows), "judged": len(judged), "unjudged": len(rows) - len(judged),
            "confusion": m,
            "agreement": round(sum(r["exact"] == r["verdict"] for r in judged) / len(judged), 4)
            if judged else None,
            "kappa": None if kappa is None or kappa != kappa else round(kappa, 4)}


def _round(x: float) -> float | None:
    return None if x != x else round(x, 4)  # NaN -> None (JSON has no NaN)


def markdown(result: dict[str, Any]) -> str:
    """The agreement as Markdown: headline figures, then Table 5's confusion matrix."""
    c = result["confusion"]
    (pp, pn), (np_, nn) = c["matrix"]
    lines = [f"# Grade agreement: {result['a']} vs {result['b']}", "",
             f"- steps both graded: {result['n']} (only {result['a']}: {result['only_a']}, "
             f"only {result['b']}: {result['only_b']})",
             f"- binary agreement (split {result['split']}, cutoff {result['cutoff']:g}): "
             f"{_pct(result['agreement'])}",
             f"- Cohen's kappa: {result['kappa']}", f"- Spearman's rho: {result['spearman']}",
             "", f"| | {c['columns'][0]} | {c['columns'][1]} |", "|---|---|---|",
             f"| {c['rows'][0]} | {pp} | {pn} |", f"| {c['rows'][1]} | {np_} | {nn} |", "",
             "Steps kept per cutoff (the share the mask keeps at each):", "",
             "| steps kept per cutoff | " + " | ".join(map(str, CUTOFFS)) + " |",
             "|---|" + "---|" * len(CUTOFFS)]
    for name, shares in result["kept_share"].items():
        lines.append(f"| {name} | " + " | ".join(f"{shares[str(k)]:.0%}" for k in CUTOFFS)
                     + " |")
    return "\n".join(lines) + "\n"


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.1%}"
