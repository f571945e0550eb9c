"""Full-plan-in-advance agent (planning paper, 3.1 (3) and 3.2): a numbered plan from the
instruction and the first observation, kept in every later prompt; each turn states the plan
step it executes; on divergence it replans (every plan is recorded in the trace)."""

from __future__ import annotations

from typing import Any

from webmdp.agents.base import AgentOutput
from webmdp.agents.llm.agent import ModelAgent, Paradigm
from webmdp.agents.llm.clients import ChatMessage
from webmdp.agents.llm.observe import ModelView
from webmdp.agents.llm.prompts import (
    PLAN_SYSTEM,
    PLAN_TURN,
    REPLAN_NOTE,
    format_plan,
    parse_plan,
    replan_reason,
    stated_plan_step,
    strip_plan_lines,
)
from webmdp.trace import ModelCall, PlanRecord


class PlanAgent(ModelAgent):
    """Plans once, then executes the plan step by step; replans when the model reports that the
    page diverged from the plan's expectation, or when the MDP rejected the last action."""

    paradigm: Paradigm = "plan"

    def start(self) -> None:
        self.plan: list[str] = []
        self.replans = 0

    def turn(self, obs: dict[str, Any], view: ModelView) -> AgentOutput:
        calls: list[ModelCall] = []
        if not self.plan:
            calls.append(self._make_plan(view, purpose="plan", reason=""))
        elif (reason := self._rejected_last_step()) and self.replans < self.config.max_replans:
            calls.append(self._make_plan(view, purpose="replan", reason=reason))
        decision = self.decide(view, extra=self._reminder(), clean=strip_plan_lines)
        calls.append(decision.call)
        reason = replan_reason(decision.parsed.raw)
        if reason is not None and self.replans < self.config.max_replans:
            calls.append(self._make_plan(view, purpose="replan", reason=reason))
            decision = self.decide(view, extra=self._reminder(), clean=strip_plan_lines)
            calls.append(decision.call)
        return self.emit(decision, calls, view, plan_step=stated_plan_step(decision.parsed.raw))

    def _reminder(self) -> str:
        return PLAN_TURN.format(plan=format_plan(self.plan))

    def _make_plan(self, view: ModelView, *, purpose: str, reason: str) -> ModelCall:
        user: tuple[str | bytes, ...] = (f"OBJECTIVE: {view.instruction}",
                                         f"OBSERVATION:\n{view.text}")
        if view.image is not None:
            user += (view.image,)
        if reason:
            user += (REPLAN_NOTE.format(reason=reason), f"PREVIOUS PLAN:\n"
                     f"{format_plan(self.plan)}")
        reply = self.client.chat([ChatMessage.text("system", PLAN_SYSTEM),
                                  ChatMessage("user", user)],
                                 purpose="replan" if reason else "plan")
        steps = parse_plan(reply.text or reply.raw)
        self.plan = steps or self.plan or ["Complete the task."]
        if reason:
            self.replans += 1
        assert self.log is not None
        at = self.env.trace.steps.__len__() if self.env is not None else 0
        self.log.plans.append(PlanRecord(at_step=at, steps=self.plan, reason=reason))
        return reply.call

    def _rejected_last_step(self) -> str | None:
        """The MDP's reason when the last executed action was rejected (a divergence)."""
        if self.env is None or not self.env.trace.steps:
            return None
        last = self.env.trace.steps[-1]
        if last.action.get("kind") == "invalid":
            return None
        return f"the last action was rejected: {last.error}" if last.error else None
