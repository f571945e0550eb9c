"""A scripted model for end-to-end tests and benchmarks: the oracle, speaking one grammar.

:class:`Mirror` wraps an env and remembers its latest observation. :class:`OracleModel` is a
responder for :class:`ScriptedModelServer`: asked for an action, it asks an ``OracleAgent``
what to do on that observation and writes the answer in the grammar's own syntax (a UI-TARS
``Action: click(start_box=...)`` line, a Qwen ``<tool_call>``, a Responses ``computer_call``,
...), in the coordinates of the image the model was shown. Plan and value requests get a
fixed plan and value. So a run reaches verifier success exactly when the harness (prompt,
client, server protocol, grammar parse, coordinate mapping, browser action) is right.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from webmdp.agents import OracleAgent
from webmdp.agents.llm.grammars import grammar_info
from webmdp.agents.llm.images import model_image_size
from webmdp.agents.llm.prompts import PLAN_SYSTEM, PLAN_TURN, PROPOSE_JSON, VALUE_SYSTEM
from webmdp.core.spec import Action
from webmdp.env.actions import GUIAction
from webmdp.testing.model_server import Reply, Request

VIEWPORT = (1440, 900)
PLAN = "1. Find the item the task names.\n2. Carry out the task on it.\n3. Finish."


class Mirror:
    """An env that remembers its latest observation (everything else is the env's)."""

    def __init__(self, env: Any):
        self.env = env
        self.obs: dict[str, Any] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.env, name)

    def reset(self, **kw: Any) -> Any:
        self.obs, info = self.env.reset(**kw)
        return self.obs, info

    def step(self, *a: Any, **kw: Any) -> Any:
        out = self.env.step(*a, **kw)
        self.obs = out[0]
        return out

    def record_invalid(self, *a: Any, **kw: Any) -> Any:
        out = self.env.record_invalid(*a, **kw)
        self.obs = out[0]
        return out

    def restore(self, *a: Any, **kw: Any) -> Any:
        self.obs = self.env.restore(*a, **kw)
        return self.obs


class OracleModel:
    """Responder: the oracle's next action in ``grammar``'s syntax (see the module doc)."""

    def __init__(self, mirror: Mirror, grammar: str, *, coords: str = "absolute",
                 before: Callable[[Request], Reply | None] | None = None):
        self.mirror, self.grammar, self.coords = mirror, grammar, coords
        self.size = model_image_size(grammar_info(grammar).image_policy)
        self.oracle: OracleAgent | None = None
        self.before = before
        self.actions: list[GUIAction | Action] = []

    def __call__(self, req: Request) -> Reply:
        if self.before is not None and (reply := self.before(req)) is not None:
            return reply
        text = "\n".join(req.texts())
        if PLAN_SYSTEM[:60] in text:
            return Reply(text=PLAN)
        if VALUE_SYSTEM[:40] in text:
            return Reply(text="Value: 0.8")
        if self.oracle is None:
            self.oracle = OracleAgent()
            self.oracle.reset(self.mirror.task, self.mirror.mode)
        action = self.oracle.act(self.mirror.obs).action
        assert action is not None
        self.actions.append(action)
        reply = self.write(action)
        if PLAN_TURN[-60:] in text:  # the plan paradigm asks which plan step this is
            reply.text = "Plan step: 2\n" + reply.text
        if PROPOSE_JSON[:40] in text:  # tree search over json: a one-candidate list
            obj = json.loads(reply.text)
            reply.text = json.dumps({"thought": obj["thought"], "candidates": [obj["action"]]})
        return reply

    # -- one action in each grammar --------------------------------------------------------
    def point(self, a: GUIAction) -> tuple[int, int]:
        assert a.x is not None and a.y is not None
        if self.coords == "relative1000":
            return round(a.x * 1000 / VIEWPORT[0]), round(a.y * 1000 / VIEWPORT[1])
        w, h = self.size
        return round(a.x * w / VIEWPORT[0]), round(a.y * h / VIEWPORT[1])

    def element(self, a: GUIAction) -> int:
        """The id of the element under a click (the axtree grammar names elements)."""
        for node in self.mirror.obs.get("nodes", []):
            if node.get("id") is not None and (node["x"], node["y"]) == (a.x, a.y):
                return int(node["id"])
        raise AssertionError(f"no element at {a.x},{a.y}")

    def write(self, a: GUIAction | Action) -> Reply:
        if isinstance(a, Action):  # semantic mode: only the json grammar
            return Reply(text=json.dumps({"thought": f"I will {a.name}.",
                                          "action": {"name": a.name, "params": a.params}}))
        return getattr(self, "_" + self.grammar.replace("-", "_"))(a)

    def _json(self, a: GUIAction) -> Reply:
        d = {k: v for k, v in a.model_dump().items() if v not in (None, [], "", False, 0.0)
             or k == "kind"}
        d.pop("button", None)
        return Reply(text="```json\n" + json.dumps({"thought": f"{a.kind} next",
                                                    "action": d}) + "\n```")

    def _uitars(self, a: GUIAction) -> Reply:
        if a.kind == "click":
            call = "click(start_box='({},{})')".format(*self.point(a))
        elif a.kind == "type":
            call = "type(content='{}')".format(a.text.replace("'", "\\'").replace("\n", "\\n"))
        elif a.kind == "key":
            call = f"hotkey(key='{a.key.lower().replace('control', 'ctrl').replace('+', ' ')}')"
        elif a.kind == "scroll":
            call = "scroll(start_box='({},{})', direction='{}')".format(
                *self.point(a), "down" if a.dy > 0 else "up")
        elif a.kind == "wait":
            call = "wait()"
        else:
            call = f"finished(content='{a.answer or ''}')"
        return Reply(text=f"Thought: I do the next step.\nAction: {call}")

    def _qwen_args(self, a: GUIAction) -> dict[str, Any]:
        if a.kind == "click":
            return {"action": "left_click", "coordinate": list(self.point(a))}
        if a.kind == "type":
            return {"action": "type", "text": a.text}
        if a.kind == "key":
            return {"action": "key", "keys": a.key.split("+")}
        if a.kind == "scroll":  # in the model image's pixels, as points are
            scale = 1000 if self.coords == "relative1000" else self.size[1]
            return {"action": "scroll", "pixels": -round(a.dy * scale / VIEWPORT[1])}
        if a.kind == "wait":
            return {"action": "wait", "time": 0.1}
        return {"action": "terminate", "status": "success"}

    def _qwen(self, a: GUIAction) -> Reply:
        call = {"name": "computer_use", "arguments": self._qwen_args(a)}
        return Reply(text=f"Next step.\n<tool_call>\n{json.dumps(call)}\n</tool_call>")

    def _fara(self, a: GUIAction) -> Reply:
        args = self._qwen_args(a)
        if a.kind == "type":
            args = {"action": "type", "text": a.text.rstrip("\n"),
                    "press_enter": a.text.endswith("\n"), "delete_existing_text": False}
        call = {"name": "computer_use", "arguments": args}
        return Reply(text=f"Next step.\n<tool_call>\n{json.dumps(call)}\n</tool_call>")

    def _openai_cua(self, a: GUIAction) -> Reply:
        if a.kind == "finish":
            return Reply(text="The task is done.")
        if a.kind == "click":
            x, y = self.point(a)
            act: dict[str, Any] = {"type": "click", "button": "left", "x": x, "y": y}
        elif a.kind == "type":
            act = {"type": "type", "text": a.text}
        elif a.kind == "key":
            act = {"type": "keypress", "keys": [k.upper() for k in a.key.split("+")]}
        elif a.kind == "scroll":
            x, y = self.point(a)
            act = {"type": "scroll", "x": x, "y": y, "scroll_x": 0, "scroll_y": round(a.dy)}
        else:
            act = {"type": "wait"}
        return Reply(thought="next step", computer=act)

    def _anthropic_cua(self, a: GUIAction) -> Reply:
        if a.kind == "finish":
            return Reply(text="The task is done.")
        if a.kind == "click":
            act: dict[str, Any] = {"action": "left_click", "coordinate": list(self.point(a))}
        elif a.kind == "type":
            act = {"action": "type", "text": a.text}
        elif a.kind == "key":
            act = {"action": "key",
                   "text": a.key.lower().replace("control", "ctrl").replace("delete", "Delete")}
        elif a.kind == "scroll":
            act = {"action": "scroll", "coordinate": list(self.point(a)),
                   "scroll_direction": "down" if a.dy > 0 else "up",
                   "scroll_amount": max(1, round(abs(a.dy) / 100))}
        else:
            act = {"action": "wait", "duration": 0.1}
        return Reply(text="Next step.", computer=act)

    def _axtree(self, a: GUIAction) -> Reply:
        if a.kind == "click":
            call = f"click('{self.element(a)}')"
        elif a.kind == "type":
            call = f"keyboard_type({a.text!r})"
        elif a.kind == "key":
            call = f"keyboard_press({a.key!r})"
        elif a.kind == "scroll":
            call = f"scroll(0, {round(a.dy)})"
        elif a.kind == "wait":
            call = "noop(100)"
        else:
            call = "stop()"
        return Reply(text=f"I take the next step.\n```{call}```")
