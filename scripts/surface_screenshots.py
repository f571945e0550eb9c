"""Screenshot every surface a site's oracles pass through, at 1440x900 in Chromium.

    python scripts/surface_screenshots.py accommodation --out /tmp/shots [--per-template 1]

One PNG per surface (the first time an oracle reaches it), named ``SITE-Surface.png``, plus a
line per surface saying which task and step it came from. Used to look at a site the way a
vision model sees it (docs/sites.md).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from webmdp.agents import OracleAgent
from webmdp.env.browser import BrowserConfig, BrowserEnv
from webmdp.env.chromium import BrowserHost
from webmdp.runner.episode import run_episode
from webmdp.server.runner import ServerHandle
from webmdp.sites import get_site
from webmdp.tasks import generate_site_tasks


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("site")
    ap.add_argument("--out", type=Path, default=Path("runs/shots"))
    ap.add_argument("--per-template", type=int, default=1, help="oracles run per template")
    args = ap.parse_args()
    site = get_site(args.site)
    args.out.mkdir(parents=True, exist_ok=True)
    tasks = generate_site_tasks(site)
    picked: list[Any] = []
    for name in site.templates:
        picked += [t for t in tasks if t.template == name][: args.per_template]
    seen: dict[str, str] = {}
    with ServerHandle() as server, BrowserHost() as host:
        for task in picked:
            env = BrowserEnv(task, agent="shots", server=server, host=host,
                             config=BrowserConfig(observation="axtree"))
            reset, step = env.reset, env.step

            def shoot_reset(*a: Any, _reset: Any = reset, _env: BrowserEnv = env,
                            _tid: str = task.id, **kw: Any) -> Any:
                out = _reset(*a, **kw)
                _capture(_env, args.out, site.name, seen, _tid, "reset")
                return out

            def shoot(action: Any, *a: Any, _step: Any = step, _env: BrowserEnv = env,
                      _tid: str = task.id, **kw: Any) -> Any:
                out = _step(action, *a, **kw)
                _capture(_env, args.out, site.name, seen, _tid,
                         f"a {getattr(action, 'kind', action)}")
                return out

            env.reset = shoot_reset  # type: ignore[method-assign]
            env.step = shoot  # type: ignore[method-assign]
            try:
                run_episode(env, OracleAgent())
            finally:
                env.close()
    missing = sorted({s.name for s in site.surfaces} - set(seen))
    for surface, where in sorted(seen.items()):
        print(f"{surface:<22} {where}")
    if missing:
        print(f"not reached by any oracle: {', '.join(missing)}")


def _capture(env: BrowserEnv, out: Path, site: str, seen: dict[str, str], tid: str,
             where: str) -> None:
    page = env.page
    surface = page.evaluate("document.body.dataset.surface")
    if surface and surface not in seen:
        page.screenshot(path=str(out / f"{site}-{surface}.png"))
        seen[surface] = f"{tid} after {where}"


if __name__ == "__main__":
    main()
