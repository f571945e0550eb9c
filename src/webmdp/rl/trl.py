"""TRL's ``GRPOTrainer(environment_factory=...)`` convention: a class per site whose public
methods are the site's semantic actions, so TRL builds a tool schema for each.

TRL instantiates the class with no argument, calls ``reset(**row)`` with the dataset row (its
text is appended to the prompt), turns every other public method except ``get_reward`` into a
tool, and feeds an exception's message back to the model. So:

- each :class:`~webmdp.core.spec.ActionSpec` becomes one method: its snake_case name, typed
  parameters (a ``choice`` as a ``Literal``, an optional one defaulting to ``None``) and a
  Google-style docstring with ``Args:``, generated from the spec;
- helpers start with ``_``;
- an invalid call raises ``ValueError`` with the site's own message;
- the class name is fixed (``WebMDPShoppingEnv``): TRL logs ``rewards/<ClassName>/mean``.

Ten sites declare 220 distinct action names, and some (``OpenThread``, ``SelectOption``,
``AddToCart``, ...) take different parameters on different sites, so several sites give a
``{site: class}`` dict, which TRL takes together with an ``environment`` column in the
dataset (:func:`webmdp.rl.dataset.rows`). The cross-site suite's ``site.Action`` becomes
``site_action``. The episode and its reward are :class:`~webmdp.rl.episode.RLEpisode`'s.
"""

from __future__ import annotations

import inspect
import re
from functools import cache
from typing import Any, Literal

from webmdp.core.spec import ActionSpec, ParamSpec
from webmdp.env.episode import DEFAULT_STEP_BUDGET
from webmdp.rl.episode import RLEpisode
from webmdp.rl.rewards import REWARD_MODES, RewardMode
from webmdp.rl.splits import ALL, CROSS, Catalog, unknown

MODES = ("semantic",)
_PY: dict[str, type] = {"str": str, "entity": str, "int": int, "float": float}


def environment(site: str | list[str] = "shopping", mode: str = "semantic",
                reward: RewardMode = "terminal", *,
                step_budget: int = DEFAULT_STEP_BUDGET) -> Any:
    """The ``environment_factory`` for ``site``: one class, or for ``all`` / a list of sites
    a ``{site: class}`` dict."""
    if mode not in MODES:
        raise unknown("mode", mode, MODES)
    if reward not in REWARD_MODES:
        raise unknown("reward", reward, REWARD_MODES)
    if isinstance(site, list) or site == ALL:
        from webmdp.sites import site_names

        names = site_names() if site == ALL else list(site)
        return {n: _env_class(n, reward, step_budget) for n in names}
    return _env_class(site, reward, step_budget)


def class_name(site: str) -> str:
    """``shopping`` -> ``WebMDPShoppingEnv``, ``cross-site`` -> ``WebMDPCrossSiteEnv``."""
    return "WebMDP" + "".join(p.capitalize() for p in re.split(r"[-_]", site)) + "Env"


def method_name(action: str) -> str:
    """``AddToCart`` -> ``add_to_cart``; ``shopping.AddToCart`` -> ``shopping_add_to_cart``."""
    site, _, name = action.rpartition(".")
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()
    return f"{site}_{snake}" if site else snake


class WebMDPToolEnv:
    """The base of every generated class: one episode of the site's semantic MDP."""

    _site: str = ""
    _reward: RewardMode = "terminal"
    _step_budget: int = DEFAULT_STEP_BUDGET

    def __init__(self) -> None:
        self._episode: RLEpisode | None = None

    def reset(self, **row: Any) -> str:
        """Start the task the dataset row names (``task_id``; other columns are ignored) and
        return its first observation."""
        task_id = row.get("task_id")
        if not isinstance(task_id, str):
            raise ValueError("reset needs the row's task_id")
        task = _catalog(self._site).task(task_id)
        self._episode = RLEpisode(task, self._reward, agent="trl",
                                  step_budget=self._step_budget)
        return str(self._episode.obs["text"])

    def finish(self, answer: str | None = None) -> str:
        """End the episode: the task is done, or cannot be done.

        Args:
            answer: what the task asks to report (a value read from the pages, or the
                confirmation code a commit showed); omit it when nothing is asked.

        Returns:
            That the episode is over.
        """
        return self._act("Finish", {"answer": answer})

    def get_reward(self) -> float:
        """The episode's reward so far (terminal: the verifier's 1 or 0 once it ended)."""
        return 0.0 if self._episode is None else self._episode.total

    def _act(self, name: str, params: dict[str, Any]) -> str:
        if self._episode is None:
            raise ValueError("no episode: reset first")
        if self._episode.done:
            raise ValueError("the episode is over")
        result = self._episode.step({"name": name, "params": {
            k: v for k, v in params.items() if v is not None}})
        if result.error is not None:
            raise ValueError(result.error)
        if result.done:
            return "The episode is over." + ("" if not result.truncated else
                                             " (step budget reached)")
        return str(result.obs["text"])


@cache
def _catalog(site: str) -> Catalog:
    return Catalog(site)


@cache
def _env_class(site: str, reward: RewardMode, step_budget: int) -> type[WebMDPToolEnv]:
    from webmdp.core.registry import get_site

    if site not in (*_site_names(), CROSS):
        raise unknown("site", site, [*_site_names(), CROSS])
    namespace: dict[str, Any] = {"_site": site, "_reward": reward,
                                 "_step_budget": step_budget,
                                 "__doc__": f"webmdp's {site} site as TRL tools "
                                            f"(reward: {reward})."}
    for spec in get_site(site).actions:
        namespace[method_name(spec.name)] = _tool(spec)
    return type(class_name(site), (WebMDPToolEnv,), namespace)


def _site_names() -> list[str]:
    from webmdp.sites import site_names

    return site_names()


def _tool(spec: ActionSpec) -> Any:
    """A method that takes the action's parameters and steps the episode with it."""
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: dict[str, Any] = {"return": str}
    for p in sorted(spec.params, key=lambda p: p.optional):
        kind = _annotation(p)
        annotations[p.name] = kind
        params.append(inspect.Parameter(p.name, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                        default=None if p.optional else inspect.Parameter.empty,
                                        annotation=kind))

    def tool(self: WebMDPToolEnv, *args: Any, **kwargs: Any) -> str:
        bound = signature.bind(self, *args, **kwargs)
        values = {k: v for k, v in bound.arguments.items() if k != "self"}
        return self._act(spec.name, values)

    signature = inspect.Signature(params, return_annotation=str)
    tool.__signature__ = signature  # type: ignore[attr-defined]
    tool.__annotations__ = annotations
    tool.__name__ = tool.__qualname__ = method_name(spec.name)
    tool.__doc__ = _docstring(spec)
    return tool


def _annotation(p: ParamSpec) -> Any:
    kind: Any = Literal[tuple(p.choices)] if p.type == "choice" and p.choices else \
        _PY.get(p.type, str)
    return kind | None if p.optional else kind


def _docstring(spec: ActionSpec) -> str:
    what = spec.description.strip().strip('"') or spec.name
    effect = ", changes the state" if spec.changes_state else ""
    head = f"{spec.name} ({spec.category.value}{effect}): {what}."
    if not spec.params:
        return head + "\n\nReturns:\n    The page after the action."
    lines = [head, "", "Args:"]
    for p in spec.params:
        text = {"entity": "the id of an entity shown on the page",
                "choice": "one of the listed options", "int": "a whole number",
                "float": "a number"}.get(p.type, "free text" if p.text else "a value")
        lines.append(f"    {p.name}: {text}{' (optional)' if p.optional else ''}.")
    return "\n".join([*lines, "", "Returns:", "    The page after the action."])
