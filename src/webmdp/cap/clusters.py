"""Functional clusters, the affinity matrix M and cluster sampling (CAP §3.2).

CAP groups 108 websites into 24 functional clusters and samples cluster subsets for a task: the
least-used cluster is the anchor (eq. 1), then clusters whose affinity with the anchor exceeds
eta join, least co-occurring first. Each of our ten sites is one cluster; where CAP names a
cluster for the kind of site (e-commerce, travel booking, real estate, code hosting) we use its
name. M is declared here (HIGH / MEDIUM / LOW, CAP's rating scale, as 0.9 / 0.5 / 0.1): it
states which sites real workflows connect, by the information one can carry to the other.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import combinations

CLUSTERS: dict[str, str] = {
    "shopping": "e-commerce",
    "accommodation": "travel booking",
    "housing": "real estate",
    "repo": "code hosting",
    "food": "food delivery",
    "mail": "email",
    "chat": "team messaging",
    "calendar": "scheduling",
    "qa": "developer Q&A",
    "jobs": "job search & professional network",
}
"""Site -> its functional cluster (CAP's cluster names where one fits)."""

HIGH, MEDIUM, LOW = 0.9, 0.5, 0.1
RATING = {"HIGH": HIGH, "MEDIUM": MEDIUM, "LOW": LOW}

_DECLARED: dict[tuple[str, str], float] = {
    # communication sites carry whatever another site shows
    ("mail", "chat"): HIGH, ("mail", "calendar"): HIGH, ("chat", "calendar"): HIGH,
    ("mail", "jobs"): HIGH, ("mail", "housing"): HIGH, ("mail", "accommodation"): HIGH,
    ("mail", "shopping"): HIGH, ("mail", "food"): MEDIUM, ("mail", "repo"): HIGH,
    ("mail", "qa"): MEDIUM, ("chat", "repo"): HIGH, ("chat", "qa"): HIGH,
    ("chat", "food"): HIGH, ("chat", "housing"): MEDIUM, ("chat", "shopping"): MEDIUM,
    ("chat", "accommodation"): MEDIUM, ("chat", "jobs"): MEDIUM,
    # developer workflows: a Q&A fix filed on the repository, a repository asked about
    ("qa", "repo"): HIGH, ("qa", "jobs"): MEDIUM, ("repo", "jobs"): MEDIUM,
    # the jobs site's recruiters and the places one moves to
    ("jobs", "housing"): HIGH, ("jobs", "calendar"): HIGH, ("jobs", "accommodation"): MEDIUM,
    # travel and places
    ("accommodation", "food"): HIGH, ("accommodation", "calendar"): HIGH,
    ("accommodation", "housing"): MEDIUM, ("accommodation", "shopping"): MEDIUM,
    ("housing", "calendar"): HIGH, ("housing", "shopping"): MEDIUM, ("housing", "food"): LOW,
    ("food", "calendar"): HIGH, ("food", "shopping"): HIGH, ("shopping", "calendar"): MEDIUM,
    ("qa", "calendar"): LOW, ("repo", "calendar"): MEDIUM,
    # no natural flow
    ("repo", "housing"): LOW, ("repo", "food"): LOW, ("repo", "shopping"): LOW,
    ("repo", "accommodation"): LOW, ("qa", "housing"): LOW, ("qa", "food"): LOW,
    ("qa", "shopping"): MEDIUM, ("qa", "accommodation"): LOW, ("jobs", "food"): LOW,
    ("jobs", "shopping"): LOW,
}

ETA = 0.4
"""CAP's threshold eta: a cluster joins the anchor when M[anchor, c] > eta (MEDIUM or HIGH)."""


def affinity_matrix(declared: Mapping[tuple[str, str], float] | None = None
                    ) -> dict[tuple[str, str], float]:
    """M over the sites' clusters, symmetric, keyed by site pairs (1.0 on the diagonal).
    A pair not declared is LOW."""
    table = dict(_DECLARED if declared is None else declared)
    sites = sorted(CLUSTERS)
    out: dict[tuple[str, str], float] = {}
    for a in sites:
        for b in sites:
            out[a, b] = 1.0 if a == b else table.get((a, b), table.get((b, a), LOW))
    return out


@dataclass
class Usage:
    """CAP's historical statistics: h(C_i), how often a cluster appeared in generated tasks,
    and h(C_i, C_j), how often two appeared together."""

    single: Counter[str] = field(default_factory=Counter)
    pair: Counter[tuple[str, str]] = field(default_factory=Counter)

    def record(self, sites: Iterable[str]) -> None:
        chosen = sorted(set(sites))
        self.single.update(chosen)
        self.pair.update(combinations(chosen, 2))

    def together(self, a: str, b: str) -> int:
        return self.pair[tuple(sorted((a, b)))]  # type: ignore[index]


def anchor(usage: Usage, candidates: Iterable[str]) -> str:
    """Eq. 1: the least-used cluster (ties by name, so sampling is deterministic)."""
    return min(sorted(candidates), key=lambda c: usage.single[c])


def expand(anchor_site: str, k: int, usage: Usage, m: Mapping[tuple[str, str], float],
           *, eta: float = ETA, allowed: Iterable[str] | None = None) -> list[str]:
    """Affinity-guided expansion: from {anchor}, add sites whose affinity with the anchor
    exceeds ``eta``, least co-occurring with the chosen ones first (ties: higher affinity,
    then name), until there are ``k``. Fewer come back when fewer qualify."""
    pool = [s for s in (allowed if allowed is not None else CLUSTERS)
            if s != anchor_site and m[anchor_site, s] > eta]
    chosen = [anchor_site]
    while len(chosen) < k and pool:
        best = min(pool, key=lambda s: (sum(usage.together(s, c) for c in chosen),
                                        -m[anchor_site, s], s))
        chosen.append(best)
        pool.remove(best)
    return chosen
