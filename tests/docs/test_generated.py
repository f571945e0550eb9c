"""The documentation's generated parts (scripts/docs_gen.py) say what the code says, and its
pictures are small enough for git and all in use."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from webmdp.sites import get_site
from webmdp.sites.registry import site_names

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import docs_gen  # noqa: E402

MAX_IMAGE_BYTES = 300 * 1024


@pytest.mark.parametrize("name", ["calendar", "mail"])
def test_site_tables_follow_the_declaration(name: str) -> None:
    site = get_site(name)
    actions = docs_gen.site_actions(name)
    assert actions.startswith(f"{len(site.actions)} typed actions")
    rows = [ln for ln in actions.splitlines() if ln.startswith("| `")]
    assert [r.split("`")[1] for r in rows] == [a.name for a in site.actions]
    surfaces = docs_gen.site_surfaces(name)
    assert all(f"`{s.name}`" in surfaces for s in site.surfaces)
    fields = docs_gen.site_fields(name)
    assert f"| card | {len(site.visibility.card_fields)} |" in fields
    templates = docs_gen.site_templates(name)
    assert all(f"`{t}`" in templates for t in site.templates)


def test_sites_table_totals_its_rows() -> None:
    text = docs_gen.sites_table()
    rows = [ln.split("|")[1:-1] for ln in text.splitlines()[2:]]
    body, total = rows[:-1], rows[-1]
    assert [r[0].strip().split("]")[0].lstrip("[") for r in body] == site_names()
    for col in (3, 4, 5):  # surfaces, actions, templates
        assert sum(int(r[col]) for r in body) == int(total[col])
    assert total[-1].strip() == f"{sum(int(r[-1].replace(',', '')) for r in body):,}"


def test_unknown_marker_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown generated part"):
        docs_gen.expand("<!-- webmdp:nonsense -->")
    assert docs_gen.expand("text\n<!-- not a marker -->\n") == "text\n<!-- not a marker -->\n"


def test_images_are_small_and_all_in_use() -> None:
    pages = "\n".join(p.read_text() for p in [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
    used = set(re.findall(r"img/([\w.-]+\.(?:png|webp))", pages))
    images = sorted((ROOT / "docs" / "img").iterdir())
    assert images
    for img in images:
        data = img.read_bytes()
        assert len(data) <= MAX_IMAGE_BYTES, f"{img.name}: {len(data)} bytes"
        assert data[:8] == b"\x89PNG\r\n\x1a\n" or data[8:12] == b"WEBP", img.name
        assert img.name in used, f"{img.name} is in docs/img but no page shows it"
    assert used <= {i.name for i in images}, used - {i.name for i in images}


def test_front_door_stays_short_and_the_changelog_newest_first() -> None:
    assert len((ROOT / "README.md").read_text().splitlines()) <= 200
    assert len((ROOT / "DESIGN.md").read_text().splitlines()) <= 300
    changelog = (ROOT / "CHANGELOG.md").read_text()
    heads = re.findall(r"^### Issues? (\d+)", changelog, re.M)
    numbers = [int(n) for n in heads]
    assert numbers == sorted(numbers, reverse=True) and numbers[-1] == 2, numbers


def test_the_version_moves_with_the_changelog_and_the_package() -> None:
    """One version: pyproject's, ``webmdp.__version__``, ``webmdp --version`` and the newest
    release of the changelog (by release, each release's issues under it)."""
    import subprocess
    import sys
    import tomllib

    import webmdp

    releases = re.findall(r"^## (\d+\.\d+\.\d+)\b", (ROOT / "CHANGELOG.md").read_text(), re.M)
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert releases == sorted(releases, key=lambda v: tuple(map(int, v.split("."))),
                              reverse=True) and len(releases) >= 2, releases
    assert releases[0] == declared == webmdp.__version__
    out = subprocess.run([sys.executable, "-m", "webmdp.cli.main", "--version"],
                         capture_output=True, text=True, check=True)
    assert out.stdout == f"webmdp {declared}\n"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    licence = (ROOT / "LICENSE").read_text()
    assert project["license"] == "Apache-2.0" and project["license-files"] == ["LICENSE"]
    assert licence.startswith("Apache License") and "Version 2.0, January 2004" in licence


def test_the_citation_file_names_the_release_and_the_five_papers() -> None:
    import yaml

    import webmdp

    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert cff["cff-version"] == "1.2.0" and cff["version"] == webmdp.__version__
    titles = [r["title"] for r in cff["references"]]
    assert len(titles) == 5 and all(r["authors"] for r in cff["references"])
    page = (ROOT / "docs" / "citing.md").read_text()
    assert len(re.findall(r"^@\w+\{", page, re.M)) == 6
    assert f"version = {{{webmdp.__version__}}}" in page
    flat = " ".join(re.sub(r"[{}]", "", page).split())
    for title in titles:  # each paper's BibTeX entry carries its whole title
        assert " ".join(title.split()) in flat, title


def test_the_citations_carry_the_identifiers_the_home_page_lists() -> None:
    home = (ROOT / "docs" / "index.md").read_text()
    listed = set(re.findall(r"arxiv\.org/abs/(\d{4}\.\d{5})", home))
    assert len(listed) == 4
    for text in ((ROOT / "CITATION.cff").read_text(), (ROOT / "docs" / "citing.md").read_text()):
        assert listed <= set(re.findall(r"\d{4}\.\d{5}", text))
        assert "05BubhVB4C" in text
