"""The one registry (webmdp.plugins): entry points read from real distribution metadata on
sys.path, name rules, clashes naming both packages, the plugin API check, names registered at
run time reaching child processes, and the task cache key covering plugin code."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from webmdp.core.registry import SITES, site_names
from webmdp.errors import ConfigError
from webmdp.plugins import ENV, PLUGIN_API, PluginError, Registry

WEBMDP = str(Path(sys.executable).parent / "webmdp")


def fake_dist(root: Path, name: str, entry_points: dict[str, dict[str, str]],
              modules: dict[str, str]) -> Path:
    """An installed-looking distribution under ``root``: its ``.dist-info`` (METADATA and
    entry_points.txt, what pip writes) and its modules. ``root`` goes on sys.path."""
    info = root / f"{name.replace('-', '_')}-0.3.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.3.1\n")
    (info / "entry_points.txt").write_text("".join(
        f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in eps.items()) + "\n"
        for group, eps in entry_points.items()))
    for path, text in modules.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(textwrap.dedent(text))
    return root


def test_entry_points_add_to_the_builtins(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    fake_dist(tmp_path, "webmdp-widgets", {"webmdp.things": {"gadget": "widgets:Gadget"}},
              {"widgets.py": f"WEBMDP_PLUGIN_API = {PLUGIN_API}\nclass Gadget: pass\n"})
    monkeypatch.syspath_prepend(str(tmp_path))
    reg: Registry[type] = Registry("thing", "webmdp.things", {"builtin_one": "json:dumps"})
    assert reg.names() == ["builtin_one", "gadget"]
    entry = reg.entry("gadget")
    assert (entry.package, entry.version, entry.builtin) == ("webmdp-widgets", "0.3.1", False)
    assert reg.load("gadget").__name__ == "Gadget" and reg["builtin_one"] is json.dumps
    with pytest.raises(ConfigError, match=r"unknown thing 'nope'.*builtin_one, gadget"):
        reg.load("nope")


@pytest.mark.parametrize(("name", "why"), [
    ("Lib-Site", r"must match \[a-z_\]\+"), ("all", "reserved"), ("cross_over", "reserved"),
    ("webmdp_x", "reserved"), ("mail", "clashes with site 'mail' from package webmdp"),
])
def test_a_plugin_with_a_bad_name_is_left_out_with_one_warning(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        name: str, why: str) -> None:
    """As a plugin written for another plugin API disables only itself, a bad or clashing
    name leaves that plugin out, with one line naming its package (and the other's), and
    every other name, the built-in it clashes with included, keeps working."""
    fake_dist(tmp_path, "webmdp-bad",
              {"webmdp.t_sites": {name: "bad:Site", "fine": "finemod:Fine"}},
              {"finemod.py": f"WEBMDP_PLUGIN_API = {PLUGIN_API}\nclass Fine: pass\n"})
    monkeypatch.syspath_prepend(str(tmp_path))
    reg: Registry[type] = Registry("site", "webmdp.t_sites", {"mail": "json:loads"},
                                   pattern=r"[a-z_]+")
    assert reg.names() == sorted({"mail", "fine"})
    assert reg.load("mail") is json.loads and reg.load("fine").__name__ == "Fine"
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("warning: ") and "webmdp-bad" in err[0]
    assert re.search(why, err[0]) and err[0].endswith("it is left out")
    reg.names()
    assert capsys.readouterr().err == ""  # once per process


def test_two_plugins_with_one_name_are_both_left_out_and_the_name_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    fake_dist(tmp_path / "a", "pkg-one", {"webmdp.t_agents": {"scout": "one:Scout"}}, {})
    fake_dist(tmp_path / "b", "pkg-two", {"webmdp.t_agents": {"scout": "two:Scout",
                                                              "ranger": "two:Ranger"}}, {})
    monkeypatch.syspath_prepend(str(tmp_path / "a"))
    monkeypatch.syspath_prepend(str(tmp_path / "b"))
    reg: Registry[type] = Registry("agent", "webmdp.t_agents", {})
    assert reg.names() == ["ranger"]
    with pytest.raises(PluginError) as err:
        reg.load("scout")
    assert "pkg-one" in str(err.value) and "pkg-two" in str(err.value)
    assert "\n" not in str(err.value)
    warned = capsys.readouterr().err
    assert warned.count("\n") == 1 and "pkg-one" in warned and "pkg-two" in warned


@pytest.mark.parametrize(("declared", "said"), [
    ("WEBMDP_PLUGIN_API = 99", "was written for webmdp plugin API 99"),
    ("", "declares no WEBMDP_PLUGIN_API"),
])
def test_a_plugin_api_mismatch_is_one_line_at_load(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   declared: str, said: str) -> None:
    package = f"oldpkg{len(declared)}"  # a module name of its own for each case
    fake_dist(tmp_path, "webmdp-old", {"webmdp.things": {"old": f"{package}.mod:Thing"}},
              {f"{package}/__init__.py": "",
               f"{package}/mod.py": f"{declared}\nclass Thing: pass\n"})
    monkeypatch.syspath_prepend(str(tmp_path))
    reg: Registry[type] = Registry("thing", "webmdp.things", {})
    assert reg.names() == ["old"]  # listing does not import it
    with pytest.raises(PluginError) as err:
        reg.load("old")
    message = str(err.value)
    assert said in message and f"speaks plugin API {PLUGIN_API}" in message
    assert "webmdp-old 0.3.1" in message and "\n" not in message


def test_names_registered_at_run_time_reach_child_processes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, "")  # recorded, so the names registered here go with the test
    reg: Registry[object] = Registry("thing", "webmdp.things", {})
    reg.register("gizmo", "json:loads")
    assert reg.load("gizmo") is json.loads
    env = json.loads(os.environ[ENV])
    assert env == {"webmdp.things": {"gizmo": "json:loads"}}
    code = ("from webmdp.plugins import Registry; "
            "print(Registry('thing', 'webmdp.things', {}).names())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=dict(os.environ))
    assert out.stdout.strip() == "['gizmo']"
    modes: Registry[object] = Registry("mode", None, {})  # no entry-point group: by its kind
    modes.register("flat", "json:dumps")
    assert Registry("mode", None, {}).names() == ["flat"]


def test_site_names_is_the_benchmark_and_plugins_are_named(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    ten = site_names()
    assert len(ten) == 10 and all(SITES.entry(n).builtin for n in ten)
    assert set(ten) <= set(site_names(plugins=True))


def test_the_task_cache_key_covers_plugin_code(tmp_path: Path) -> None:
    fake_dist(tmp_path, "webmdp-keyed", {"webmdp.sites": {"keyed": "keyedpkg.site:KeyedSite"}},
              {"keyedpkg/__init__.py": "", "keyedpkg/site.py": "X = 1\n"})
    code = "from webmdp.tasks.cache import code_key; print(code_key())"
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}

    def key(environ: dict[str, str]) -> str:
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              check=True, env=environ).stdout.strip()

    without = key(dict(os.environ))
    first = key(env)
    (tmp_path / "keyedpkg" / "site.py").write_text("X = 2\n")  # the plugin's site is edited
    second = key(env)
    assert len({without, first, second}) == 3


def test_a_grammar_package_is_listed_and_exported_through_its_entry_point(tmp_path: Path
                                                                          ) -> None:
    fake_dist(tmp_path, "webmdp-terse", {"webmdp.grammars": {"terse": "terse:INFO"}},
              {"terse.py": f"""
                  WEBMDP_PLUGIN_API = {PLUGIN_API}
                  from webmdp import GrammarInfo
                  from webmdp.agents.llm.grammars.json_grammar import GRAMMAR, actions_doc, write

                  INFO = GrammarInfo("terse", __name__, family="a terse JSON family",
                                     channel="chat", image_policy="none", history_images=0,
                                     screenshot=False, axtree=True)
                  """})
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "COLUMNS": "200"}
    listed = subprocess.run([WEBMDP, "agents"], capture_output=True, text=True, env=env,
                            check=True).stdout
    assert "terse" in listed and "a terse JSON family" in listed
    code = ("from webmdp.synth.export import supported_grammars, Writer; "
            "print(supported_grammars()); "
            "print(Writer('terse').write('I look.', {'name': 'Search', "
            "'params': {'query': 'x'}}, 'semantic'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True).stdout.splitlines()
    assert out[0] == "['uitars', 'qwen', 'json', 'terse']"
    assert json.loads(out[1]) == {"thought": "I look.",
                                  "action": {"name": "Search", "params": {"query": "x"}}}


def test_a_plugin_that_cannot_load_is_left_out_of_listings_with_a_warning(tmp_path: Path
                                                                          ) -> None:
    """Its metadata installed, its module gone: environment ids, Gymnasium and `sites list`
    go on without it and say why; naming it is still an error."""
    fake_dist(tmp_path, "webmdp-broken", {"webmdp.sites": {"broken": "nowhere.site:Site"}}, {})
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    code = ("import webmdp, webmdp.gym\n"
            "print(any(i.startswith('broken') for i in webmdp.env_ids()))\n"
            "try:\n    webmdp.make('broken-v1')\nexcept webmdp.ConfigError as e:\n"
            "    print('refused:', e)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, check=True)
    out = done.stdout.splitlines()
    assert out[0] == "False" and out[1].startswith("refused: site 'broken' from package "
                                                   "webmdp-broken: cannot load nowhere.site")
    assert "RuntimeWarning" in done.stderr and "(left out)" in done.stderr
    rows = json.loads(subprocess.run([WEBMDP, "sites", "list", "--json"], capture_output=True,
                                     text=True, env=env, check=True).stdout)
    (broken,) = [r for r in rows if r["site"] == "broken"]
    assert broken["package"] == "webmdp-broken" and "cannot load" in broken["error"]
