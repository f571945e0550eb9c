"""The description PyPI shows (``PYPI.md``, pyproject's ``readme``) is the README with no link
or image into the repository, which PyPI cannot resolve (issue 46)."""

from __future__ import annotations

import importlib.util
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SPEC = importlib.util.spec_from_file_location("pypi_readme", ROOT / "scripts" / "pypi_readme.py")
assert SPEC is not None and SPEC.loader is not None
pypi_readme = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(pypi_readme)


def _targets(text: str) -> list[str]:
    return [m.group(3) for m in pypi_readme.LINK.finditer(text)]


def test_pyproject_describes_the_package_with_pypi_md() -> None:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert meta["readme"] == {"file": "PYPI.md", "content-type": "text/markdown"}


def test_pypi_md_is_the_readme_built_for_pypi_and_up_to_date() -> None:
    readme = (ROOT / "README.md").read_text()
    assert (ROOT / "PYPI.md").read_text() == pypi_readme.pypi_description(readme), (
        "PYPI.md is out of date: run `python scripts/pypi_readme.py`")


def test_no_link_or_image_points_into_the_repository() -> None:
    readme, pypi = (ROOT / "README.md").read_text(), (ROOT / "PYPI.md").read_text()
    relative = [t for t in _targets(readme) if not pypi_readme.KEEP.match(t)]
    assert len(relative) >= 10, relative  # the README links its docs: the check is not vacuous
    assert all(pypi_readme.KEEP.match(t) for t in _targets(pypi)), _targets(pypi)
    assert "docs/img/" not in pypi and "](docs/" not in pypi
    # every absolute link is kept, and a relative link keeps its text
    absolute = [t for t in _targets(readme) if pypi_readme.KEEP.match(t)]
    assert absolute and _targets(pypi) == absolute
    assert "See Evaluate your agent." in " ".join(pypi.split())


def test_the_rules_on_a_made_up_readme() -> None:
    made = ("# t\n\n![pic](img/a.png)\n\nSee [the guide](docs/g.md#x), [site](https://e.org)"
            " and [below](#usage).\n")
    out = pypi_readme.pypi_description(made)
    assert out == "# t\n\nSee the guide, [site](https://e.org) and [below](#usage).\n"
    assert not re.search(r"\]\((?!https://|#)", out)
