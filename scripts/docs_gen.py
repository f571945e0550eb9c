"""The documentation's generated parts: written from the code at build time, so they never drift.

``mkdocs build`` runs them through ``scripts/mkdocs_hooks.py``; each is also a command:

    python scripts/docs_gen.py site mail       # one site's tables (surfaces, actions, ...)
    python scripts/docs_gen.py sites           # the ten sites in one table
    python scripts/docs_gen.py difficulty      # measured levels of the built-in tasks
    python scripts/docs_gen.py cli             # the CLI reference (Typer's own generator)
    python scripts/docs_gen.py api             # the API reference page (mkdocstrings)

A page asks for a part with a marker on a line of its own, e.g. ``<!-- webmdp:site mail -->``;
every count such a part shows is computed from the site declarations and the generated tasks.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from types import ModuleType

from webmdp.core.spec import ActionSpec, ParamSpec
from webmdp.errors import WebMDPError
from webmdp.sites import get_site
from webmdp.sites.registry import site_names
from webmdp.tasks import Task, generate_site_tasks
from webmdp.tasks.splits import level_of

LEVELS = ("1", "2", "3", "none")
MARKER = re.compile(r"^<!-- webmdp:(?P<part>[a-z-]+)(?: (?P<arg>[a-z_-]+))? -->$", re.M)


def _row(cells: Iterable[object]) -> str:
    return "| " + " | ".join(str(c).replace("|", "\\|").replace("\n", " ") for c in cells) + " |"


def table(header: Sequence[str], rows: Iterable[Sequence[object]],
          align: Sequence[str] = ()) -> str:
    """A Markdown table; ``align`` holds ``"r"`` for a right-aligned column."""
    rule = ["---:" if i < len(align) and align[i] == "r" else "---" for i in range(len(header))]
    return "\n".join([_row(header), _row(rule), *(_row(r) for r in rows)])


def _param(p: ParamSpec) -> str:
    if p.choices:
        kind = " / ".join(p.choices)
        text = f"{p.name}: {kind}"
    else:
        text = f"{p.name}: {p.type}"
    return f"`{text}`" + (" (optional)" if p.optional else "")


def _params(a: ActionSpec) -> str:
    return ", ".join(_param(p) for p in a.params) or "none"


def _tasks(site: str) -> list[Task]:
    """The site's built-in tasks (generated once per process, read from the disk cache)."""
    return generate_site_tasks(get_site(site))


def _level(task: Task) -> str:
    level = level_of(task)
    return "none" if level is None else str(level)


# WebSTEP's Table 4, per site: what the paper counts (surfaces, actions, templates, card and
# detail fields, tasks) and its decision object; the code gives the other column.
PAPER: dict[str, tuple[int, int, int, int, int, int, str]] = {
    "shopping": (6, 23, 6, 12, 12, 180, "product"),
    "mail": (3, 36, 6, 10, 9, 180, "thread"),
    "calendar": (6, 14, 6, 8, 6, 180, "event"),
    "chat": (3, 24, 12, 6, 5, 180, "message"),
    "food": (6, 24, 15, 8, 7, 180, "restaurant / menu item"),
    "accommodation": (4, 16, 12, 9, 8, 180, "listing"),
    "housing": (4, 16, 12, 8, 10, 180, "property"),
    "qa": (4, 18, 12, 7, 6, 180, "question"),
    "repo": (6, 32, 12, 9, 8, 180, "repository / issue"),
    "jobs": (6, 26, 12, 7, 9, 180, "job / profile"),
}


def _source(name: str) -> str:
    site = get_site(name)
    return (f"*Generated from `{type(site).__module__}` and the site's built-in tasks "
            f"(`webmdp tasks list --site {name}`).*")


def site_surfaces(name: str) -> str:
    site = get_site(name)
    return "\n\n".join([
        _source(name),
        f"{len(site.surfaces)} surfaces. A surface's kind is what WebSTEP's metrics read: "
        "**card** (lists), **detail** (one entity), **commit** (task-completing) or other.",
        table(["surface", "kind", "what it shows"],
              [(f"`{s.name}`", s.kind.value, s.description) for s in site.surfaces])])


def site_actions(name: str) -> str:
    site = get_site(name)
    return "\n\n".join([
        f"{len(site.actions)} typed actions; a state-changing action is a commit "
        "(WebSTEP Table 6). *Generated from the site's declaration.*",
        table(["action", "parameters", "skill", "category", "changes state", "what it does"],
              [(f"`{a.name}`", _params(a), a.skill, a.category.value,
                "yes" if a.changes_state else "", a.description) for a in site.actions])])


def site_fields(name: str) -> str:
    site = get_site(name)
    vis = site.visibility
    pixel = sorted({f for fs in site.pixel_fields.values() for f in fs})
    rows: list[tuple[object, ...]] = [
        ("card", len(vis.card_fields), ", ".join(f"`{f}`" for f in vis.card_fields)),
        ("detail only", len(vis.detail_fields), ", ".join(f"`{f}`" for f in vis.detail_fields))]
    if pixel:
        rows.append(("pixels only (dial tasks)", len(pixel), ", ".join(f"`{f}`" for f in pixel)))
    return ("*Generated from the site's visibility spec.*\n\n"
            + table(["access level", "count", "fields"], rows, align=("", "r")))


def site_templates(name: str) -> str:
    site = get_site(name)
    tasks = _tasks(name)
    by_template = Counter(t.template for t in tasks)
    example = {}
    for t in tasks:
        example.setdefault(t.template, t)
    dial = site.dial_templates
    rows = [(f"`{t.name}`", t.description, f"`{t.commit_action}`", t.answer_type,
             by_template.get(t.name, 0),
             f"`{example[t.name].id}`: {example[t.name].instruction}" if t.name in example else "")
            for t in site.templates.values()]
    rows += [(f"`{t.name}`", t.description, f"`{t.commit_action}`", t.answer_type, "dial only",
              "") for t in dial.values()]
    head = (f"{len(site.templates)} templates make the {len(tasks)} built-in tasks"
            + (f"; {len(dial)} more are for the difficulty dial only" if dial else "")
            + ". *Generated from the templates and the built-in tasks.*")
    return head + "\n\n" + table(
        ["template", "what the task asks", "commit action", "answer", "built-in tasks",
         "example"], rows, align=("", "", "", "", "r"))


def site_tasks(name: str) -> str:
    tasks = _tasks(name)
    by_level = Counter(_level(t) for t in tasks)
    by_hn = Counter(len(t.hard_negatives) for t in tasks)
    return "\n\n".join([
        "Built-in tasks by measured difficulty level (WebForge; `webmdp tasks stats "
        f"--by level --site {name}`) and by number of hard negatives. *Generated.*",
        table(["", *(f"level {lv}" for lv in LEVELS), "total"],
              [("tasks", *(by_level.get(lv, 0) for lv in LEVELS), len(tasks))],
              align=("", "r", "r", "r", "r", "r")),
        table(["hard negatives", *(str(k) for k in range(4))],
              [("tasks", *(by_hn.get(k, 0) for k in range(4)))],
              align=("", "r", "r", "r", "r"))])


def site_paper(name: str) -> str:
    site = get_site(name)
    paper = PAPER.get(name)
    here = (len(site.surfaces), len(site.actions), len(site.templates),
            len(site.visibility.card_fields), len(site.visibility.detail_fields),
            len(_tasks(name)))
    if paper is None:
        return ""
    labels = ("surfaces", "actions", "templates", "card fields", "detail fields", "tasks")
    rows = [(lab, p, h) for lab, p, h in zip(labels, paper[:6], here, strict=True)]
    rows.append(("decision object", paper[6], paper[6]))
    return ("*The paper's column is WebSTEP's Table 4; ours is generated from the code.*\n\n"
            + table(["", "paper", "here"], rows, align=("", "r", "r")))


def site_tables(name: str) -> str:
    """A whole site page's generated part (a site without hand-written prose)."""
    return "\n\n".join([
        "## Surfaces", site_surfaces(name), "## Actions", site_actions(name),
        "## Fields", site_fields(name), "## Templates", site_templates(name),
        "## Tasks", site_tasks(name), "## Against the paper (Table 4)", site_paper(name)])


def sites_table() -> str:
    """The ten built-in sites in one table, with a total row."""
    rows: list[tuple[object, ...]] = []
    totals = Counter[str]()
    for name in site_names():
        site = get_site(name)
        n = len(_tasks(name))
        counts = {"surfaces": len(site.surfaces), "actions": len(site.actions),
                  "templates": len(site.templates), "card": len(site.visibility.card_fields),
                  "detail": len(site.visibility.detail_fields), "tasks": n}
        totals.update(counts)
        rows.append((f"[{name}]({name}.md)", site.title, site.domain, counts["surfaces"],
                     counts["actions"], counts["templates"],
                     f"{counts['card']} / {counts['detail']}", f"{n:,}"))
    rows.append(("**all ten**", "", "", totals["surfaces"], totals["actions"],
                 totals["templates"], f"{totals['card']} / {totals['detail']}",
                 f"{totals['tasks']:,}"))
    return table(["site", "title", "domain", "surfaces", "actions", "templates",
                  "card / detail fields", "tasks"], rows,
                 align=("", "", "", "r", "r", "r", "r", "r"))


def difficulty_table() -> str:
    """Levels per WebForge dimension over the built-in tasks, and the overall levels."""
    from webmdp.tasks.difficulty import TITLES
    tasks = [t for name in site_names() for t in _tasks(name)]
    n = len(tasks)
    rows = []
    for dim, title in TITLES.items():
        c = Counter(t.difficulty.of(dim) for t in tasks if t.difficulty)
        rows.append((f"{title} (`{dim}`)", *(f"{c.get(lv, 0):,} ({100 * c.get(lv, 0) / n:.1f}%)"
                                  for lv in (1, 2, 3))))
    overall = Counter(_level(t) for t in tasks)
    return "\n\n".join([
        table(["dimension", "L1", "L2", "L3"], rows, align=("", "r", "r", "r")),
        f"Overall, over the {n:,} built-in tasks: "
        + ", ".join(f"level {lv}: {overall.get(lv, 0):,}" for lv in LEVELS) + ".",
    ])


def grid_tables() -> str:
    """The grid suite's Tables 7 and 8 and its task-set hash, from ``docs/data/grid.json``
    (``scripts/grid_stats.py`` writes it; the slow suite checks it against a fresh build)."""
    import json

    from webmdp.tasks.difficulty import TITLES
    from webmdp.tasks.domains import DOMAINS

    data = json.loads((Path(__file__).resolve().parents[1] / "docs" / "data" / "grid.json")
                      .read_text())
    n = data["tasks"]
    dims = table(["dimension", "L1", "L2", "L3"],
                 [(f"{TITLES[d]} (`{d}`)", *(f"{c[f'L{lv}']:,}" for lv in (1, 2, 3)))
                  for d, c in data["dimension"].items()], align=("", "r", "r", "r"))
    domains = table(["domain", "L1", "L2", "L3"],
                    [(f"{d} {DOMAINS[d]}", *(str(c[f"L{lv}"]) for lv in (1, 2, 3)))
                     for d, c in data["table8"]["domains"].items()], align=("", "r", "r", "r"))
    rates = table(["site", "L1", "L2", "L3"],
                  [(site, *(f"{c['count']}/{c['planned']} ({100 * c['rate']:.0f}%)"
                            for c in cells.values()))
                   for site, cells in data["table8"]["sites"].items()],
                  align=("", "r", "r", "r"))
    return "\n\n".join([
        f"{n:,} tasks, task-set hash `{data['task_set_hash']}` (basis {data['hash_basis']}); "
        "by dimension level (WebForge Table 7):", dims,
        "By domain and level (WebForge Table 8, tasks):", domains,
        "Pass rate by site and level (accepted / planned, as `forge` prints it):", rates])


def cli_reference() -> str:
    """The CLI reference, written by Typer's own generator (every command, option, default)."""
    typer = Path(sys.executable).with_name("typer")
    cmd = [str(typer) if typer.exists() else "typer", "webmdp.cli.main", "utils", "docs",
           "--name", "webmdp"]
    text = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    # Typer escapes quotes as HTML entities, which Markdown escapes again inside code spans;
    # quotes need no escaping in Markdown (angle brackets keep theirs).
    text = text.replace("&#x27;", "'").replace("&quot;", '"')
    # Typer writes the page title as `# `webmdp``; the page's own title comes first.
    return text.replace("# `webmdp`", "# CLI reference\n\nGenerated at build time by "
                        "`typer webmdp.cli.main utils docs --name webmdp`: every command, "
                        "option and default, as `--help` prints them.\n\n## `webmdp`", 1)


API_GROUPS: dict[str, tuple[str, tuple[str, ...]]] = {
    "Environments and tasks": (
        "Build an environment for a task, pick tasks, check a state against a task's goal.",
        ("make", "env_ids", "select_tasks", "Task", "Condition", "TaskTemplate", "Draft",
         "verify")),
    "Runs": ("Run agents on tasks and keep every episode's trace.",
             ("run_tasks", "RunConfig", "EpisodeTrace")),
    "Agents": ("Write an agent (one action per observation), or use a built-in one.",
               ("Agent", "AgentOutput", "SemanticView", "PlanningAgent", "make_agent",
                "agent_names", "register_agent", "AGENTS", "GRAMMARS", "GrammarInfo",
                "PROVIDERS", "Provider")),
    "Metrics": ("Score an episode the papers' way, or a whole run.",
                ("episode_metrics", "EpisodeMetrics", "aggregate", "load_run")),
    "Sites": ("Declare a site of your own: its actions, state, world and catalogue.",
              ("Site", "ModularSite", "SiteLogic", "BrowseState", "Catalog", "Facet", "Sort",
               "FindTemplate", "declare_action", "Action", "ActionSpec", "ParamSpec",
               "SurfaceKind", "SkillCategory", "State", "World", "WorldSpec", "Observation",
               "SITES", "get_site", "site_names", "register_site")),
    "Plugins and errors": ("The registries plugins add to, their version, and the errors "
                           "webmdp raises for bad input.",
                           ("Registry", "PluginError", "PLUGIN_API", "WebMDPError",
                            "ConfigError", "__version__")),
}
"""The Python API page's groups, by what a user does; every name of ``webmdp.__all__`` is in
exactly one (``tests/docs`` checks)."""


def api_reference() -> str:
    """The Python API page: ``webmdp.__all__`` by what a user does, each name with its
    signature (a class: its fields and methods), from its defining module's docstrings."""
    import webmdp
    grouped = [n for _, names in API_GROUPS.values() for n in names]
    missing = sorted(set(webmdp.__all__) - set(grouped))
    if missing or len(grouped) != len(set(grouped)):
        raise ValueError(f"docs_gen.API_GROUPS: every webmdp.__all__ name once; missing "
                         f"{missing}")
    lines = ["# Python API", "",
             "What `webmdp.__all__` names is the public API: what a script or a plugin may "
             "import and rely on (`webmdp.PLUGIN_API` is its version). Generated from the "
             "docstrings at build time; `from webmdp import NAME` reaches each.", ""]
    lines += [f"- [{title}](#{_anchor(title)}): {sentence}"
              for title, (sentence, _) in API_GROUPS.items()]
    lines.append("")
    for title, (sentence, names) in API_GROUPS.items():
        lines += [f"## {title}", "", sentence, ""]
        for name in names:
            lines += _api_entry(webmdp, name)
    return "\n".join(lines)


def _anchor(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def _api_entry(webmdp: ModuleType, name: str) -> list[str]:
    obj = getattr(webmdp, name)
    module = getattr(obj, "__module__", None)
    if module is None or not hasattr(obj, "__qualname__"):
        kind = type(obj)
        shown = (f"`webmdp.{name} = {obj!r}`" if isinstance(obj, str | int | float)
                 else f"`webmdp.{name}`: a `{kind.__module__}.{kind.__qualname__}`"
                 + (f" of {obj.kind}s" if isinstance(getattr(obj, "kind", None), str)
                    else ""))
        return [f"### `{name}`", "", shown, ""]
    return _documented(f"{module}.{obj.__qualname__}")


def _documented(path: str) -> list[str]:
    """A mkdocstrings block for ``path``: its heading with its signature (a class: its
    constructor's, merged), and every public member, documented or not, typed."""
    return [f"::: {path}", "    options:", "      show_root_heading: true",
            "      show_root_full_path: false", "      heading_level: 3",
            "      separate_signature: true", "      merge_init_into_class: true",
            "      show_signature_annotations: true", "      show_if_no_docstring: true",
            "      filters: [\"!^_\", \"!^model_config$\"]", ""]


TOOLKIT: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("The site", "A site is a `ModularSite`: a state class, a start surface, its actions, and "
     "three pure functions (world, transition, observe) with its facts.",
     ("webmdp.sites._common.site.ModularSite", "webmdp.sites._common.site.SiteLogic",
      "webmdp.core.spec.declare_action", "webmdp.core.spec.ParamSpec")),
    ("Listings", "A listing is a declared `Catalog`: search, facets, sorts and paging, with "
     "their actions and transitions, mixed into the state by `BrowseState`.",
     ("webmdp.sites._common.catalog.Catalog", "webmdp.sites._common.catalog.Facet",
      "webmdp.sites._common.catalog.Sort", "webmdp.sites._common.catalog.BrowseState")),
    ("Task templates", "A template pins a target and its hard negatives in one group; its "
     "settings below are tables the default methods read (`fits` from `wants` and `fixed`, "
     "the oracle's prefix from `by`, `narrow` and `order`, its inspection from `opener`, the "
     "commit from `commit_after` / `commit_with`, the verifier from `marked` and `stored`).",
     ("webmdp.sites._common.templates.PinnedTemplate", "webmdp.sites._common.tasklib.FindTemplate",
      "webmdp.sites._common.templates.Step", "webmdp.sites._common.tasklib.pin_split",
      "webmdp.sites._common.tasklib.filler", "webmdp.sites._common.tasklib.distinct",
      "webmdp.sites._common.tasklib.shown")),
    ("Views", "A site's pages are Jinja templates in its package's `views/` folder, rendered "
     "with autoescaping; these functions are their globals, beside the macros below.",
     ("webmdp.sites._common.views.act", "webmdp.sites._common.views.drag",
      "webmdp.sites._common.views.testid", "webmdp.sites._common.views.money",
      "webmdp.sites._common.views.slider_scale")),
)
"""The toolkit reference's sections: (title, one sentence, the objects documented)."""


def toolkit_reference() -> str:
    """The site toolkit's reference: how a site package is laid out and found, then each part
    from its docstrings, the facet kinds from :data:`FACET_KINDS` and the widget macros from
    ``views/kit.html`` itself."""
    from webmdp.sites._common.catalog import FACET_KINDS

    lines = ["# Site toolkit reference", "",
             "What a site package uses (`from webmdp.sites.toolkit import ...`; "
             "[Extend webmdp](../extending.md) walks through an example). Generated from the "
             "toolkit's docstrings at build time.", "",
             "## A site package", "",
             "- `site.py`: the `ModularSite` subclass, registered by the package's entry point "
             "(group `webmdp.sites`) or by `webmdp.register_site`.",
             "- `templates.py` beside it: `TEMPLATES`, a mapping of name to task template, read "
             "on first use from the site class's own package (`ModularSite.templates`); an "
             "optional `dial.py` holds `DIAL_TEMPLATES`, the difficulty dial's.",
             "- `views/` and `static/`: the pages and their files, found through the package "
             "(`importlib.resources`), so they must be package data of the distribution "
             "(a browser run refuses a site without them, in one line).", ""]
    for title, sentence, paths in TOOLKIT:
        lines += [f"## {title}", "", sentence, ""]
        if title == "Listings":
            lines += ["Facet kinds (`Facet.kind`):", "", "| kind | what it is |", "|---|---|",
                      *(f"| `{k}` | {v} |" for k, v in FACET_KINDS.items()), ""]
        for path in paths:
            lines += _documented(path)
        if title == "Views":
            lines += _kit_macros()
    return "\n".join(lines)


def _kit_macros() -> list[str]:
    """The widget macros of ``views/kit.html``: name, parameters and their comment."""
    from webmdp.sites._common import views

    kit = (Path(views.__file__).parent / "views" / "kit.html").read_text()
    rows = []
    macro = r"(?:\{#-(?P<doc>(?:(?!-#\}).)*)-#\}\s*)?\{% macro (?P<name>\w+)\((?P<args>[^)]*)\)"
    for m in re.finditer(macro, kit, re.S):
        doc = " ".join((m["doc"] or "").split()).replace("|", "\\|")
        doc = "" if "{% import" in doc else doc  # the file's own header
        args = " ".join(m["args"].split()).replace("|", "\\|")
        rows.append(f"| `{m['name']}` | `{args}` | {doc} |")
    return ["### Widget macros (`views/kit.html`)", "",
            "`{% import \"kit.html\" as kit %}`, then `{{ kit.search_box(ctx, avail) }}`; "
            "each binds only the actions `avail` (the available actions' names) offers.", "",
            "| macro | parameters | what it draws |", "|---|---|---|", *rows, ""]


PARTS: dict[str, Callable[..., str]] = {
    "site": site_tables, "site-surfaces": site_surfaces, "site-actions": site_actions,
    "site-fields": site_fields, "site-templates": site_templates, "site-tasks": site_tasks,
    "site-paper": site_paper, "sites": sites_table, "difficulty": difficulty_table,
    "grid": grid_tables,
    "cli": cli_reference, "api": api_reference,
}


def expand(markdown: str) -> str:
    """Replace every ``<!-- webmdp:PART [ARG] -->`` line with the part it names."""
    def one(m: re.Match[str]) -> str:
        part = PARTS.get(m["part"])
        if part is None:
            raise ValueError(f"unknown generated part {m['part']!r}; known: {sorted(PARTS)}")
        return part(m["arg"]) if m["arg"] else part()
    return MARKER.sub(one, markdown)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in PARTS:
        print(__doc__)
        return 2
    try:
        print(PARTS[argv[0]](*argv[1:]))
    except (WebMDPError, TypeError) as exc:  # an unknown site; a missing or extra argument
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
