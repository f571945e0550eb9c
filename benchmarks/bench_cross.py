"""Cross-site tasks (CAP, issue 20): semantic oracle episodes, rubric scoring, browser steps.

Prints absolute figures and ratios against baselines measured in the same run:
- cross-site oracle episodes per second in semantic mode (MDP replay + verifier + rubric), per
  core, vs. replaying the same tasks' single-site oracles (target: 1,000 per second per core);
- exact rubric scoring of 10,000 stored episodes (target: under 10 s);
- a cross-site browser step vs. a single-site one (target: no dearer), same server and
  Chromium, oracle episodes of cross-site tasks and of the single-site tasks they are made of.

`python benchmarks/bench_cross.py [n-browser-tasks]`
"""

from __future__ import annotations

import statistics
import sys
import time

from webmdp.cap.compose import base_tasks, generate_cross_tasks
from webmdp.core import World
from webmdp.core.spec import Action
from webmdp.sites import get_site
from webmdp.tasks.model import Task
from webmdp.tasks.rubric_eval import evaluate
from webmdp.tasks.verifier import verify
from webmdp.trace import EpisodeTrace

TARGET_EPISODES = 1000
TARGET_SCORING_S = 10.0


def _replay(site_name: str, world: World, actions: list[Action], task: Task) -> bool:
    site = get_site(site_name)
    state = site.initial_state(world)
    for a in actions:
        state = site.step(state, a, world)
    return all(verify(task.verifier, site.facts(state)).values())


def _rate(fn, min_s: float = 1.0) -> float:  # type: ignore[no-untyped-def]
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < min_s:
        n += fn()
    return n / (time.perf_counter() - t0)


def bench_semantic(tasks: list[Task]) -> dict[str, float]:
    """Episodes/s: the cross-site oracle (OpenSite steps, every member's oracle, the composed
    verifier and the exact rubric) vs. the single-site oracles it is made of, one after the
    other (the same transitions without the composite)."""
    from webmdp.agents.builtin import OracleAgent
    from webmdp.env.semantic import SemanticEnv
    from webmdp.runner.episode import run_episode

    cross = [(World.from_dict(t.world), t.oracle_actions(), t) for t in tasks]
    bases = [[(World.from_dict(b.world), b.oracle_actions(), b) for b in base_tasks(t)]
             for t in tasks]

    def cross_replay() -> int:
        for world, actions, t in cross:
            assert _replay("cross-site", world, actions, t)
        return len(cross)

    def base_replay() -> int:
        for group in bases:
            for world, actions, b in group:
                _replay(b.site, world, actions, b)
        return len(bases)

    def cross_env() -> int:
        for t in tasks[:20]:
            trace = run_episode(SemanticEnv(t, agent="oracle"), OracleAgent())
            assert trace.success
        return 20

    cross_replay()
    base_replay()
    rates = [(_rate(base_replay, 0.5), _rate(cross_replay, 0.5)) for _ in range(3)]
    base = statistics.median(r[0] for r in rates)
    replay = statistics.median(r[1] for r in rates)
    env = _rate(cross_env, 1.0)
    return {"replay_eps": replay, "base_eps": base, "env_eps": env}


def bench_scoring(tasks: list[Task], n: int = 10_000) -> dict[str, float]:
    """Exact rubric scores of ``n`` stored episodes (oracle traces of the tasks, cycled)."""
    from webmdp.agents.builtin import OracleAgent
    from webmdp.env.semantic import SemanticEnv
    from webmdp.runner.episode import run_episode

    stored = []
    for t in tasks[:50]:
        trace = run_episode(SemanticEnv(t, agent="oracle"), OracleAgent())
        stored.append((EpisodeTrace.model_validate_json(trace.model_dump_json()), t))
    t0 = time.perf_counter()
    for i in range(n):
        trace, task = stored[i % len(stored)]
        assert task.cross is not None
        res = evaluate(task.cross.rubric, trace.transitions(), trace.initial_revealed,
                       trace.final_facts, trace.final_answer)
        assert res.root == 1.0
    return {"episodes": n, "seconds": time.perf_counter() - t0}


def bench_browser(tasks: list[Task]) -> dict[str, float]:
    """Mean env seconds per GUI step: oracle episodes of cross-site tasks vs. of the
    single-site tasks they are made of, alternating, one server and one Chromium."""
    from webmdp.agents.builtin import OracleAgent
    from webmdp.env.browser import BrowserConfig, BrowserEnv
    from webmdp.env.chromium import BrowserHost
    from webmdp.runner.episode import run_episode
    from webmdp.server.runner import ServerHandle

    cross_steps: list[float] = []
    single_steps: list[float] = []
    with ServerHandle() as server, BrowserHost() as host:
        for t in tasks:
            for task, out in [(t, cross_steps)] + [(b, single_steps) for b in base_tasks(t)]:
                env = BrowserEnv(task, agent="oracle", server=server, host=host,
                                 config=BrowserConfig(observation="axtree"))
                try:
                    trace = run_episode(env, OracleAgent())
                finally:
                    env.close()
                out.extend(s.env_s for s in trace.steps if s.env_s)
    return {"cross_step_s": statistics.fmean(cross_steps),
            "single_step_s": statistics.fmean(single_steps),
            "cross_steps": len(cross_steps), "single_steps": len(single_steps)}


def main(n_browser: int = 7) -> None:
    t0 = time.perf_counter()
    tasks = generate_cross_tasks(70)
    print(f"cross-site: 70 tasks composed in {time.perf_counter() - t0:.1f} s")
    sem = bench_semantic(tasks)
    print(f"cross-site semantic oracle replay: {sem['replay_eps']:,.0f} episodes/s on one core "
          f"(target {TARGET_EPISODES:,}: {sem['replay_eps'] / TARGET_EPISODES:.2f}x); the "
          f"same transitions as single-site replays: {sem['base_eps']:,.0f} /s (ratio "
          f"{sem['replay_eps'] / sem['base_eps']:.2f}); full SemanticEnv episodes with "
          f"trace and rubric: {sem['env_eps']:,.0f} /s")
    sc = bench_scoring(tasks)
    print(f"rubric scoring: {sc['episodes']:,} stored episodes in {sc['seconds']:.2f} s "
          f"(target under {TARGET_SCORING_S:.0f} s: {TARGET_SCORING_S / sc['seconds']:.1f}x "
          "margin)")
    br = bench_browser(tasks[:n_browser])
    print(f"browser step: cross-site {1000 * br['cross_step_s']:.0f} ms over "
          f"{br['cross_steps']} steps, single-site {1000 * br['single_step_s']:.0f} ms over "
          f"{br['single_steps']} steps (ratio {br['cross_step_s'] / br['single_step_s']:.2f})")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
