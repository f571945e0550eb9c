"""The report's figures (matplotlib, Agg backend, PNG bytes), each named after the paper's.

Every function is pure data -> PNG; the report writes the bytes to ``figures/`` and embeds the
same bytes in the HTML. Rendering is deterministic for the same data (fixed size, no dates in
the metadata).
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib

matplotlib.use("Agg")  # headless: no display on a server or in CI

import matplotlib.pyplot as plt
from matplotlib.patches import Patch

from webmdp.eval.aggregate import ACCESS_LEVELS, LENGTH_BUCKETS, SKILL_ORDER, breakdown, group
from webmdp.eval.metrics import EpisodeMetrics
from webmdp.eval.skills import Invocation

DPI = 110


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight", metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


def skill_profile(invocation: Mapping[str, Mapping[str, Mapping[str, Invocation]]],
                  site: str) -> bytes:
    """Figure 3 style: per agent, the invocation rate (%) of each required category on one
    site. Bars of cells under the support threshold (``rate`` None) are drawn hatched and
    pale, from their counts, so a small run still shows its profile without overstating it."""
    agents = list(invocation)
    fig, ax = plt.subplots(figsize=(7.5, 3.2))
    width = 0.8 / max(1, len(agents))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, agent in enumerate(agents):
        cells = invocation[agent].get(site, {})
        color = colors[i % len(colors)]
        for j, k in enumerate(SKILL_ORDER):
            cell = cells.get(k)
            if cell is None or not cell.required:
                continue
            weak = cell.rate is None
            ax.bar(j + (i - (len(agents) - 1) / 2) * width, 100 * cell.invoked / cell.required,
                   width=width, color=color, alpha=0.45 if weak else 1.0,
                   hatch="//" if weak else None, edgecolor=color)
    ax.set_xticks(range(len(SKILL_ORDER)), [k.capitalize() for k in SKILL_ORDER])
    ax.set_ylim(0, 100)
    ax.set_ylabel("invocation rate (%)")
    ax.set_title(f"Skill invocation on {site} (WebSTEP 4.2; hatched: under the support "
                 "threshold)", fontsize=9)
    if agents:
        handles = [Patch(color=colors[i % len(colors)], label=a) for i, a in enumerate(agents)]
        ax.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return _png(fig)


def temporal_heatmap(pattern: Mapping[str, Mapping[str, Sequence[float]]]) -> bytes:
    """Figure 4: one heatmap per agent, categories x normalised trajectory position."""
    agents = list(pattern) or ["(no episodes)"]
    fig, axes = plt.subplots(len(agents), 1, figsize=(7.5, 1.6 * len(agents) + 0.6),
                             squeeze=False)
    for ax, agent in zip(axes[:, 0], agents, strict=True):
        rows = [list(pattern.get(agent, {}).get(k, [0.0] * 10)) for k in SKILL_ORDER]
        bins = len(rows[0]) if rows and rows[0] else 10
        image = ax.imshow(rows, aspect="auto", cmap="viridis", vmin=0, vmax=1,
                          extent=(0, 1, len(SKILL_ORDER), 0))
        fig.colorbar(image, ax=ax, fraction=0.03, pad=0.01, label="share")
        ax.set_yticks([i + 0.5 for i in range(len(SKILL_ORDER))], list(SKILL_ORDER), fontsize=7)
        ax.set_xticks([i / bins for i in range(bins + 1)][::2])
        ax.set_title(agent, fontsize=8)
    axes[-1, 0].set_xlabel("position along the trajectory (0 = first valid transition)")
    fig.suptitle("Temporal skill invocation (WebSTEP Figure 4)", fontsize=9)
    return _png(fig)


def bifurcation_bars(counts: Mapping[str, Mapping[str, int]]) -> bytes:
    """Figure 5 (top): per agent, how many failures bifurcate as each kind (the paper's three,
    then our two extra kinds)."""
    kinds = ("wrong_branch", "delayed_commit", "premature_commit", "wrong_commit",
             "stopped_early")
    agents = list(counts)
    fig, ax = plt.subplots(figsize=(7.5, 3.0))
    bottom = [0] * len(agents)
    for kind in kinds:
        vals = [int(counts[a].get(kind, 0)) for a in agents]
        ax.barh(agents, vals, left=bottom, label=kind.replace("_", " "))
        bottom = [b + v for b, v in zip(bottom, vals, strict=True)]
    ax.set_xlabel("failing episodes")
    ax.set_title("Bifurcation points by kind (WebSTEP 4.3, Figure 5)")
    ax.legend(fontsize=7)
    return _png(fig)


def exploration_curves(rows: Sequence[EpisodeMetrics]) -> bytes:
    """Figure 6 style: exploration SR against hard negatives, oracle length and access level
    (WebSTEP 4.4), one line per agent."""
    panels = (("hard_negative_count", "hard negatives", None),
              ("oracle_length", "oracle length", LENGTH_BUCKETS),
              ("access_level", "information access", ACCESS_LEVELS))
    fig, axes = plt.subplots(1, 3, figsize=(10, 3.0), sharey=True)
    for ax, (by, label, order) in zip(axes, panels, strict=True):
        for agent, agent_rows in group(rows, "agent_mode").items():
            per = {k: a.exploration_sr for k, a in breakdown(agent_rows, by).items()
                   if a.exploration_sr is not None}
            keys = [k for k in (order or per) if k in per]
            ys = [100 * per[k] for k in keys]
            ax.plot(keys, ys, marker="o", label=agent)
        ax.set_xlabel(label)
        ax.set_ylim(0, 100)
    axes[0].set_ylabel("exploration SR (%)")
    axes[-1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.suptitle("Exploration success by task complexity (WebSTEP 4.4)", fontsize=9)
    return _png(fig)


def cap_complexity(agents: Mapping[str, Mapping[str, Any]]) -> bytes:
    """CAP Figure 4: task score against raw-sum and normalised complexity, one colour per
    agent, with each definition's Pearson r in the panel title."""
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.0), sharey=True)
    for ax, (key, label) in zip(axes, (("raw_sum", "raw-sum complexity"),
                                       ("normalised", "normalised complexity")), strict=True):
        rs = []
        for agent, per in agents.items():
            pts = per["complexity"][key]["points"]
            ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=12, alpha=0.7, label=agent)
            rs.append(f"{agent}: r={per['complexity'][key]['pearson']}")
        ax.set_xlabel(label)
        ax.set_title("; ".join(rs), fontsize=7)
        ax.set_ylim(-0.05, 1.05)
    axes[0].set_ylabel("rubric score")
    axes[-1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.suptitle("Complexity vs score (CAP Figure 4)", fontsize=9)
    return _png(fig)


def cap_types(by_type: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> bytes:
    """CAP Figure A.1: the mean leaf score per action type and per perception type."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.2))
    for ax, kind in zip(axes, ("action", "perception"), strict=True):
        per = {t: v["score"] for t, v in by_type.get(kind, {}).items() if v["score"] is not None}
        ax.bar(list(per), [100 * v for v in per.values()], color="#4a6cf7")
        ax.set_title(f"{kind} types", fontsize=8)
        ax.set_ylim(0, 100)
        ax.tick_params(axis="x", labelrotation=90, labelsize=6)
    axes[0].set_ylabel("leaf score (%)")
    fig.suptitle("Score per CAP type (Figure A.1)", fontsize=9)
    return _png(fig)
