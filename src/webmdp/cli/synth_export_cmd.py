"""`webmdp synth export`: step-masked SFT data from a graded run (registered in synth_cmd)."""

from __future__ import annotations

from pathlib import Path

import typer

from webmdp.cli.common import console, fail, user_errors


def export_cmd(
    run: Path = typer.Argument(..., help="A graded run directory (`webmdp synth grade RUN`)."),
    format: str = typer.Option("sharegpt", "--format", help="sharegpt (data.json), "
                               "llamafactory (data.json + dataset_info.json) or jsonl (one "
                               "plain object per sample)."),
    cutoff: float = typer.Option(5, help="Keep steps whose grade (mean over its samples) is "
                                 "above this, 0-10 (the seed's mask: s > 5)."),
    window: int = typer.Option(3, help="Screenshots per sample: the last w distinct pages up "
                               "to the current one (0: text only)."),
    grammar: str = typer.Option("uitars", help="Action grammar of the targets: uitars, qwen "
                                "or json (json also writes semantic-mode runs)."),
    grades: str = typer.Option("exact", help="Grade source: RUN/synth/grades-<source>.jsonl "
                               "(exact, model, steprm)."),
    thoughts: str = typer.Option("auto", help="Thoughts for steps whose trace has none: "
                                 "auto (those `webmdp synth thoughts RUN` made, when they "
                                 "exist: model's, else exact's; else none), exact (made on "
                                 "the fly when RUN/synth/thoughts-exact.jsonl is missing), "
                                 "model, or none (actions alone). Exact thoughts use no "
                                 "hindsight: no grade, outcome or verifier condition."),
    all_steps: bool = typer.Option(False, "--all-steps", help="Trajectory-level export: every "
                                   "step of every successful trajectory, no grade mask (the "
                                   "seed's Table 2 'All steps')."),
    successful_only: bool = typer.Option(False, "--successful-only", help="Step-level export "
                                         "from successful trajectories only (Table 2 'Correct "
                                         "steps'; the default takes kept steps of every "
                                         "trajectory)."),
    full_history: bool = typer.Option(False, "--full-history", help="Semantic samples: every "
                                      "earlier answer in the prompt (WebSTAR eq. 2), instead "
                                      "of the step agent's trimmed history (its 6,000-token "
                                      "budget). export.json's 'history' says which."),
    out: Path = typer.Option(..., "--out", help="Output directory (new, empty, or an earlier "
                             "export, which is replaced once the new one is complete)."),
) -> None:
    """Export kept steps as SFT samples (WebSTAR eq. 2): one sample per step graded above
    --cutoff, its context the instruction, every earlier step (kept or not) as text and the
    last --window screenshots (a semantic sample: exactly the prompt the `step` model agent
    sends at that step, the observation text re-rendered from the task's world); its
    target the step's thought and action written in --grammar,
    in that grammar's pixel convention (each target is parsed back with the grammar's parser
    before it is written; steps the grammar cannot express are skipped and counted).

    Writes OUT/data.json or data.jsonl, OUT/images/ (screenshots, hard-linked when possible),
    OUT/export.json (options, counts, system prompts) and, for llamafactory,
    OUT/dataset_info.json. Prints trajectories, steps and kept steps.
    """
    from webmdp.synth.annotate import RECORD_RUN_OPTION
    from webmdp.synth.export import FORMATS, export, supported_grammars

    if format not in FORMATS:
        raise fail(f"unknown format {format!r}: use {', '.join(FORMATS)}")
    if grammar not in supported_grammars():
        raise fail(f"unknown grammar {grammar!r} for export: use "
                   f"{', '.join(supported_grammars())}")
    with user_errors():
        summary = export(run, out, fmt=format, cutoff=cutoff, window=window, grammar=grammar,
                         grades=grades, thoughts=thoughts, all_steps=all_steps,
                         successful_only=successful_only, full_history=full_history)
    if summary.without_screenshots:
        console.print(f"note: {summary.without_screenshots} browser trajectories have no "
                      "screenshots, their samples are text only (record them with "
                      f"`{RECORD_RUN_OPTION}`)", highlight=False)
    if summary.samples == 0:
        console.print("note: no samples written", highlight=False)
    typer.echo(summary.line())
