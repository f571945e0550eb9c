"""Real runs for the viewer tests, made once per session by the real runner.

- ``semantic``: oracle, greedy and random on eight Shopping and four Mail tasks;
- ``model``: the step agent (json grammar) against the scripted model server on two Shopping
  tasks: a premature commit on a hard negative (a failure with a known bifurcation point) and
  a success, with thoughts, tokens and latency;
- ``browser``: the oracle in Chromium on two Shopping tasks, screenshots on;
- ``imported``: the published WebSTEP bundles of gmail_0001 (recorded vs recomputed);
- ``crafted``: a copy of a browser trace with HTML / script payloads in what the agent typed,
  thought and wrote, plus traces whose screenshots point outside the run.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from webmdp.agents.llm import ModelAgentConfig
from webmdp.eval.importers import import_webstep
from webmdp.runner.local import RunConfig, run_tasks
from webmdp.sites import get_site
from webmdp.tasks import Task, make_task
from webmdp.testing import Reply, ScriptedModelServer
from webmdp.trace import EpisodeTrace, StepNotes

BUNDLES = Path(__file__).parents[1] / "data" / "webstep-bundles" / "gmail_0001"
SCRIPT = "<script>window.__xss=1</script>"
IMG = '<img src=x onerror="window.__xss=1">'
PAYLOAD = f"{SCRIPT}{IMG}"
MODEL_AGENT = "step-vllm_scripted-model-json"


@dataclass(frozen=True)
class Runs:
    semantic: Path
    model: Path
    browser: Path
    imported: Path
    crafted: Path
    premature: Task = field(repr=False)
    """The model agent's failing task: it adds the first hard negative it opens to the cart."""

    @property
    def all(self) -> list[Path]:
        return [self.semantic, self.model, self.browser, self.imported, self.crafted]


def semantic_tasks() -> list[Task]:
    shop, mail = get_site("shopping"), get_site("mail")
    templates = ("find_product_extract", "cheapest_filter_sort", "compare_detail_pages",
                 "review_extract")
    out = [make_task(shop, i, t, hn) for i, (t, hn) in enumerate(
        (t, hn) for t in templates for hn in (0, 2))]
    out += [make_task(mail, i, t, hn) for i, (t, hn) in enumerate(
        (("find_email_extract", 0), ("find_email_extract", 2), ("label_by_cc", 1),
         ("forward_attachment", 1)))]
    return out


def _say(thought: str, name: str, **params: object) -> Reply:
    return Reply(text=json.dumps({"thought": thought, "action": {"name": name,
                                                                  "params": params}}),
                 usage=(1200, 40))


def premature_task() -> Task:
    """The model agent's failing task (:attr:`Runs.premature`)."""
    return make_task(get_site("shopping"), 20, "find_product_extract", 2)


def model_run(out: Path) -> Task:
    shop = get_site("shopping")
    bad, good = premature_task(), make_task(shop, 21, "find_product_extract", 0)
    opened = bad.oracle[1].params["product_id"]
    assert opened in bad.hard_negatives
    script = [_say("Search for the product first.", "Search", **bad.oracle[0].params),
              _say("The first result looks right.", "OpenProduct", product_id=opened),
              _say("Add it to the cart.", "AddToCart"), _say("Done.", "Finish")]
    script += [_say(f"Oracle step {i + 1}.", a.name, **a.params)
               for i, a in enumerate(good.oracle)] + [_say("Done.", "Finish")]
    with ScriptedModelServer(script) as srv:
        cfg = ModelAgentConfig(model="vllm/scripted-model", grammar="json",
                               base_url=srv.base_url, api_key="x")
        traces = run_tasks([bad, good], out, RunConfig(agent="step", model=cfg))
    assert [t.success for t in traces] == [False, True]
    return bad


def browser_run(out: Path) -> None:
    shop = get_site("shopping")
    tasks = [make_task(shop, 30, "find_product_extract", 1),
             make_task(shop, 31, "find_product_extract", 0)]
    traces = run_tasks(tasks, out, RunConfig(agent="oracle", mode="browser", screenshots=True,
                                             observation="screenshot"))
    assert all(t.success for t in traces)
    assert all(s.screenshot for t in traces for s in t.steps if s.action["kind"] != "finish")


def crafted_run(browser: Path, out: Path) -> None:
    """Agent ``xss``: the first browser trace with payloads in a typed text, a thought and a
    raw model output; ``escape``: screenshots that point outside the run; ``crashy``: the
    same episode ended by an infrastructure error. No results table: the index reads them."""
    shutil.copy(browser / "tasks.jsonl", out / "tasks.jsonl")
    source = sorted((browser / "episodes" / "oracle" / "browser").glob("*.json"))[0]
    trace = EpisodeTrace.model_validate_json(source.read_text())
    typed = next(s for s in trace.steps if s.action["kind"] == "type")
    typed.action["text"] = f"t-shirts {PAYLOAD}"
    typed.raw_output = f"Action: type('{PAYLOAD}')"
    typed.notes = StepNotes(thought=f"I will type {PAYLOAD} now")
    for agent, shots in (("xss", None), ("escape", "../../../../../../../../etc/hostname")):
        folder = out / "episodes" / agent / "browser"
        folder.mkdir(parents=True)
        copy = trace.model_copy(deep=True, update={"agent": agent})
        if shots is None:
            shutil.copytree(source.parent / "shots", folder / "shots")
        else:
            (folder / "shots").mkdir()
            (folder / "shots" / "link.png").symlink_to("/etc/hostname")
            copy.steps[0].screenshot = shots
            copy.steps[1].screenshot = "shots/link.png"
        (folder / source.name).write_text(copy.model_dump_json(indent=1))
    crashed = trace.model_copy(update={"agent": "crashy", "steps": trace.steps[:2],
                                       "success": False, "termination": "infra_error",
                                       "infra_error": "BrowserError: Chromium crashed"})
    folder = out / "episodes" / "crashy" / "browser"
    folder.mkdir(parents=True)
    (folder / source.name).write_text(crashed.model_dump_json(indent=1))


def run_paths(root: Path) -> dict[str, Path]:
    return {k: root / k for k in ("semantic", "model", "browser", "imported", "crafted")}


def build(root: Path) -> Runs:
    paths = run_paths(root)
    for p in paths.values():
        p.mkdir(parents=True)
    tasks = semantic_tasks()
    for agent in ("oracle", "greedy", "random"):
        run_tasks(tasks, paths["semantic"], RunConfig(agent=agent, step_budget=12))
    premature = model_run(paths["model"])
    browser_run(paths["browser"])
    summary = import_webstep([BUNDLES], paths["imported"])
    assert len(summary.imported) == 6
    crafted_run(paths["browser"], paths["crafted"])
    return Runs(**paths, premature=premature)
