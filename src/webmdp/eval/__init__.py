"""Process-level evaluation: per-episode metrics, aggregates, breakdowns and reports."""

from webmdp.eval.aggregate import Aggregate, aggregate, breakdown, skill_invocation
from webmdp.eval.load import load_run, load_tasks, metrics_rows
from webmdp.eval.metrics import EpisodeMetrics, episode_metrics
from webmdp.eval.report import json_report, markdown_report

__all__ = [
    "Aggregate", "EpisodeMetrics", "aggregate", "breakdown", "episode_metrics", "json_report",
    "load_run", "load_tasks", "markdown_report", "metrics_rows", "skill_invocation",
]
