"""`webmdp synth steprm-data` and `webmdp synth steprm train|eval`: a step reward model (StepRM,
WebSTAR 4.4) distilled from a run's step grades, as a CPU model (scikit-learn) or a LoRA
fine-tuned vision-language model (transformers + peft). A trained StepRM grades runs with
`webmdp synth grade RUN --grader steprm:MODEL`."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from webmdp.cli.common import console, user_errors


def steprm_data(
    run: Path = typer.Argument(..., help="A graded run directory (`webmdp synth grade RUN`)."),
    out: Path = typer.Option(..., "--out", "-o", help="The data set directory to write."),
    cutoff: float = typer.Option(5, help="kept = grade > cutoff (0-10); the set is balanced "
                                 "50/50 around it."),
    grades: str = typer.Option("exact", help="The grade source the labels come from: exact, "
                               "model, or a JSONL file of grades."),
    test_share: float = typer.Option(0.2, help="Share of the (not held-out) tasks that go to "
                                     "the test split; a task is never in both."),
    holdout: str = typer.Option("", help="Sites held out entirely (comma-separated); default: "
                                "--n-holdout sites drawn with --seed."),
    n_holdout: int = typer.Option(2, help="How many sites to hold out when --holdout is not "
                                  "given."),
    seed: int = typer.Option(0, help="Seed of the site draw, the task split and the "
                             "balancing."),
) -> None:
    """Build a StepRM data set from a graded run: DATA/{train,test,heldout}.jsonl + meta.json.

    One example per graded GUI step with what exists before the step runs (instruction, the
    proposed action, its target element, the page it acts on, the earlier actions) and its
    grade; nothing of the step's outcome (WebSTAR App. F). Each split is balanced 50/50
    around the cutoff (WebSCORE) by dropping examples of the larger class deterministically;
    the split is by task (no task in both train and test) and the held-out sites go to
    heldout only, to measure the model on sites it never saw."""
    from webmdp.synth.steprm import build_data

    sites = [s.strip() for s in holdout.split(",") if s.strip()]
    with user_errors():
        meta = build_data(run, out, cutoff=cutoff, grades=grades, test_share=test_share,
                          holdout_sites=sites or None, n_holdout_sites=n_holdout, seed=seed)
    c = meta["counts"]
    console.print(
        f"{meta['graded']} graded steps of {meta['steps']} -> train {c['train']['n']} "
        f"({c['train']['tasks']} tasks), test {c['test']['n']} ({c['test']['tasks']} tasks), "
        f"heldout {c['heldout']['n']} (sites {', '.join(meta['heldout_sites']) or 'none'}); "
        f"each 50/50 around cutoff {cutoff:g} -> {out}", highlight=False)


steprm_app = typer.Typer(
    help="Train and evaluate a step reward model (StepRM) on a data set from "
         "`webmdp synth steprm-data`. A trained one grades runs: "
         "`webmdp synth grade RUN --grader steprm:MODEL`.",
    no_args_is_help=True,
)


@steprm_app.command("train")
def train_cmd(
    data: Path = typer.Argument(..., help="A data set directory (`webmdp synth steprm-data`)."),
    out: Path = typer.Option(..., "--out", "-o", help="The model directory to write."),
    vlm: Path | None = typer.Option(None, help="A local vision-language model directory "
                                    "(transformers format) to fine-tune with LoRA instead of "
                                    "the CPU model; needs `pip install 'webmdp\\[steprm-vlm]'`. "
                                    "Nothing is downloaded."),
    epochs: int = typer.Option(1, help="vlm: passes over the training split."),
    lora_r: int = typer.Option(16, help="vlm: LoRA rank."),
    lr: float = typer.Option(2e-4, help="vlm: learning rate."),
    c: float = typer.Option(1.0, help="cpu: inverse regularisation strength of the logistic "
                            "regression."),
    seed: int = typer.Option(0, help="Seed of the training."),
) -> None:
    """Train a StepRM on DATA/train.jsonl and write MODEL (card.json says what it is).

    Without --vlm: TF-IDF over the instruction, action, target element, page and history plus
    a few numeric features, into a logistic regression for kept / not kept; its probability
    maps to a 0-10 grade. Trains in seconds on a CPU (`pip install 'webmdp\\[steprm]'`). With
    --vlm: a LoRA fine-tune of that model to answer the grade as text, from the screenshot the
    step acted on (a blank image for semantic-mode steps) and the same text."""
    with user_errors():
        if vlm is not None:
            from webmdp.synth.steprm import train_vlm

            card = train_vlm(vlm, data, out, epochs=epochs, lora_r=lora_r, lr=lr, seed=seed)
        else:
            from webmdp.synth.steprm import train

            card = train(data, out, c=c, seed=seed)
    ev = card.get("eval") or {}
    parts = [f"{name} {_fig(ev.get('splits', {}).get(name))}" for name in ("test", "heldout")]
    console.print(f"trained {card['kind']} StepRM on {card['train']['n']} steps in "
                  f"{card.get('train_s', 0):.1f}s; agreement with {card.get('grades')} grades: "
                  f"{'; '.join(parts)} -> {out}", highlight=False)


def _fig(split: dict | None) -> str:
    if not split or not split.get("n"):
        return "n/a (no example)"
    kappa = split.get("kappa")
    return (f"{split['agreement']:.1%} of {split['n']} (kappa "
            f"{'n/a' if kappa is None else f'{kappa:.2f}'})")


@steprm_app.command("eval")
def eval_cmd(
    model: Path = typer.Argument(..., help="A trained StepRM (`webmdp synth steprm train`)."),
    data: Path = typer.Argument(..., help="A data set directory (`webmdp synth steprm-data`)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON: n, agreement, kappa over "
                                 "test and held-out sites together, and per split (splits.test, "
                                 "splits.heldout) with spearman, confusion and majority_rate."),
) -> None:
    """Agreement of a trained StepRM with the data set's grades on its test split and on the
    held-out sites: binary agreement around the data set's cutoff and Cohen's kappa (the
    majority-class rate is 50% on a balanced split)."""
    from webmdp.synth.steprm import evaluate

    with user_errors():
        res = evaluate(model, data)
    if as_json:
        typer.echo(json.dumps(res, indent=2))
        return
    lines = [f"StepRM ({res['kind']}) vs grades, split gt at cutoff {res['cutoff']:g}:",
             f"  all:     {_fig(res)}"]
    for name in ("test", "heldout"):
        extra = (f" sites {', '.join(res['heldout_sites'])}" if name == "heldout"
                 and res["heldout_sites"] else "")
        lines.append(f"  {name + ':':<8} {_fig(res['splits'].get(name))}{extra}")
    typer.echo("\n".join(lines))
