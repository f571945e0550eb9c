"""`webmdp forge`: WebForge's pipeline (plan, generate, refine, validate) and its tables, and
`webmdp forge calibrate` (is each difficulty dimension monotone, by measurement?)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from webmdp.cli.common import console, fail, names, request_options, user_errors
from webmdp.redact import strict_dumps, write_scrubbed

app = typer.Typer(help="WebForge's pipeline: balanced tasks per domain x level x answer type, "
                  "refined and validated, with Table 8; and `forge calibrate`.",
                  invoke_without_command=True)

NOISE_LEVELS = ("none", "light", "real", "real-time")


def _sites(site: str) -> list[str]:
    from webmdp.sites import get_site, site_names

    chosen = names(site) or site_names()
    for n in chosen:
        get_site(n)
    return chosen


@app.callback()
def forge(
    ctx: typer.Context,
    out: Path | None = typer.Option(None, "--out", "-o", help="Directory for tasks.jsonl and "
                                    "forge.json (required to run the pipeline)."),
    per_cell: int = typer.Option(2, "--per-cell", help="Tasks planned per domain x level x "
                                 "answer type cell."),
    site: str = typer.Option("all", "--site", "-s", help="Sites to draw from, or 'all'."),
    noise: str = typer.Option("none", "--noise", help="Noise the refine check and the browser "
                              "validation use: none, light, real, real-time."),
    browser: bool = typer.Option(True, "--browser/--no-browser", help="Validate by replaying "
                                 "each oracle in Chromium (else the MDP replay alone)."),
    as_json: bool = typer.Option(False, "--json", help="Print forge.json instead of tables."),
    draft_model: str | None = typer.Option(None, "--draft-model", help="PROVIDER/MODEL that "
                                           "rewords each instruction (off by default; a "
                                           "rewrite is kept only when exact checks and the "
                                           "model's own low-temperature check pass)."),
    draft_base_url: str | None = typer.Option(None, "--draft-base-url", help="The rewording "
                                              "model's endpoint URL (e.g. a vLLM server)."),
) -> None:
    """Plan cells of domain (D1-D7) x level (1-3) x answer type, generate each from the
    difficulty dial, refine (the target is unique, every link leads somewhere, no alert(),
    noise present, no answer in plaintext) and validate by browser replay (at most 50 steps).
    Prints WebForge Table 8: accepted tasks and pass rate per domain x level, each rejection
    with its reason, and the empty cells."""
    if ctx.invoked_subcommand is not None:
        return
    from webmdp.forge.pipeline import forge as run_forge
    from webmdp.tasks.io import write_tasks

    if out is None:
        raise fail("give --out DIR (or a subcommand: calibrate)")
    if noise not in NOISE_LEVELS:
        raise fail(f"unknown noise level '{noise}'; valid choices: {', '.join(NOISE_LEVELS)}")
    with user_errors():
        sites = _sites(site)
    rewriter = None
    if draft_model is not None:
        from webmdp.forge.wording import Rewriter

        with user_errors():
            rewriter = Rewriter(draft_model, draft_base_url)
    with console.status("forging...") as status:
        made = run_forge(per_cell, sites=sites, noise=noise, browser=browser,
                         progress=lambda m: status.update(m), rewriter=rewriter)
    out.mkdir(parents=True, exist_ok=True)
    write_tasks(out / "tasks.jsonl", made.tasks())
    data = made.to_json()
    write_scrubbed(out / "forge.json", strict_dumps(data, indent=1))
    if as_json:
        typer.echo(json.dumps(data))
        return
    _print(data)
    console.print(f"wrote {data['accepted']} tasks to {out / 'tasks.jsonl'}")


def _print(data: dict) -> None:  # type: ignore[type-arg]
    from webmdp.tasks.domains import DOMAINS

    show = Console(width=160)
    table = Table("domain", "L1", "L2", "L3", title="WebForge Table 8: accepted tasks "
                  "(pass rate = accepted / planned)")
    for d, row in data["table8"].items():
        table.add_row(f"{d} {DOMAINS[d]}", *(
            "-" if c["planned"] == 0 else f"{c['count']} ({100 * c['rate']:.0f}%)"
            for c in row.values()))
    show.print(table)
    if data["empty_cells"]:
        kinds: dict[str, list[str]] = {}
        for d, _, a in data["empty_cells"]:
            if d not in kinds.setdefault(a, []):
                kinds[a].append(d)
        show.print("empty cells, all levels (no template of the selected sites has that domain "
                   "and answer type): " + "; ".join(f"{a}: {', '.join(ds)}"
                                                    for a, ds in kinds.items()))
    if data["short_cells"]:
        show.print("cells the dial streams could not fill: " + ", ".join(
            f"{d} L{lv} {a} ({n})" for d, lv, a, n in data["short_cells"]))
    if data["rejected"]:
        rej = Table("task", "cell", "stage", "reason", title="rejections")
        for r in data["rejected"]:
            rej.add_row(r["task_id"], f"{r['domain']} L{r['level']} {r['answer_type']}",
                        r["stage"], "; ".join(r["reasons"]))
        show.print(rej)
    if data.get("wording"):
        kept = [w for w in data["wording"] if not w["accepted"]]
        show.print(f"wording: {len(data['wording']) - len(kept)} of {len(data['wording'])} "
                   "instructions reworded by the model")
        for w in kept:
            show.print(f"  {w['task_id']} keeps the template's wording: "
                       f"{'; '.join(w['reasons'])}")


@app.command("calibrate")
def calibrate(
    per_level: int | None = typer.Option(None, "--per-level", help="Tasks of each overall "
                                         "level per site (default: 2; with --suite grid "
                                         "every task of the grid, 40)."),
    suite: str = typer.Option("builtin", "--suite", help="builtin (a set balanced over levels "
                              "from the dial streams) or grid (the grid suite's cells, "
                              "`webmdp tasks stats --suite grid`)."),
    site: str = typer.Option("all", "--site", "-s", help="Sites, or 'all'."),
    browser: bool = typer.Option(True, "--browser/--no-browser", help="Also run the scripted "
                                 "screenshot (pixel) and text-only (axtext) agents in Chromium "
                                 "on the dial's visual tasks."),
    visual: int = typer.Option(6, "--visual", help="Visual tasks per site that has them."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    agent: str = typer.Option("greedy,random", "--agent", "-a", help="Agents to calibrate "
                              "on the balanced set, comma-separated: built-in ones (semantic "
                              "mode) or a model agent (step, plan, tree) with --model.",
                              rich_help_panel="Agents"),
    model: str | None = typer.Option(None, "--model", help="PROVIDER/MODEL for a model agent "
                                     "(e.g. openai/gpt-4o, vllm/Qwen2.5-VL-7B-Instruct).",
                                     rich_help_panel="Agents"),
    mode: str = typer.Option("semantic", "--mode", help="A model agent's mode: semantic "
                             "(actions on the MDP) or browser (Chromium).",
                             rich_help_panel="Agents"),
    grammar: str = typer.Option("json", "--grammar", "-g", help="A model agent's action "
                                "grammar (see `webmdp run --help`).", rich_help_panel="Agents"),
    base_url: str | None = typer.Option(None, "--base-url", help="The model's endpoint URL.",
                                        rich_help_panel="Agents"),
    api_key: str | None = typer.Option(None, "--api-key", help="API key (default: the "
                                       "provider's environment variable).",
                                       rich_help_panel="Agents"),
    timeout: float | None = typer.Option(None, help="Seconds per model request.",
                                         rich_help_panel="Agents"),
    max_retries: int | None = typer.Option(None, help="Retries per model request.",
                                           rich_help_panel="Agents"),
    concurrency: int | None = typer.Option(None, help="Model requests in flight.",
                                           rich_help_panel="Agents"),
) -> None:
    """Run agents on a set balanced over levels and show, per dimension, accuracy at L1, L2
    and L3 with 95% intervals; flag any dimension that is not monotone (L1 >= L2 >= L3).
    By default the built-in greedy and random agents; `--agent step --model ...` calibrates a
    model agent on the same set."""
    from webmdp.forge.calibrate import calibrate as run
    from webmdp.redact import register as register_secret

    register_secret(api_key)
    with user_errors():
        sites = _sites(site)
        agents, model_cfg = _calibration_agents(
            agent, mode, {"model": model, "grammar": grammar, "base_url": base_url,
                          "api_key": api_key, "timeout": timeout, "max_retries": max_retries,
                          "concurrency": concurrency})
    with console.status("calibrating...") as status:
        if suite not in ("builtin", "grid"):
            raise fail(f"--suite for calibrate is builtin or grid, not {suite!r}")
        data = run(per_level, sites=sites, browser=browser, visual_per_site=visual,
                   progress=lambda m: status.update(m), agents=agents, model=model_cfg,
                   model_mode=mode, suite=suite)
    if as_json:
        typer.echo(json.dumps(data))
        return
    _show_calibration(data)


def _calibration_agents(agent: str, mode: str, request: dict[str, Any]
                        ) -> tuple[tuple[str, ...], Any]:
    """The agents to calibrate (the oracle always runs, so it is left out) and a model
    agent's config (built as `webmdp run` builds it), each refused in one line."""
    from webmdp.agents.registry import MODEL_AGENTS, agent_names
    from webmdp.forge.calibrate import BROWSER_AGENTS

    agents = tuple(dict.fromkeys(names(agent)))
    model = request["model"]
    if not agents:
        raise fail("--agent needs at least one agent, e.g. greedy,random")
    driven = [a for a in agents if a in MODEL_AGENTS]
    if mode not in ("semantic", "browser"):
        raise fail(f"--mode must be semantic or browser, got {mode!r}")
    if driven and model is None:
        raise fail(f"agent '{driven[0]}' is driven by a model: give --model PROVIDER/MODEL")
    if model is not None and not driven:
        raise fail("--model drives a model agent: add step, plan or tree to --agent")
    model_cfg = None
    if model is not None:
        from webmdp.cli.run_cmd import _model_config

        model_cfg = _model_config({**request, "agent": driven, "mode": mode, "value": "model",
                                   "branching": 3, "coords": None, "history_images": None,
                                   "set_of_marks": False, "temperature": None,
                                   "max_tokens": None})
    known = set(agent_names())  # the model agents among them
    for a in agents:
        if a not in known and ":" not in a:
            raise fail(f"unknown agent '{a}'; known: {', '.join(sorted(known))}")
        if a in BROWSER_AGENTS:
            raise fail(f"agent '{a}' reads the visual tasks' pixels in Chromium: it runs "
                       "with --browser, not on the balanced set")
    return tuple(a for a in agents if a != "oracle"), model_cfg


def _show_calibration(data: dict[str, Any]) -> None:
    """Accuracy by dimension level, pooled, with each dimension's monotonicity."""
    table = Table("dimension", "L1", "L2", "L3", "monotone",
                  title=f"accuracy by dimension level, pooled ({', '.join(data['agents'])}; "
                  f"{data['episodes']} episodes; oracle left out); monotone per agent, "
                  "* = intervals apart")

    def cell(c: dict) -> str:  # type: ignore[type-arg]
        if c["n"] == 0:
            return "-"
        lo, hi = c["ci95"]
        return f"{100 * c['accuracy']:.0f}% [{100 * lo:.0f}-{100 * hi:.0f}] (n={c['n']})"

    levels = Table("agent", "L1", "L2", "L3", "monotone",
                   title="success per overall level (WebForge Table 2)")
    for agent, c in data.get("by_level", {}).items():
        levels.add_row(agent, cell(c["L1"]), cell(c["L2"]), cell(c["L3"]),
                       "yes" if c["monotone"] else "[red]NO[/red]")
    Console(width=160).print(levels)
    for v in data["dimensions"].values():
        flag = "yes" if v["monotone"] else "[red]NO[/red] (" + ", ".join(
            f"{i['agent']} {i['harder']}>{i['easier']}{'*' if i['significant'] else ''}"
            for i in v["inversions"]) + ")"
        table.add_row(v["title"], cell(v["L1"]), cell(v["L2"]), cell(v["L3"]), flag)
    Console(width=160).print(table)
    if data["not_monotone"]:
        console.print("not monotone: " + ", ".join(data["not_monotone"]))


@app.command("answers")
def answers(
    run: Path = typer.Argument(..., help="A run directory with Direct or Mixed tasks."),
    judge_model: str = typer.Option(..., "--judge-model", help="PROVIDER/MODEL of the "
                                    "comparator (e.g. openai/gpt-4o, vllm/Qwen2.5-7B)."),
    judge_base_url: str | None = typer.Option(None, "--judge-base-url", help="The model's "
                                              "endpoint URL (e.g. a vLLM server)."),
    limit: int | None = typer.Option(None, "--limit", "-n", help="Judge at most N episodes."),
    timeout: float | None = typer.Option(None, help="Seconds per request."),
    max_retries: int | None = typer.Option(None, help="Retries per request."),
    concurrency: int | None = typer.Option(None, help="Requests in flight."),
) -> None:
    """Compare each final answer with the expected one using a model (WebForge's optional
    comparator for free text), and measure it against the exact comparison (normalised
    numbers, dates, case): confusion matrix, agreement, Cohen's kappa, and the tasks on which
    they differ. Success stays the exact verdict. Verdicts go to RUN/answers/judge.jsonl (with
    prompt and reply; a reply without a verdict leaves the answer unjudged), the agreement to
    RUN/answers/agreement.json."""
    from webmdp.eval.answer_judge import AnswerJudge, answer_agreement, answered, judge_answers
    from webmdp.eval.rubric_judge import read_rows
    from webmdp.synth.episodes import episodes

    options = request_options(timeout, max_retries, concurrency, limit)
    with user_errors():
        eps = answered(episodes(run))
        if not eps:
            raise fail(f"{run}: no episode of a task with an expected answer (Direct or Mixed: "
                       "make some with `webmdp tasks generate --dims ...` or `webmdp forge`)")
        eps = eps[:limit] if limit else eps
        model = AnswerJudge(judge_model, judge_base_url, **options)
        with console.status(f"comparing {len(eps)} answers..."):
            path = judge_answers(run, model, eps)
        result = answer_agreement([r for r in read_rows(path) if r["judge"] == judge_model])
    write_scrubbed(run / "answers" / "agreement.json", strict_dumps(result, indent=2) + "\n")
    c = result["confusion"]
    table = Table("answers", "unjudged", "TP", "FP", "FN", "TN", "agreement", "kappa",
                  title=f"{judge_model} vs the exact comparison")
    table.add_row(str(result["n"]), str(result["unjudged"]), str(c["tp"]), str(c["fp"]),
                  str(c["fn"]), str(c["tn"]), str(result["agreement"]), str(result["kappa"]))
    console.print(table)
    for key, what in (("model_only", "the model accepts, the exact comparison does not"),
                      ("exact_only", "the exact comparison accepts, the model does not")):
        if result[key]:
            console.print(f"{what}: {', '.join(result[key])}")
    console.print(f"verdicts: {path}; agreement: {run / 'answers' / 'agreement.json'}")
