"""Rubric trees (CAP §4.3-4.4) as data: binary leaves of kind ``action``, ``perception`` or
``other``, critical or not, aggregated gate-then-average (eq. 2).

CAP's leaves are judged by a model. Ours carry an exact check, evaluated from an episode's
semantic trace, final facts and final answer (:func:`evaluate`), so every leaf has a verdict
nobody has to trust; a model judge is measured against it (``webmdp rubric judge``). A user may
write a tree for their own task as JSON (:func:`load_tree`): checks are data, never code, and a
malformed tree is refused with the path of the bad node.

Eq. 2, for a node v with critical children K(v) and non-critical children N(v):
``s(v) = 0`` if some critical child scores below 1; else the mean over N(v); else (no
non-critical child) 1.

An unjudged leaf (a judge that gave no verdict) is never credit: a node whose children are
all unjudged is unjudged, up to the root; an unjudged critical child gates its parent to 0
when a sibling is judged; and a node whose critical children hold but whose non-critical
children are all unjudged is unjudged (its average has nothing to average).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from webmdp.errors import ConfigError
from webmdp.tasks.conditions import Condition

LEAF_KINDS = ("action", "perception", "other")


class TransitionCheck(BaseModel):
    """The agent took, on ``site``, one of ``actions`` (member action names) without error:
    a covered execution point (the widgets bound to those actions)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    type: Literal["transition"] = "transition"
    site: str | None = None
    actions: list[str]


class RevealedCheck(BaseModel):
    """``field`` of ``entity`` was on screen at some point (on ``site``): a perception point."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    type: Literal["revealed"] = "revealed"
    site: str | None = None
    entity: str
    field: str


class FactCheck(BaseModel):
    """A verifier condition on the episode's final facts."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    type: Literal["fact"] = "fact"
    condition: Condition


class AnswerCheck(BaseModel):
    """The final answer states ``value`` (after normalisation, :func:`matches`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    type: Literal["answer"] = "answer"
    value: str


Check = Annotated[TransitionCheck | RevealedCheck | FactCheck | AnswerCheck,
                  Field(discriminator="type")]


class RubricNode(BaseModel):
    """A node of a rubric tree: a leaf has ``kind`` and ``check``; an internal node has
    ``children``. ``critical``: a prerequisite of its parent (its failure zeroes the parent)."""

    model_config = ConfigDict(extra="forbid")

    id: str
    description: str = ""
    critical: bool = False
    kind: Literal["action", "perception", "other"] | None = None
    check: Check | None = None
    type_id: str | None = None
    """The CAP action or perception type of the point the leaf covers (AT.., PT..)."""
    site: str | None = None
    children: list[RubricNode] = Field(default_factory=list)

    @property
    def is_leaf(self) -> bool:
        return not self.children

    def leaves(self) -> list[RubricNode]:
        if self.is_leaf:
            return [self]
        return [leaf for c in self.children for leaf in c.leaves()]


# -- validation ---------------------------------------------------------------------------------
def check_tree(node: RubricNode, path: str = "root") -> None:
    """Structural rules pydantic cannot state, CAP App. F's among them (a critical parent's
    children are all critical); raises :class:`ConfigError` naming the node."""
    seen: set[str] = set()

    def walk(n: RubricNode, where: str) -> None:
        if n.id in seen:
            raise ConfigError(f"rubric tree: {where}: duplicate node id {n.id!r}")
        seen.add(n.id)
        if n.children:
            if n.kind is not None or n.check is not None:
                raise ConfigError(f"rubric tree: {where} ({n.id}): an internal node has "
                                  "children, so it takes no 'kind' or 'check'")
            if n.critical and not all(c.critical for c in n.children):
                i = next(i for i, c in enumerate(n.children) if not c.critical)
                raise ConfigError(
                    f"rubric tree: {where}.children[{i}] ({n.children[i].id}): a critical "
                    f"parent's children are all critical (CAP App. F); make {n.id!r} "
                    "non-critical, or this child critical")
            for i, c in enumerate(n.children):
                walk(c, f"{where}.children[{i}]")
        else:
            if n.kind is None:
                raise ConfigError(f"rubric tree: {where} ({n.id}): a leaf needs a 'kind', one "
                                  f"of {', '.join(LEAF_KINDS)}")
            if n.check is None:
                raise ConfigError(f"rubric tree: {where} ({n.id}): a leaf needs a 'check'")

    walk(node, path)


def parse_tree(data: Any, source: str = "rubric") -> RubricNode:
    """A tree from parsed JSON, refused with the path of the bad node."""
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: a rubric tree is a JSON object (its root node), "
                          f"not {type(data).__name__}")
    try:
        tree = RubricNode.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise ConfigError(f"{source}: {_path(err['loc'])}: {err['msg']}") from None
    check_tree(tree)
    return tree


def load_tree(path: str | Path) -> RubricNode:
    """A rubric tree file, refused in one line when it is missing, not UTF-8, not JSON or
    nested deeper than the parsers go (a crafted file must not end in a RecursionError)."""
    p = Path(path)
    try:
        data = json.loads(p.read_bytes().decode("utf-8"))
    except (FileNotFoundError, IsADirectoryError):
        raise ConfigError(f"{p}: no such rubric file") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{p}: not UTF-8 text (byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{p}: invalid JSON ({exc.msg}, line {exc.lineno})") from None
    except RecursionError:
        raise ConfigError(f"{p}: the JSON is nested too deeply to be a rubric tree") from None
    try:
        return parse_tree(data, str(p))
    except RecursionError:
        raise ConfigError(f"{p}: the tree is nested too deeply") from None


def tree_schema() -> dict[str, Any]:
    """The JSON schema of a rubric tree file."""
    return TypeAdapter(RubricNode).json_schema()


def _path(loc: tuple[Any, ...]) -> str:
    out = "root"
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in ("transition", "revealed", "fact", "answer"):
            continue  # the discriminated union's tag, not a field
        else:
            out += f".{part}"
    return out


# -- scoring ------------------------------------------------------------------------------------
def aggregate(node: RubricNode, leaf_scores: dict[str, int | None],
              out: dict[str, float] | None = None) -> float:
    """Eq. 2 over the tree; NaN for an unjudged node (an unjudged leaf is None in
    ``leaf_scores``). A node whose children are all unjudged is unjudged; an unjudged critical
    child gates like a failed one once a sibling is judged (nothing vouches for the
    prerequisite); the average is over the judged non-critical children, and a node with
    non-critical children none of which is judged is unjudged, never 1."""
    out = {} if out is None else out
    if node.is_leaf:
        score = leaf_scores.get(node.id)
        value = float(score) if score is not None else UNJUDGED
        out[node.id] = value
        return value
    scores = [(c, aggregate(c, leaf_scores, out)) for c in node.children]
    judged = [s for _, s in scores if not is_unjudged(s)]
    critical = [s for c, s in scores if c.critical]
    optional = [s for c, s in scores if not c.critical]
    rest = [s for s in optional if not is_unjudged(s)]
    if not judged:
        value = UNJUDGED
    elif any(s != 1.0 for s in critical):  # NaN (unjudged) gates too: a sibling is judged
        value = 0.0
    elif rest:
        value = sum(rest) / len(rest)
    elif optional:
        value = UNJUDGED
    else:
        value = 1.0
    out[node.id] = value
    return value


UNJUDGED = float("nan")
"""The score of an unjudged node (JSON: null)."""


def is_unjudged(score: float | None) -> bool:
    """Whether a node's score is unjudged: NaN in memory, None once serialised."""
    return score is None or score != score
