"""`webmdp rl`: serve webmdp to reinforcement-learning trainers (OpenEnv)."""

from __future__ import annotations

from pathlib import Path

import typer

from webmdp.cli.common import fail, in_range, read_task_file, user_errors

app = typer.Typer(help="Reinforcement-learning integrations (OpenEnv server, TRL dataset).",
                  no_args_is_help=True)


@app.command("serve")
def serve(
    site: str = typer.Option("all", "--site", help="A site, 'all', or 'cross-site'."),
    mode: str = typer.Option("semantic", "--mode",
                             help="semantic (typed actions, text) or browser (GUI actions in "
                                  "Chromium, screenshot + accessibility tree; a Chromium per "
                                  "session)."),
    reward: str = typer.Option("terminal", "--reward",
                               help="terminal (1/0 verdict), dense (potential-based shaping) "
                                    "or rubric (cross-site rubric root)."),
    max_sessions: int = typer.Option(16, "--max-sessions",
                                     help="Concurrent WebSocket sessions (>= the trainer's "
                                          "generation batch); in browser mode also the most "
                                          "Chromiums at once."),
    step_budget: int = typer.Option(50, "--step-budget", help="Steps per episode and site."),
    tasks: Path | None = typer.Option(None, "--tasks", help="A task file: served as split "
                                                            "'file'."),
    host: str = typer.Option("127.0.0.1", "--host",
                             help="Interface to bind: loopback by default; another (a trainer "
                                  "on another machine) is warned about, as the server has no "
                                  "authentication."),
    port: int = typer.Option(8000, "--port", help="TCP port."),
) -> None:
    """Serve an OpenEnv environment (HTTP + WebSocket, OpenEnv's own server) over webmdp's
    sites, in semantic or browser mode: task splits, deterministic resets, terminal / dense /
    rubric rewards."""
    in_range("--max-sessions", max_sessions, 1)
    in_range("--step-budget", step_budget, 1)
    in_range("--port", port, 0, 65535)
    try:
        from webmdp.rl.server import build_app
        from webmdp.rl.server import serve as run
    except ImportError as exc:
        raise fail(f"webmdp rl needs OpenEnv: pip install 'webmdp[openenv]' ({exc})") from None
    if tasks is not None:
        with user_errors():
            read_task_file(tasks)
    try:
        app_ = build_app(site=site, mode=mode, reward=reward,  # type: ignore[arg-type]
                         max_sessions=max_sessions, step_budget=step_budget,
                         tasks_file=None if tasks is None else str(tasks))
    except ValueError as exc:
        raise fail(str(exc)) from None
    if host not in ("127.0.0.1", "localhost", "::1"):
        typer.echo(f"warning: binding {host}, not loopback: OpenEnv's server has no "
                   "authentication, so whoever reaches this port can run episodes", err=True)
    typer.echo(f"webmdp OpenEnv server on http://{host}:{port} (site={site}, mode={mode}, "
               f"reward={reward}, max sessions={max_sessions})", err=True)
    run(app_, host=host, port=port)


@app.command("dataset")
def dataset(
    out: Path = typer.Option(..., "--out", help="F.jsonl or F.parquet (what "
                             "datasets.load_dataset reads)."),
    site: str = typer.Option("all", "--site", help="A site, 'all' (adds an 'environment' "
                             "column), or 'cross-site'."),
    split: str = typer.Option("train", "--split", help="train, test, level-1, level-2, "
                              "level-3, level-none or cross-site."),
    limit: int | None = typer.Option(None, "--limit", help="At most N rows."),
) -> None:
    """Write a TRL dataset: one row per task of the split, with a conversational 'prompt'
    (the instruction), 'task_id' (what the environment's reset reads), 'site', 'level' and
    'split'. A curriculum by measured difficulty is one filter on 'level'."""
    from webmdp.rl.dataset import rows, write

    if out.suffix not in (".jsonl", ".parquet"):
        raise fail(f"--out {out}: use a .jsonl or .parquet file")
    try:
        data = rows(site, split, limit)
    except ValueError as exc:
        raise fail(str(exc)) from None
    write(out, data)
    typer.echo(f"wrote {len(data)} rows ({site}, {split}) to {out}")
