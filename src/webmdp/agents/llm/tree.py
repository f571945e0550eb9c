"""Best-first tree search agent (planning paper 3.1 (2); Koh et al. 2024).

Each expanded node gets candidate actions from the model; every candidate is executed (one GUI
step each) to reach a child, whose value V(s) in [0, 1] is taken, and the session is restored
to the node's snapshot before the next candidate (a backtrack, recorded in the trace). The
frontier node of highest value is expanded next. V(s) comes from the model, or exactly from the
MDP with ``value="oracle"``: V(s) = 1 / (1 + d) where d is ``distance_to_goal(task, s)``; then a
node with d = 0 ends the episode, which makes this the upper bound of tree search.
"""

from __future__ import annotations

import json
import re
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from webmdp.agents.base import AgentOutput
from webmdp.agents.llm.agent import ModelAgent, Paradigm, action_dict
from webmdp.agents.llm.clients import ChatMessage
from webmdp.agents.llm.grammars.base import parse_output
from webmdp.agents.llm.observe import ModelView, model_view
from webmdp.agents.llm.prompts import PROPOSE_JSON, VALUE_SYSTEM, parse_value
from webmdp.core.spec import Action
from webmdp.env.actions import GUIAction
from webmdp.env.semantic import FINISH
from webmdp.trace import ModelCall, SearchNode, StepNotes

FINISH_VALUE = 0.5
"""With a model value, a proposed finish is taken only at a node valued at least this."""


@dataclass
class Candidate:
    action: GUIAction | Action
    state: Any
    thought: str
    intent: dict[str, Any] | None


@dataclass
class Node:
    id: int
    parent: int | None
    snapshot: str
    path: tuple[Action, ...]
    state: Any
    value: float
    depth: int
    record: SearchNode
    candidates: deque[Candidate] = field(default_factory=deque)


def _is_finish(action: GUIAction | Action) -> bool:
    return (action.kind == "finish") if isinstance(action, GUIAction) else action.name == FINISH


class TreeAgent(ModelAgent):
    """Best-first search over the session with snapshot / restore backtracking."""

    paradigm: Paradigm = "tree"

    def start(self) -> None:
        self.nodes: list[Node] = []
        self.frontier: list[Node] = []
        self.expanding: Node | None = None
        self.at: int | None = None
        self.pending: tuple[Node, Candidate] | None = None
        self.bad_proposals = 0

    def turn(self, obs: dict[str, Any], view: ModelView) -> AgentOutput:
        if self.env is None:
            raise RuntimeError("the tree agent needs its env (bind) to snapshot and restore")
        calls: list[ModelCall] = []
        if not self.nodes:
            root = self._add(None, None, self.state, view, calls)
            if self._goal(root):
                return self._finish(calls, root)
        elif self.pending is not None:
            parent, cand = self.pending
            self.pending = None
            child = self._add(parent, cand, cand.state, view, calls)
            if self._goal(child):
                return self._finish(calls, child)
        while True:
            node = self.expanding
            if node is not None and node.candidates:
                cand = node.candidates.popleft()
                view = self._go_to(node) or view
                if _is_finish(cand.action):
                    if self.config.value == "model" and node.value >= FINISH_VALUE:
                        return self._finish(calls, node, cand.action)
                    continue
                self.pending = (node, cand)
                notes = StepNotes(thought=cand.thought or None, node=node.id, model_calls=calls,
                                  intent=cand.intent or action_dict(cand.action))
                return self._checked(cand.action, notes, view)
            if not self.frontier:  # finish at the best state found
                best_seen = max(self.nodes, key=lambda n: (n.value, -n.id))
                return self._finish(calls, best_seen, reason="search exhausted")
            best = max(self.frontier, key=lambda n: (n.value, -n.id))
            self.frontier.remove(best)
            best.record.expanded = True
            view = self._go_to(best) or view
            best.candidates = deque(self._propose(best, view, calls))
            if not best.candidates:
                self.bad_proposals += 1
                if self.bad_proposals >= self.config.unparseable_limit:
                    return self.stop("unparseable", "no parseable candidate in "
                                     f"{self.bad_proposals} proposals", None,
                                     StepNotes(node=best.id, model_calls=calls))
            else:
                self.bad_proposals = 0
            self.expanding = best

    # -- nodes ------------------------------------------------------------------------------
    def _add(self, parent: Node | None, cand: Candidate | None, state: Any, view: ModelView,
             calls: list[ModelCall]) -> Node:
        steps = self.env.trace.steps
        path = parent.path if parent else ()
        key = parent.record.state_key if parent else self._initial_key()
        if parent is not None and steps:
            done = [t for t in steps[-1].transitions if t.error is None]
            path = path + tuple(Action(t.action, dict(t.params)) for t in done)
            key = steps[-1].transitions[-1].state_key if steps[-1].transitions else key
        value = self._value(path, view, calls)
        nid = len(self.nodes)
        rec = SearchNode(id=nid, parent=parent.id if parent else None,
                         action=action_dict(cand.action) if cand else None,
                         step=len(steps) - 1 if parent else None, value=round(value, 6),
                         state_key=key)
        node = Node(nid, rec.parent, self.env.snapshot(), path, state, value,
                    parent.depth + 1 if parent else 0, rec)
        self.nodes.append(node)
        self.frontier.append(node)
        self.at = nid
        assert self.log is not None
        self.log.tree.append(rec)
        return node

    def _initial_key(self) -> str:
        from webmdp.tasks.distance import state_after
        from webmdp.tracking import state_key

        assert self.task is not None
        return state_key(state_after(self.task, ()))

    def _go_to(self, node: Node) -> ModelView | None:
        """Restore the session to ``node`` unless it is already there (a backtrack)."""
        if self.at == node.id:
            return None
        obs = self.env.restore(node.snapshot, node=node.id)
        self.at = node.id
        return model_view(obs, self.obs_cfg)

    def _goal(self, node: Node) -> bool:
        return self.config.value == "oracle" and node.value >= 1.0

    def _finish(self, calls: list[ModelCall], node: Node | None,
                action: GUIAction | Action | None = None, reason: str = "") -> AgentOutput:
        if node is not None:
            self._go_to(node)
        if action is None:
            action = Action(FINISH, {}) if self.mode == "semantic" else GUIAction(kind="finish")
        if reason:
            assert self.log is not None
            self.log.stop_reason = reason
        notes = StepNotes(node=node.id if node else None, model_calls=calls,
                          intent=action_dict(action))
        return AgentOutput(action, notes=notes)

    # -- value and proposals ----------------------------------------------------------------
    def _value(self, path: tuple[Action, ...], view: ModelView, calls: list[ModelCall]) -> float:
        if self.config.value == "oracle":
            from webmdp.tasks.distance import distance_to_goal, state_after, value_of

            assert self.task is not None
            return value_of(distance_to_goal(self.task, state_after(self.task, list(path))))
        parts: tuple[str | bytes, ...] = (f"Task: {view.instruction}",
                                          f"Current observation:\n{view.text}")
        if view.image is not None:
            parts += (view.image,)
        reply = self.client.chat([ChatMessage.text("system", VALUE_SYSTEM),
                                  ChatMessage("user", parts)], purpose="value")
        calls.append(reply.call)
        return parse_value(reply.text or reply.raw) or 0.0

    def _propose(self, node: Node, view: ModelView, calls: list[ModelCall]) -> list[Candidate]:
        n = max(1, self.config.branching)
        out: list[Candidate] = []
        if self.config.grammar == "json":
            d = self.channel.decide(node.state, view, extra=PROPOSE_JSON.format(n=n),
                                    purpose="propose")
            calls.append(d.call)
            out = self._json_candidates(d.parsed.raw, d.state, view)
        else:
            for i in range(n):
                d = self.channel.decide(node.state, view, purpose="propose",
                                        temperature=None if i == 0 else 1.0)
                calls.append(d.call)
                if d.parsed.ok:
                    out += [Candidate(a, d.state, d.parsed.thought, d.parsed.intent)
                            for a in d.parsed.actions[:1]]
        unique: dict[str, Candidate] = {}
        for c in out:
            unique.setdefault(json.dumps(action_dict(c.action), sort_keys=True), c)
        return list(unique.values())[:n]

    def _json_candidates(self, raw: str, state: Any, view: ModelView) -> list[Candidate]:
        """Split a ``{"thought", "candidates": [...]}`` reply into one parse per candidate;
        a plain ``{"thought", "action"}`` reply is one candidate."""
        obj = _json_object(raw)
        if obj is None or not isinstance(obj.get("candidates"), list):
            d = parse_output(self.grammar, raw, self._ctx(view))
            return [Candidate(a, state, d.thought, d.intent) for a in d.actions[:1]] if d.ok \
                else []
        out = []
        for c in obj["candidates"]:
            one = json.dumps({"thought": obj.get("thought", ""), "action": c})
            d = parse_output(self.grammar, one, self._ctx(view))
            if d.ok:
                out.append(Candidate(d.actions[0], state, d.thought, d.intent))
        return out

    def _ctx(self, view: ModelView) -> Any:
        from webmdp.agents.llm.channels import parse_context

        return parse_context(self.mode, self.grammar, self.obs_cfg, view, self.config.coords)


_FENCE = re.compile(r"```(?:json)?\s*(\{.*?\})\s*```", re.DOTALL)


def _json_object(raw: str) -> dict[str, Any] | None:
    m = _FENCE.search(raw)
    text = m.group(1) if m else raw[raw.find("{"): raw.rfind("}") + 1]
    try:
        obj = json.loads(text)
    except (json.JSONDecodeError, ValueError):
        return None
    return obj if isinstance(obj, dict) else None
