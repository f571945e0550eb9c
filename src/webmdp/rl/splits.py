"""The RL splits, as the trainer integrations name them: the rules and the catalog live in the
one task selection (:mod:`webmdp.tasks.splits`, chosen through :mod:`webmdp.tasks.select`);
this module re-exports them, so ``webmdp.rl.splits`` keeps its names."""

from __future__ import annotations

from webmdp.tasks.splits import (
    ALL,
    CROSS,
    FILE,
    GRID,
    LEVELS,
    SPLIT_VERSION,
    SPLITS,
    SUITES,
    TEST,
    TEST_SHARE,
    TRAIN,
    Catalog,
    Holdout,
    assign,
    base_template,
    check_split,
    counts,
    default_split,
    held_for,
    held_out_templates,
    level_of,
    parse_level,
    resolve_path,
    site_choices,
    site_pool,
    sites_touched,
    split_of,
    task_spec,
    unknown,
)

__all__ = ["ALL", "CROSS", "FILE", "GRID", "LEVELS", "SPLITS", "SPLIT_VERSION", "SUITES", "TEST",
           "TEST_SHARE",
           "TRAIN", "Catalog", "Holdout", "assign", "base_template", "check_split", "counts",
           "default_split", "held_for", "held_out_templates", "level_of", "parse_level",
           "resolve_path", "site_choices", "site_pool", "sites_touched", "split_of", "task_spec",
           "unknown"]
