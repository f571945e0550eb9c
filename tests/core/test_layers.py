"""The package's imports follow one stated layer order (DESIGN.md, "Layers") and form no
circle. Module-level and function-local imports count; ``TYPE_CHECKING`` imports do not.
``from pkg import name`` is an import of ``pkg.name`` when that is a module, else of ``pkg``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = SRC / "webmdp"

LAYERS: list[tuple[str, ...]] = [
    ("errors", "redact", "paths", "plugins", "version"),
    ("trace",),
    ("core",),
    ("tracking",),
    ("tasks",),
    ("sites",),
    ("cap",),
    ("conformance",),
    ("server",),
    ("env",),
    ("agents",),
    ("gym", "testing", "rl"),
    ("runner",),
    ("synth", "forge"),
    ("eval",),
    ("viewer", "integrations"),
    ("cli",),
]
"""Lowest first: a module may import its own layer and the layers below it, never above.
``webmdp/__init__.py`` is the package's facade (``webmdp.make``) and stands above them all."""


def _name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_name(p): p for p in PACKAGE.rglob("*.py")}


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for n in ast.walk(node))
    return skip


def _resolve(target: str) -> str | None:
    while target and target not in MODULES:
        if "." not in target:
            return None
        target = target.rsplit(".", 1)[0]
    return target


def imports(module: str) -> set[str]:
    """The package modules ``module`` imports (see the module docstring)."""
    path = MODULES[module]
    tree = ast.parse(path.read_text())
    skip = _type_checking_nodes(tree)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base
                     for a in node.names]
        else:
            continue
        out.update(r for n in names if n.startswith("webmdp") and (r := _resolve(n)))
    out.discard(module)
    return out


GRAPH = {m: imports(m) for m in MODULES}


def layer(module: str) -> int | None:
    parts = module.split(".")
    if len(parts) == 1:
        return None  # the facade
    for i, names in enumerate(LAYERS):
        if parts[1] in names:
            return i
    raise AssertionError(f"{module} belongs to no layer: add it to LAYERS and DESIGN.md")


def test_every_module_has_a_layer() -> None:
    for m in MODULES:
        layer(m)


@pytest.mark.parametrize("module", sorted(m for m in MODULES if layer(m) is not None))
def test_imports_go_down_the_layers(module: str) -> None:
    here = layer(module)
    assert here is not None
    upward = sorted(t for t in GRAPH[module] if (lt := layer(t)) is None or lt > here)
    assert upward == [], f"{module} (layer {LAYERS[here]}) imports upward: {upward}"


def test_no_import_circles() -> None:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in GRAPH[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                circles.append(sorted(comp))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    assert circles == []


def test_the_checker_sees_a_circle_and_an_upward_import() -> None:
    """The walk itself: a function-local import counts, a TYPE_CHECKING one does not."""
    assert "webmdp.sites.shopping.listing" in GRAPH["webmdp.sites.shopping.mdp"]
    assert "webmdp.tasks.template" not in GRAPH["webmdp.core.site"]  # TYPE_CHECKING only
    local = [m for m, deps in GRAPH.items() if "webmdp.conformance" in deps]
    assert "webmdp.cli.validate_cmd" in local  # imported inside a function
