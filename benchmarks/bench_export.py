"""SFT export speed (`webmdp synth export`): 10k graded GUI steps, every one kept.

The run is synthetic but has the real layout: 1000 browser trajectories of 10 steps on real
shopping tasks (``tasks.jsonl``, ``episodes/<label>/browser/<task>.json``, one small PNG per
step in ``shots/``) and ``synth/grades-exact.jsonl`` with every step graded 10, so every step
becomes a sample whose context holds all earlier steps (the worst case for the history) and
whose window is 3 screenshots. Actions cycle through clicks, a scroll, typing, a key and a
wait, so every formatter and parse-back check runs.

Baselines, measured in the same run: (1) reading the run back (every trace parsed into an
``EpisodeTrace``: what any exporter must do at least); (2) a plain ``json.dumps`` of every grade
row. The ratios are what compare across machines.
"""

from __future__ import annotations

import io
import json
import shutil
import tempfile
import time
from pathlib import Path

from PIL import Image

from webmdp.sites import get_site
from webmdp.synth.export import export
from webmdp.tasks import generate_site_tasks
from webmdp.tasks.io import write_tasks
from webmdp.trace import EpisodeTrace, GUIStep

STEPS_PER_TRAJECTORY = 10
ACTIONS = ({"kind": "click", "x": 637.3, "y": 30.0},
           {"kind": "type", "text": "t-shirts\n"},
           {"kind": "scroll", "x": 720.0, "y": 450.0, "dy": 514.0},
           {"kind": "click", "x": 411.25, "y": 327.875},
           {"kind": "key", "key": "Control+a"},
           {"kind": "wait", "seconds": 0.1},
           {"kind": "click", "x": 1284.98, "y": 329.1})


def _png() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (64, 40), (240, 240, 240)).save(buf, "PNG")
    return buf.getvalue()


def make_run(root: Path, steps: int = 10_000) -> Path:
    """A run directory with ``steps`` GUI steps (see the module doc), graded."""
    run = root / "run"
    tasks = list(generate_site_tasks(get_site("shopping")))
    n_traj = steps // STEPS_PER_TRAJECTORY
    per_label = len(tasks)
    write_tasks(run / "tasks.jsonl", tasks)
    png = _png()
    rows = []
    for t in range(n_traj):
        task = tasks[t % per_label]
        label = f"bench{t // per_label}"
        d = run / "episodes" / label / "browser"
        (d / "shots").mkdir(parents=True, exist_ok=True)
        (d / "shots" / f"{task.id}_reset.png").write_bytes(png)
        gsteps = []
        for i in range(STEPS_PER_TRAJECTORY):
            shot = f"shots/{task.id}_step{i:02d}.png"
            (d / shot).write_bytes(png)
            gsteps.append(GUIStep(index=i, action=dict(ACTIONS[(t + i) % len(ACTIONS)]),
                                  screenshot=shot))
            rows.append({"agent": label, "mode": "browser", "task_id": task.id, "step": i,
                         "seed": 0, "grade": 10, "source": "exact", "why": "closer"})
        trace = EpisodeTrace(task_id=task.id, site=task.site, template=task.template,
                             agent=label, mode="browser", seed=0, steps=gsteps, success=True,
                             initial_screenshot=f"shots/{task.id}_reset.png")
        (d / f"{task.id}.json").write_text(trace.model_dump_json(), encoding="utf-8")
    (run / "synth").mkdir()
    (run / "synth" / "grades-exact.jsonl").write_text(
        "".join(json.dumps(r, sort_keys=True) + "\n" for r in rows), encoding="utf-8")
    return run


def _time(fn: object, reps: int = 1) -> float:
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        best = min(best, time.perf_counter() - t0)
    return best


def bench_export(steps: int = 10_000) -> dict[str, float]:
    """Time the export of ``steps`` kept steps per grammar and format; print steps/s and the
    ratios to the baselines; return the figures."""
    root = Path(tempfile.mkdtemp(prefix="webmdp-bench-export-"))
    try:
        t0 = time.perf_counter()
        run = make_run(root, steps)
        print(f"built a run of {steps} steps in {time.perf_counter() - t0:.1f} s")
        traces = sorted((run / "episodes").glob("*/*/*.json"))
        rows = [json.loads(line) for line in
                (run / "synth" / "grades-exact.jsonl").read_text().splitlines()]

        def read() -> None:
            for p in traces:
                EpisodeTrace.model_validate_json(p.read_text(encoding="utf-8"))

        def dumps() -> None:
            for r in rows:
                json.dumps(r, sort_keys=True)

        base_read = _time(read, 2)
        base_dumps = _time(dumps, 3)
        figures = {"read_traces_steps_per_s": steps / base_read,
                   "json_dumps_rows_per_s": steps / base_dumps}
        print(f"baseline: read traces {steps / base_read:,.0f} steps/s; json.dumps of the "
              f"grade rows {steps / base_dumps:,.0f} rows/s")
        for grammar, fmt in (("uitars", "sharegpt"), ("qwen", "llamafactory"),
                             ("json", "jsonl"), ("uitars", "jsonl")):
            out = root / f"out-{grammar}-{fmt}"
            summary = None

            def go(grammar: str = grammar, fmt: str = fmt, out: Path = out) -> None:
                nonlocal summary
                summary = export(run, out, fmt=fmt, grammar=grammar, window=3)

            secs = _time(go, 2)
            assert summary is not None and summary.samples == steps, summary
            size = sum(p.stat().st_size for p in out.glob("data.json*")) / 1e6
            rate = steps / secs
            figures[f"{grammar}_{fmt}_steps_per_s"] = rate
            print(f"export {grammar:6} {fmt:12}: {secs:6.2f} s, {rate:8,.0f} steps/s, "
                  f"{size:6.1f} MB data, {summary.images} images; time x{secs / base_read:.1f} "
                  f"reading the traces, x{secs / base_dumps:.0f} json.dumps of the rows")
        return figures
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    bench_export()
