"""Rubric trees as data (CAP §4.3-4.4): eq. 2 aggregation, exact leaf verdicts, the file
format and its errors."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from webmdp.errors import ConfigError
from webmdp.tasks.rubric import (
    RubricNode,
    aggregate,
    check_tree,
    is_unjudged,
    load_tree,
    parse_tree,
    tree_schema,
)
from webmdp.tasks.rubric_eval import evaluate
from webmdp.trace import SemanticTransition


def _leaf(i: str, critical: bool = False, kind: str = "other") -> dict:
    return {"id": i, "kind": kind, "critical": critical,
            "check": {"type": "answer", "value": "42"}}


def _tree(*children: dict) -> RubricNode:
    return parse_tree({"id": "root", "children": list(children)})


@pytest.mark.parametrize(("scores", "expected"), [
    ({"k": 1, "a": 1, "b": 0}, 0.5),  # critical met: the mean of the non-critical
    ({"k": 0, "a": 1, "b": 1}, 0.0),  # a critical child below 1 zeroes the parent
    ({"k": 1, "a": 0, "b": 0}, 0.0),
    ({"k": 1, "a": None, "b": 1}, 1.0),  # an unjudged leaf leaves the average
    ({"k": None, "a": 1, "b": 1}, 0.0),  # nothing vouches for an unjudged prerequisite
])
def test_eq2_gate_then_average(scores: dict, expected: float) -> None:
    tree = _tree(_leaf("k", critical=True), _leaf("a"), _leaf("b"))
    assert aggregate(tree, scores) == expected


def test_eq2_no_non_critical_children_is_one_when_all_critical_hold() -> None:
    tree = _tree(_leaf("k1", critical=True), _leaf("k2", critical=True))
    assert aggregate(tree, {"k1": 1, "k2": 1}) == 1.0
    assert aggregate(tree, {"k1": 1, "k2": 0}) == 0.0


@pytest.mark.parametrize("scores", [
    {"k": None, "a": None, "b": None},  # nothing judged: unjudged, critical child or not
    {"k": 1, "a": None, "b": None},  # the average has nothing to average: not 1.0
])
def test_a_node_with_nothing_to_go_on_is_unjudged(scores: dict) -> None:
    tree = _tree(_leaf("k", critical=True), _leaf("a"), _leaf("b"))
    assert math.isnan(aggregate(tree, scores))


def test_non_critical_children_all_unjudged_is_not_full_credit() -> None:
    tree = _tree(_leaf("a"), _leaf("b"))
    out: dict[str, float] = {}
    assert math.isnan(aggregate(tree, {"a": None, "b": None}, out))
    assert is_unjudged(out["root"]) and is_unjudged(out["a"])
    assert aggregate(tree, {"a": None, "b": 0}) == 0.0


def test_an_unjudged_subtree_propagates_to_the_root() -> None:
    """A step whose points a judge failed on gives no credit: all unjudged below a node makes
    it unjudged, critical or not, up to the root; a judged sibling makes an unjudged critical
    child gate its parent."""
    tree = parse_tree({"id": "root", "children": [
        {"id": "s1", "critical": True, "children": [_leaf("s1.c", critical=True)]},
        {"id": "s1.points", "children": [_leaf("s1.a"), _leaf("s1.p")]}]})
    out: dict[str, float] = {}
    assert math.isnan(aggregate(tree, {"s1.c": None, "s1.a": None, "s1.p": None}, out))
    assert is_unjudged(out["s1"]) and is_unjudged(out["s1.points"])
    # the points are judged, the critical step is not: it gates the root to 0
    assert aggregate(tree, {"s1.c": None, "s1.a": 1, "s1.p": 1}) == 0.0
    # the step is judged, its points are not: the root's average has nothing to average
    assert math.isnan(aggregate(tree, {"s1.c": 1, "s1.a": None, "s1.p": None}))
    assert aggregate(tree, {"s1.c": 1, "s1.a": None, "s1.p": 0}) == 0.0


def test_a_critical_parents_children_are_all_critical() -> None:
    """CAP App. F: a critical parent's children are all critical."""
    data = {"id": "root", "children": [
        {"id": "s1", "critical": True, "children": [_leaf("s1.c", critical=True),
                                                    _leaf("s1.x")]}]}
    with pytest.raises(ConfigError, match=r"root\.children\[0\]\.children\[1\] \(s1\.x\): "
                       "a critical parent's children are all critical"):
        parse_tree(data)
    data["children"][0]["critical"] = False  # type: ignore[index]
    assert parse_tree(data).children[0].children[1].id == "s1.x"


def test_generated_cross_site_trees_follow_app_f() -> None:
    from webmdp.cap.compose import generate_cross_tasks

    for task in generate_cross_tasks(4):
        assert task.cross is not None
        check_tree(task.cross.rubric)


def test_nested_scores_propagate() -> None:
    tree = parse_tree({"id": "root", "children": [
        {"id": "s1", "critical": True, "children": [_leaf("s1.a", critical=True)]},
        {"id": "s2", "children": [_leaf("s2.a"), _leaf("s2.b")]}]})
    out: dict[str, float] = {}
    assert aggregate(tree, {"s1.a": 1, "s2.a": 1, "s2.b": 0}, out) == 0.5
    assert out["s1"] == 1.0 and out["s2"] == 0.5
    assert aggregate(tree, {"s1.a": 0, "s2.a": 1, "s2.b": 1}) == 0.0


def test_exact_leaves_from_a_trace() -> None:
    tree = parse_tree({"id": "root", "children": [
        {"id": "act", "kind": "action",
         "check": {"type": "transition", "site": "shopping", "actions": ["ToggleBrand"]}},
        {"id": "see", "kind": "perception",
         "check": {"type": "revealed", "site": "shopping", "entity": "PRD-1", "field": "price"}},
        {"id": "fact", "kind": "other", "critical": True, "check": {"type": "fact", "condition": {
            "fact": "mail.sent.last.body", "op": "mentions", "value": ["thanks", 18.61]}}},
        {"id": "ans", "kind": "other", "check": {"type": "answer", "value": "$18.61"}}]})
    ok = SemanticTransition(action="shopping.ToggleBrand", params={"brand": "A"}, site="shopping",
                            surface_before="s", surface_after="s", revealed=[("PRD-1", "price")])
    bad = ok.model_copy(update={"error": "rejected", "revealed": []})
    facts = {"mail.sent.last.body": "Thanks! It was $18.61 in the end."}
    res = evaluate(tree, [ok], [], facts, "18.61")
    assert res.root == 1.0 and [v.score for v in res.leaves] == [1, 1, 1, 1]
    assert res.leaves[0].evidence.startswith("transition 0")
    res = evaluate(tree, [bad], [], {"mail.sent.last.body": "Thanks!"}, None)
    assert res.root == 0.0 and [v.score for v in res.leaves] == [0, 0, 0, 0]
    assert "never shown" in res.leaves[1].evidence
    res = evaluate(tree, [bad], [("PRD-1", "price")], facts, "no idea")
    assert res.leaves[1].score == 1 and res.root == pytest.approx(1 / 3)


@pytest.mark.parametrize(("data", "message"), [
    ([1, 2], "a rubric tree is a JSON object"),
    ({"id": "root", "children": [{"id": "x", "kind": "vibes", "check": {
        "type": "answer", "value": "1"}}]}, "root.children[0].kind"),
    ({"id": "root", "children": [{"id": "x", "kind": "other"}]},
     "root.children[0] (x): a leaf needs a 'check'"),
    ({"id": "root", "children": [{"id": "x", "kind": "other", "check": {"type": "oracle"}}]},
     "root.children[0].check"),
    ({"id": "root", "children": [_leaf("x"), _leaf("x")]}, "duplicate node id 'x'"),
    ({"id": "root", "kind": "other", "children": [_leaf("x")]}, "an internal node has"),
])
def test_malformed_trees_name_the_bad_node(data: object, message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("(", r"\(")
                       .replace(")", r"\)")):
        parse_tree(data)


def test_tree_files_and_schema(tmp_path: Path) -> None:
    path = tmp_path / "tree.json"
    path.write_text(json.dumps({"id": "root", "children": [_leaf("a")]}))
    assert load_tree(path).leaves()[0].id == "a"
    path.write_text("{not json")
    with pytest.raises(ConfigError, match="invalid JSON"):
        load_tree(path)
    with pytest.raises(ConfigError, match="no such rubric file"):
        load_tree(tmp_path / "missing.json")
    schema = tree_schema()
    assert "children" in json.dumps(schema) and "transition" in json.dumps(schema)
