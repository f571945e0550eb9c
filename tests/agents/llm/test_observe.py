"""Model observations: semantic text, URL / tree composition, history trimming."""

from __future__ import annotations

from webmdp.agents.llm.observe import History, ObservationConfig, model_view


def test_semantic_view_is_the_text_observation() -> None:
    obs = {"text": "Surface: Home (other)", "instruction": "Buy socks", "observation": None}
    view = model_view(obs, ObservationConfig())
    assert view.text == "Surface: Home (other)"
    assert view.image is None and view.instruction == "Buy socks"


def test_browser_view_composes_url_and_tree() -> None:
    obs = {"url": "http://127.0.0.1:1/s/x/", "axtree": '[1] button "Go"', "instruction": "i",
           "nodes": [{"id": 1}, {"id": None}, {"id": 7}]}
    view = model_view(obs, ObservationConfig(screenshot=False, axtree=True))
    assert view.text.splitlines()[0] == "URL: http://127.0.0.1:1/s/x/"
    assert '[1] button "Go"' in view.text
    assert view.element_ids == frozenset({1, 7})
    other = model_view({**obs, "axtree": '[1] button "Stop"'},
                       ObservationConfig(screenshot=False, axtree=True))
    assert other.digest != view.digest


def test_history_trims_oldest_first_and_keeps_last() -> None:
    h = History()
    for i in range(10):
        h = h.add(None, f"turn {i} " + "x" * 400)  # ~100 tokens each
    kept = h.trimmed(350)
    assert [t.answer.split()[1] for t in kept] == ["7", "8", "9"]
    assert h.trimmed(0)[-1].answer.startswith("turn 9")
    assert len(h.turns) == 10  # immutable: trimming does not drop turns


def test_history_is_a_value() -> None:
    a = History().add(None, "one")
    b = a.add(None, "two")
    assert len(a.turns) == 1 and len(b.turns) == 2
