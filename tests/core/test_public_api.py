"""The public API is named once (``webmdp.__all__``), every name in it imports, and importing
``webmdp`` stays light."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import webmdp

PACKAGE = Path(webmdp.__file__).parent


def test_every_public_name_imports() -> None:
    assert len(webmdp.__all__) == len(set(webmdp.__all__))
    for name in webmdp.__all__:
        assert getattr(webmdp, name) is not None, name
    ns: dict[str, object] = {}
    exec("from webmdp import *", ns)  # what a user's star import gets
    assert set(webmdp.__all__) <= set(ns)
    assert webmdp.PLUGIN_API >= 1


def test_the_stable_names_are_the_ones_users_reach_for() -> None:
    for name in ("make", "Task", "run_tasks", "ModularSite", "FindTemplate", "Catalog",
                 "declare_action", "SITES", "AGENTS", "GRAMMARS", "PROVIDERS", "Registry",
                 "register_site", "register_agent", "Agent", "episode_metrics", "aggregate",
                 "PLUGIN_API"):
        assert name in webmdp.__all__, name


def test_every_package_declares_its_all() -> None:
    missing = [str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("__init__.py")
               if "__all__" not in p.read_text()]
    assert missing == []
    for path in PACKAGE.rglob("__init__.py"):
        name = ".".join(("webmdp", *path.parent.relative_to(PACKAGE).parts))
        module = importlib.import_module(name)
        for public in module.__all__:
            assert hasattr(module, public), f"{name}.{public}"


def test_importing_webmdp_is_light() -> None:
    code = ("import sys, webmdp; webmdp.make; "
            "print(sorted(m for m in ('fastapi', 'pandas', 'playwright', 'torch', 'inspect_ai', "
            "'openenv', 'ray') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
