"""The built-in agents' GUI driver: where it clicks, when it scrolls first."""

from __future__ import annotations

from itertools import pairwise

from webmdp.agents.driver import plan_gui
from webmdp.core.spec import Action


def _node(y: float, **kw: object) -> dict:
    return {"id": 1, "action": "AddItem", "params": '{"item_id": "ITM-001"}', "x": 700.0,
            "y": y, "in_viewport": y - 20 < 900, **kw}


def test_a_button_whose_centre_is_on_screen_is_clicked() -> None:
    steps = plan_gui(Action("AddItem", {"item_id": "ITM-001"}), [_node(400.0)])
    assert steps is not None and [s.kind for s in steps] == ["click"] and steps[0].y == 400.0


def test_a_button_cut_by_the_fold_is_scrolled_to_before_the_click() -> None:
    # its top edge shows (in_viewport), but a click at its centre (y=911) would miss the page
    steps = plan_gui(Action("AddItem", {"item_id": "ITM-001"}), [_node(911.0)])
    assert steps is not None and [s.kind for s in steps] == ["scroll"] and steps[0].dy > 0


def test_an_unoffered_action_has_no_plan() -> None:
    assert plan_gui(Action("AddItem", {"item_id": "ITM-002"}), [_node(400.0)]) is None


def _field(id_: int, tag: str, field: str, y: float, action: str = "PostAnswer") -> dict:
    return {"id": id_, "tag": tag, "action": action, "params": None, "field": field,
            "value": "", "x": 500.0, "y": y, "in_viewport": True}


def _submit(id_: int, y: float, action: str = "PostAnswer") -> dict:
    return {"id": id_, "tag": "button", "action": None, "params": None, "submits": action,
            "x": 520.0, "y": y, "in_viewport": True}


def test_a_form_is_sent_with_enter_in_a_one_line_field_even_when_a_text_area_comes_last() -> None:
    nodes = [_field(1, "input", "title", 200.0), _field(2, "textarea", "body", 300.0),
             _submit(3, 400.0)]
    steps = plan_gui(Action("PostAnswer", {"title": "T", "body": "B"}), nodes)
    assert steps is not None
    typed = [(s.text, prev.y) for prev, s in pairwise(steps) if s.kind == "type"]
    assert typed == [("B", 300.0), ("T\n", 200.0)]  # the text area first, Enter in the input


def test_a_form_of_text_areas_only_is_sent_with_its_own_submit_button() -> None:
    other_form = [_field(1, "textarea", "body", 150.0, "PostComment"),
                  _submit(2, 200.0, "PostComment")]
    this_form = [_field(3, "textarea", "body", 500.0), _submit(4, 560.0)]
    nodes = other_form + this_form
    steps = plan_gui(Action("PostAnswer", {"body": "line one\nline two"}), nodes)
    assert steps is not None
    assert [s.kind for s in steps] == ["click", "type", "click"]
    assert steps[1].text == "line one\nline two"  # no Enter added: it would only add a line
    assert (steps[2].x, steps[2].y) == (520.0, 560.0)


def test_a_form_of_text_areas_without_a_submit_button_has_no_plan() -> None:
    assert plan_gui(Action("PostAnswer", {"body": "B"}), [_field(1, "textarea", "body", 300.0)]) \
        is None
