"""The default install stays light: OpenEnv, TRL and torch are extras. The TRL classes, the
dataset and the splits import none of them, and `webmdp rl serve` without OpenEnv says how
to get it in one line."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("openenv", "trl", "torch", "transformers", "datasets")


def _name(requirement: str) -> str:
    return requirement.split(";")[0].split("[")[0].split(">")[0].split("=")[0].split("<")[0] \
        .strip().lower()


def test_the_default_dependencies_hold_no_trainer() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert not {_name(r) for r in project["dependencies"]} & set(HEAVY)
    extras = project["optional-dependencies"]
    assert "openenv" in {_name(r) for r in extras["openenv"]}
    assert {"trl", "transformers", "torch"} <= {_name(r) for r in extras["trl"]}


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)


def test_the_trl_classes_and_the_dataset_import_no_extra() -> None:
    res = _python(
        "import sys\n"
        "from webmdp.rl.trl import environment\n"
        "from webmdp.rl.dataset import rows\n"
        "environment('shopping'); environment('shopping', 'browser')\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n")
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "[]"


def test_serve_without_openenv_says_how_to_get_it() -> None:
    res = _python(
        "import sys\n"
        "sys.modules['openenv'] = None  # as if it were not installed\n"
        "from webmdp.cli.main import app\n"
        "sys.argv = ['webmdp', 'rl', 'serve']\n"
        "app()\n")
    assert res.returncode == 2
    assert "pip install 'webmdp[openenv]'" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def test_the_grpo_example_without_trl_says_how_to_get_it() -> None:
    example = ROOT / "examples" / "trl_grpo.py"
    res = _python(
        "import runpy, sys\n"
        "sys.modules['trl'] = None  # as if it were not installed\n"
        "sys.argv = ['trl_grpo.py', '--site', 'shopping']\n"
        f"runpy.run_path({str(example)!r}, run_name='__main__')\n")
    assert res.returncode == 1
    assert res.stderr.strip().startswith("this example needs TRL: pip install 'webmdp[trl]'")
    assert len(res.stderr.strip().splitlines()) == 1
