"""`webmdp run`: run an agent on tasks and store traces."""

from __future__ import annotations

from pathlib import Path

import typer

from webmdp.agents.registry import MODEL_AGENTS, agent_names
from webmdp.cli.common import console, fail, progress, select_tasks, user_errors
from webmdp.errors import ConfigError, unknown_choice
from webmdp.runner.local import RunConfig, run_tasks

MODES = ("semantic", "browser")
OBSERVATIONS = ("screenshot", "axtree", "both")
COORDS = ("absolute", "relative1000", "normalized1")


def run(
    site: str = typer.Option("shopping", "--site", "-s", help="Site name, or 'all'."),
    agent: str = typer.Option("oracle", "--agent", "-a",
                              help="Agent: oracle, random, greedy (built in), or a model agent: "
                                   "step, plan, tree (needs --model)."),
    mode: str = typer.Option("semantic", "--mode", "-m",
                             help="semantic (typed actions on the MDP) or browser (Chromium)."),
    limit: int | None = typer.Option(None, "--limit", "-n", help="Run at most N tasks."),
    out: Path = typer.Option(Path("runs/latest"), "--out", "-o", help="Run directory."),
    template: str | None = typer.Option(None, help="Only this template."),
    task_id: list[str] = typer.Option(None, "--task", help="Only these task ids (repeatable)."),
    tasks_file: Path | None = typer.Option(None, "--tasks", help="Read tasks from a JSONL file."),
    step_budget: int = typer.Option(50, help="GUI steps before an episode is truncated."),
    screenshots: bool = typer.Option(False, help="Save a screenshot per browser step."),
    observation: str = typer.Option("both", help="Browser observation: screenshot, axtree or "
                                                  "both."),
    resume: bool = typer.Option(True, help="Skip episodes whose trace already exists."),
    seed: int = typer.Option(0, help="Seed for stochastic agents."),
    model: str | None = typer.Option(None, "--model", help="Model agents: PROVIDER/MODEL, e.g. "
                                     "openai/gpt-4o, vllm/ByteDance-Seed/UI-TARS-1.5-7B, "
                                     "anthropic/claude-sonnet-4-6 (see `webmdp agents`).",
                                     rich_help_panel="Model agents"),
    grammar: str = typer.Option("json", "--grammar", "-g", help="Action grammar: uitars, qwen, "
                                "fara, openai-cua, anthropic-cua, axtree, json.",
                                rich_help_panel="Model agents"),
    base_url: str | None = typer.Option(None, "--base-url", help="Endpoint URL (default: the "
                                        "provider's, or OPENAI_BASE_URL / ANTHROPIC_BASE_URL / "
                                        "VLLM_BASE_URL / SGLANG_BASE_URL).",
                                        rich_help_panel="Model agents"),
    api_key: str | None = typer.Option(None, "--api-key", help="API key (default: the "
                                       "provider's environment variable).",
                                       rich_help_panel="Model agents"),
    value: str = typer.Option("model", "--value", help="tree: value function V(s), 'model' or "
                              "'oracle' (exact, 1/(1+distance to goal) from the MDP).",
                              rich_help_panel="Model agents"),
    branching: int = typer.Option(3, help="tree: candidate actions per expanded node.",
                                  rich_help_panel="Model agents"),
    coords: str | None = typer.Option(None, help="Coordinate convention of the model's "
                                      "output: absolute, relative1000 or normalized1 (default: "
                                      "the grammar's).", rich_help_panel="Model agents"),
    history_images: int | None = typer.Option(None, help="Screenshots per prompt, the current "
                                              "one included (default: the family's).",
                                              rich_help_panel="Model agents"),
    set_of_marks: bool = typer.Option(False, help="Show a set-of-marks screenshot (numbered "
                                      "boxes over interactive elements).",
                                      rich_help_panel="Model agents"),
    temperature: float | None = typer.Option(None, help="Sampling temperature (default 0).",
                                             rich_help_panel="Model agents"),
    max_tokens: int | None = typer.Option(None, help="Completion token limit per call "
                                          "(default 1024).", rich_help_panel="Model agents"),
    timeout: float | None = typer.Option(None, help="Request timeout in seconds (default 120).",
                                         rich_help_panel="Model agents"),
    max_retries: int | None = typer.Option(None, help="Retries on 429 / 5xx / timeouts "
                                           "(default 4, exponential backoff).",
                                           rich_help_panel="Model agents"),
    concurrency: int | None = typer.Option(None, help="Concurrent requests per endpoint "
                                           "(default 4).", rich_help_panel="Model agents"),
) -> None:
    """Run an agent on a site's tasks; one trace per episode is written as soon as it ends."""
    with user_errors():
        model_cfg = None
        if model is not None:
            from webmdp.agents.llm import ModelAgentConfig
            from webmdp.agents.llm.clients import parse_model_id
            from webmdp.agents.llm.grammars import get_grammar, grammar_info

            parse_model_id(model)
            grammar_info(grammar)
            if agent not in MODEL_AGENTS:
                raise ConfigError(f"--model drives the model agents {', '.join(MODEL_AGENTS)}; "
                                  f"'{agent}' is built in")
            if mode in MODES and mode not in get_grammar(grammar).modes:
                raise ConfigError(f"grammar {grammar} works in "
                                  f"{' / '.join(get_grammar(grammar).modes)} mode, not {mode}")
            if value not in ("model", "oracle"):
                raise unknown_choice("value function", value, ("model", "oracle"))
            if coords is not None and coords not in COORDS:
                raise unknown_choice("coordinate convention", coords, COORDS)
            model_cfg = ModelAgentConfig(
                model=model, grammar=grammar, base_url=base_url, api_key=api_key,
                value=value, branching=branching, coords=coords,  # type: ignore[arg-type]
                history_images=history_images, set_of_marks=set_of_marks,
                temperature=temperature, max_tokens=max_tokens, timeout_s=timeout,
                max_retries=max_retries, concurrency=concurrency)
        elif agent in MODEL_AGENTS:
            raise ConfigError(f"agent '{agent}' is driven by a model: give --model "
                              "PROVIDER/MODEL (see `webmdp agents`)")
        if mode not in MODES:
            raise unknown_choice("mode", mode, MODES)
        if observation not in OBSERVATIONS:
            raise unknown_choice("observation", observation, OBSERVATIONS)
        if agent not in agent_names():
            raise unknown_choice("agent", agent, agent_names())
        tasks = select_tasks(site, tasks_file=tasks_file, template=template,
                             task_ids=task_id or None, limit=limit, spread=True)
        if not tasks:
            raise fail("no tasks selected")
        cfg = RunConfig(agent=agent, mode=mode, step_budget=step_budget,  # type: ignore[arg-type]
                        resume=resume, screenshots=screenshots, observation=observation,
                        seed=seed, model=model_cfg)
        ok = 0
        with progress() as bar:
            job = bar.add_task(f"{cfg.label()} · {mode}", total=len(tasks))

            def tick(trace) -> None:  # type: ignore[no-untyped-def]
                nonlocal ok
                ok += bool(trace and trace.success)
                bar.advance(job)

            traces = run_tasks(tasks, out, cfg, on_episode=tick)
    infra = sum(t.termination == "infra_error" for t in traces)
    console.print(f"{len(traces)} episodes run ({len(tasks) - len(traces)} resumed), "
                  f"{ok} successful, {infra} infrastructure errors -> {out}")
