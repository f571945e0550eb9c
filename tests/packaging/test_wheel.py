"""The installable package: the wheel holds the package data, and an installed copy runs.

The wheel is built from a copy of the sources (no ``build/`` or ``*.egg-info`` in the checkout).
The install check needs no network: a venv outside the repository gets the wheel with
``--no-deps``, and its dependencies through a ``.pth`` naming this interpreter's site-packages
(a plain path entry: the editable install's own ``.pth`` there is not processed, so the source
tree stays off ``sys.path``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "webmdp"
_IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}


def _pip(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pip", *args], cwd=cwd, capture_output=True,
                          text=True, env=_clean_env(), timeout=300, check=False)


def _build_isolation_args() -> list[str]:
    """Build with this interpreter's setuptools when it meets pyproject's ``setuptools>=77``
    (offline); otherwise let pip fetch it into an isolated build environment."""
    try:
        major = int(version("setuptools").split(".")[0])
    except Exception:
        return []
    return ["--no-build-isolation"] if major >= 77 else []


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "PYPI.md", "MANIFEST.in", "LICENSE", "NOTICE"):
        if (ROOT / name).is_file():
            shutil.copy2(ROOT / name, src / name)
    shutil.copytree(PACKAGE, src / "src" / "webmdp", ignore=_IGNORE)
    out = tmp / "dist"
    proc = _pip("wheel", ".", "--no-deps", *_build_isolation_args(), "-w", str(out), cwd=src)
    said = proc.stdout + proc.stderr
    if proc.returncode != 0 and "No matching distribution found for setuptools" in said:
        pytest.skip("building needs setuptools>=77: none here and PyPI unreachable")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    (whl,) = out.glob("webmdp-*.whl")
    return whl


def test_wheel_holds_the_package_data(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    sources = {p.relative_to(PACKAGE.parent).as_posix() for p in PACKAGE.rglob("*")
               if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"}
    assert not sources - names, sorted(sources - names)[:20]
    data = {n for n in names if n.endswith((".html", ".css", ".js"))}
    for must in ("webmdp/env/axtree.js", "webmdp/viewer/static/viewer.css",
                 "webmdp/sites/shopping/views/", "webmdp/sites/mail/static/",
                 "webmdp/sites/_common/views/", "webmdp/viewer/templates/"):
        assert any(n.startswith(must) for n in data), must
    dist_info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
    meta = zipfile.ZipFile(wheel).read(f"{dist_info}/METADATA").decode()
    assert "Provides-Extra: gym" in meta and 'gymnasium>=1.0; extra == "gym"' in meta
    # PyPI's page: PYPI.md (the README without links into the repository), as markdown
    assert "Description-Content-Type: text/markdown" in meta
    assert meta.partition("\n\n")[2].strip() == (ROOT / "PYPI.md").read_text().strip()
    entry = zipfile.ZipFile(wheel).read(f"{dist_info}/entry_points.txt").decode()
    assert "webmdp = webmdp.cli.main:app" in entry


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh venv outside the repository with the wheel installed; yields its directory."""
    venv = tmp_path_factory.mktemp("venv") / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   env=_clean_env(), timeout=120)
    py = venv / "bin" / "python"
    purelib = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()"
                              "['purelib'])"], capture_output=True, text=True, check=True)
    Path(purelib.stdout.strip(), "_webmdp_test_deps.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n")
    proc = _pip("--python", str(py), "install", "--no-deps", "--no-index", str(wheel),
                cwd=venv)
    assert proc.returncode == 0, proc.stderr[-4000:]
    yield venv


def test_installed_copy_imports_from_the_new_venv(installed: Path) -> None:
    code = ("import importlib.util, sys, webmdp, webmdp.server.app\n"
            "if importlib.util.find_spec('gymnasium'):\n"
            "    import webmdp.gym  # the extra, where this interpreter has it\n"
            "print(webmdp.__file__)\n"
            f"print({str(ROOT / 'src')!r} in sys.path)\n")
    proc = subprocess.run([str(installed / "bin" / "python"), "-c", code], capture_output=True,
                          text=True, cwd=installed.parent, env=_clean_env(), timeout=120,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    where, src_on_path = proc.stdout.split()
    assert Path(where).is_relative_to(installed) and not Path(where).is_relative_to(ROOT)
    assert src_on_path == "False"


@pytest.mark.browser
def test_installed_webmdp_demo_runs_outside_the_repo(installed: Path,
                                                     tmp_path: Path) -> None:
    proc = subprocess.run([str(installed / "bin" / "webmdp"), "demo", "--sites", "shopping",
                           "--per-site", "2", "--out", str(tmp_path / "demo")],
                          capture_output=True, text=True, cwd=tmp_path, env=_clean_env(),
                          timeout=600, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "oracle (browser)  100.0" in proc.stdout
    assert (tmp_path / "demo" / "report" / "report.html").is_file()
