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

In browser mode the methods are the GUI actions instead (``click``, ``type``, ``key``,
``scroll``, ..., as :class:`~webmdp.env.actions.GUIAction` takes them), and ``reset`` and each
action return TRL's content blocks: the screenshot as an image, then the URL and the
accessibility tree as text. Each instance drives its own Chromium
(:class:`~webmdp.rl.browser.BrowserSeat`), launched on its first ``reset``.
"""

from __future__ import annotations

import inspect
import io
import re
import weakref
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from webmdp.core.registry import site_names
from webmdp.core.spec import ActionSpec, ParamSpec
from webmdp.env.episode import DEFAULT_STEP_BUDGET
from webmdp.rl.actions import GUI_TOOLS, Arg
from webmdp.rl.episode import RLEpisode, check_options, observation_text
from webmdp.rl.rewards import RewardMode
from webmdp.rl.splits import (
    ALL,
    CROSS,
    FILE,
    GRID,
    Catalog,
    Holdout,
    check_split,
    parse_level,
    resolve_path,
    site_choices,
    unknown,
)

_PY: dict[str, type] = {"str": str, "entity": str, "int": int, "float": float}


def environment(site: str | list[str] = "shopping", mode: str = "semantic",
                reward: RewardMode = "terminal", *,
                step_budget: int = DEFAULT_STEP_BUDGET, split: str | None = None,
                level: int | str | None = None, holdout: str = "task",
                tasks: str | Path | None = None, suite: str = "builtin") -> Any:
    """The ``environment_factory`` for ``site``: one class, or for ``all`` (every site and the
    cross-site suite, as the dataset's ``environment`` column names them) or a list of sites a
    ``{site: class}`` dict. ``mode``: ``semantic`` (the site's semantic actions as tools,
    text observations) or ``browser`` (GUI actions as tools, screenshot + text blocks).

    ``split`` / ``level`` / ``holdout``: the classes refuse a ``reset`` whose task lies
    outside that split and level (so a training run cannot touch a test task, whatever its
    dataset holds). ``tasks``: a task file, whose ids resolve first. ``suite``: ``grid``
    serves the grid suite's tasks (:mod:`webmdp.forge.grid`); ``cross-site`` is ``site=
    "cross-site"``, which still works."""
    if suite == CROSS:
        site = CROSS if site in (ALL, CROSS) else site
    check_options(mode, reward, site)
    scope = _Scope(resolve_path(tasks), str(Holdout.parse(holdout)), split,
                   parse_level(level), suite)
    if split is not None:  # a bad split or level fails here, not at the first reset
        check_split(split, Catalog(ALL, scope.tasks, suite=suite).splits())
    if scope.tasks is not None:
        _catalog(ALL, scope.tasks, scope.holdout).tasks(FILE)  # a bad file fails here too
    if isinstance(site, list) or site == ALL:
        names = ([*site_names(), *([CROSS] if suite != GRID else [])] if site == ALL
                 else list(site))  # all: the benchmark
        return {n: _env_class(n, mode, reward, step_budget, scope) for n in names}
    return _env_class(site, mode, reward, step_budget, scope)


def success(completions: list[Any], environments: list[Any] | None = None,
            **kwargs: Any) -> list[float]:
    """A reward function of TRL's form that returns each rollout's exact verdict (1.0 / 0.0).
    Pass it with weight 0 (``reward_funcs=[success], reward_weights=[0.0]``): it trains
    nothing, and TRL logs ``rewards/success/mean``, the success rate, beside the training
    reward (TRL adds the environment's ``get_reward`` with weight 1 itself)."""
    if environments is None:
        raise ValueError("success needs TRL's environments= (GRPOTrainer with "
                         "environment_factory)")
    return [1.0 if getattr(env, "success", False) else 0.0 for env in environments]


@dataclass(frozen=True)
class _Scope:
    """What a class's ``reset`` may run: a task file, the holdout, and a split and level."""

    tasks: str | None = None
    holdout: str = "task"
    split: str | None = None
    level: int | str | None = None
    suite: str = "builtin"


def class_name(site: str, mode: str = "semantic") -> str:
    """``shopping`` -> ``WebMDPShoppingEnv``, ``cross-site`` -> ``WebMDPCrossSiteEnv``; in
    browser mode ``WebMDPShoppingBrowserEnv``."""
    words = "".join(p.capitalize() for p in re.split(r"[-_]", site))
    return f"WebMDP{words}{'Browser' if mode == 'browser' else ''}Env"


def method_name(action: str) -> str:
    """``AddToCart`` -> ``add_to_cart``; ``shopping.AddToCart`` -> ``shopping_add_to_cart``."""
    site, _, name = action.rpartition(".")
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()
    return f"{site}_{snake}" if site else snake


class WebMDPToolEnv:
    """The base of every generated class: one episode of the site's semantic MDP."""

    _site: str = ""
    _mode: str = "semantic"
    _reward: RewardMode = "terminal"
    _step_budget: int = DEFAULT_STEP_BUDGET
    _scope: _Scope = _Scope()

    def __init__(self) -> None:
        self._episode: RLEpisode | None = None
        self._seat: Any = None
        if self._mode == "browser":
            from webmdp.rl.browser import BrowserSeat

            self._seat = BrowserSeat()
            weakref.finalize(self, self._seat.close)  # its Chromium goes with the instance

    def reset(self, **row: Any) -> Any:
        """Start the task the dataset row names (``task_id``; other columns are ignored) and
        return its first observation after a blank line, since TRL appends it to the task's
        message (browser mode: the screenshot and text blocks, which TRL keeps apart)."""
        task_id = row.get("task_id")
        if not isinstance(task_id, str):
            raise ValueError("reset needs the row's task_id")
        scope = self._scope
        catalog = _catalog(self._site, scope.tasks, scope.holdout, scope.suite)
        task = catalog.task(task_id)
        if scope.split is not None and task.id not in _ids(catalog, scope.split, scope.level):
            raise ValueError(f"task {task_id!r} is not in split {scope.split!r}"
                             + ("" if scope.level is None else f" at level {scope.level}")
                             + f" (holdout {scope.holdout}): this environment refuses it")
        if self._episode is not None:
            self._episode.close()
        self._episode = RLEpisode(task, self._reward, mode=self._mode, agent="trl",
                                  step_budget=self._step_budget, seat=self._seat)
        view = self._view(self._episode.obs)
        # TRL appends this to the prompt's last message as it is: set it apart from the task
        return "\n\n" + view if isinstance(view, str) else view

    @property
    def success(self) -> bool:
        """The episode's exact verdict: True once it ended in success (a property, not a
        method: TRL offers every public method to the model as a tool)."""
        return self._episode is not None and self._episode.success is True

    def finish(self, answer: str | None = None) -> str:
        """End the episode: the task is done, or cannot be done.

        Args:
            answer: what the task asks to report (a value read from the pages, or the
                confirmation code a commit showed); omit it when nothing is asked.

        Returns:
            That the episode is over.
        """
        return self._act("finish" if self._mode == "browser" else "Finish", {"answer": answer})

    def get_reward(self) -> float:
        """The episode's reward so far (terminal: the verifier's 1 or 0 once it ended)."""
        return 0.0 if self._episode is None else self._episode.total

    def _act(self, name: str, params: dict[str, Any]) -> Any:
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
        return self._view(result.obs)

    def _view(self, obs: dict[str, Any]) -> Any:
        """The text, or in browser mode TRL's content blocks: the screenshot, then the text."""
        text = observation_text(obs, self._episode.task.site if self._episode else None)
        if self._mode != "browser":
            return text
        from PIL import Image

        image = Image.open(io.BytesIO(obs["screenshot"]))
        image.load()
        return [{"type": "image", "image": image}, {"type": "text", "text": text}]


@cache
def _catalog(site: str, tasks: str | None = None, holdout: str = "task",
             suite: str = "builtin") -> Catalog:
    return Catalog(site, tasks, Holdout.parse(holdout), suite)


@cache
def _ids(catalog: Catalog, split: str, level: int | str | None) -> frozenset[str]:
    return frozenset(t.id for t in catalog.tasks(split, level))


@cache
def _env_class(site: str, mode: str, reward: RewardMode, step_budget: int,
               scope: _Scope = _Scope()) -> type[WebMDPToolEnv]:
    from webmdp.core.registry import get_site

    if site not in _scopes():
        raise unknown("site", site, _scopes())
    namespace: dict[str, Any] = {"_site": site, "_mode": mode, "_reward": reward,
                                 "_step_budget": step_budget, "_scope": scope,
                                 "__doc__": f"webmdp's {site} site as TRL tools "
                                            f"({mode} mode, reward: {reward})."}
    if mode == "browser":
        namespace.update({name: _method(name, name, args, doc)
                          for name, (args, doc) in GUI_TOOLS.items()})
    else:
        for spec in get_site(site).actions:
            namespace[method_name(spec.name)] = _tool(spec)
    return type(class_name(site, mode), (WebMDPToolEnv,), namespace)


def _scopes() -> list[str]:
    """What one class can serve: every site and the cross-site suite (``all`` less itself)."""
    return [s for s in site_choices() if s != ALL]


def _tool(spec: ActionSpec) -> Any:
    """A method that takes a semantic action's parameters and steps the episode with it."""
    args = [Arg(p.name, _annotation(p), p.optional, "") for p in spec.params]
    return _method(method_name(spec.name), spec.name, args, _docstring(spec))


def _method(name: str, action: str, args: list[Arg], doc: str) -> Any:
    """A method ``name(self, *args)`` with a real signature (what TRL's schema builder reads)
    that steps the episode with ``action`` and the given arguments."""
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: dict[str, Any] = {"return": str}
    for a in sorted(args, key=lambda a: a.optional):
        annotations[a.name] = a.kind
        params.append(inspect.Parameter(a.name, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                        default=None if a.optional else inspect.Parameter.empty,
                                        annotation=a.kind))

    def tool(self: WebMDPToolEnv, *args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(self, *args, **kwargs)
        values = {k: v for k, v in bound.arguments.items() if k != "self"}
        return self._act(action, values)

    signature = inspect.Signature(params, return_annotation=str)
    tool.__signature__ = signature  # type: ignore[attr-defined]
    tool.__annotations__ = annotations
    tool.__name__ = tool.__qualname__ = name
    tool.__doc__ = doc
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
