"""The built-in agents' GUI driver: where it clicks, when it scrolls first."""

from __future__ import annotations

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
