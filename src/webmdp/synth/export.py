"""Step-masked SFT export (WebSTAR 3.4, eq. 2): one training sample per kept step.

The seed trains the policy on (thought t_n, action a_n) given the instruction, *every* past
thought and action and the last w screenshots; only steps whose grade s_n > 5 enter the loss,
while every step stays in the context. A chat-format SFT sample has one loss target, so the
mask becomes the sample set: one sample per kept step (mean grade over its samples > cutoff),
whose context holds all earlier steps, kept or not, as text.

A sample:

- **system**: the grammar's own system prompt (the one ``webmdp`` agents send that family;
  for the json grammar in semantic mode, with the site's action list);
- **user**: the instruction, every earlier step as the text the grammar's model would have
  written for it (thought + action), then the last ``window`` distinct screenshots up to the
  page the step acted on (oldest first, the last is the current page), one ``<image>`` each;
- **assistant** (the target): the step's thought and action, written in the grammar (its
  module's ``write``, beside its parser), in the grammar's pixel convention: the image size
  its family is sent
  (``images.model_image_size``: 1428x896 smart-resized for uitars and qwen, the 1440x900
  viewport for json) and its default coordinates (``absolute``).

Screenshots are copied as recorded (1440x900, hard-linked when the file system allows): the
Qwen2-VL / UI-TARS processors smart-resize them to exactly the 1428x896 image the coordinates
are written for, provided the trainer does not cap the image below that (LlamaFactory:
``image_max_pixels >= 1279488``; :data:`MIN_IMAGE_PIXELS`).

Every written action is parsed back with the grammar's own parser (``parse_output``, what
``webmdp agents parse`` runs) and compared with the recorded action (:func:`same_action`,
within one unit of the grammar's coordinate space): a step whose action the grammar cannot
express (a qwen drag, a uitars triple click, an element-id click with no coordinates, a thought
that contains the grammar's own ``Action:`` marker) is never written as its target; it is
counted under ``skipped`` with the reason, and in the context of later steps it reads as a
plain description (``(click at (637, 30))``).

Thoughts: the trace's own ``notes.thought`` (a model agent's), else the thoughts side file of
``thoughts`` (``RUN/synth/thoughts-<source>.jsonl``; ``exact`` thoughts are made on the fly
when the file is missing, they need no model), else none (the action alone). By default
(``auto``) the thoughts ``webmdp synth thoughts`` made for the run are used when they exist
(``model``'s before ``exact``'s); ``none`` exports actions alone. ``export.json`` names the
source used (``thoughts``).

Semantic-mode traces have no pixels: they are exported with the json grammar only (their
``{"name", "params"}`` actions); with any other grammar they are skipped and counted. A
semantic sample's user turn is what the ``step`` model agent sends at that step, byte for
byte: the instruction, the earlier answers as the agent's history keeps them
(``History.trimmed``, :data:`HISTORY_TOKENS`; ``full_history``: every one, WebSTAR's eq. 2
form) and the current observation text, re-rendered by replaying the trace on the task's
world (:mod:`webmdp.synth.observations`), built by the agent's own prompt function
(:func:`webmdp.agents.llm.channels.chat_messages`). ``export.json`` says which form
(``history``, ``history_tokens``). Browser samples carry screenshots, not the accessibility
tree.

``all_steps`` is the trajectory-level export of the seed's Table 2 ("All steps"): every step
of every *successful* trajectory, no grades needed. The step-level export keeps steps from
every trajectory by default (exact grades make a good step of a failed rollout trustworthy);
``successful_only`` restricts it to successful trajectories, the seed's "Correct steps"
column, so the two columns of Table 2 compare on the same trajectories.

Output (``out``), written to a temporary directory beside it and renamed into place:
``data.json`` (sharegpt, llamafactory: a JSON list) or ``data.jsonl`` (jsonl), ``images/``,
``export.json`` (options, counts, system prompts, image size) and, for llamafactory,
``dataset_info.json``. An existing ``out`` is replaced only when it is an earlier export (it
holds ``export.json``) or empty.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from webmdp.agents.llm.agent import ModelAgentConfig
from webmdp.agents.llm.channels import chat_messages
from webmdp.agents.llm.grammars import get_grammar, grammar_info, grammar_names
from webmdp.agents.llm.grammars.base import VIEWPORT, ParseContext, parse_output
from webmdp.agents.llm.grammars.write import Space, Unwritable, gui, same_action
from webmdp.agents.llm.images import model_image_size
from webmdp.agents.llm.observe import History, ObservationConfig
from webmdp.core.spec import Action
from webmdp.env.actions import GUIAction
from webmdp.errors import ConfigError, unknown_choice
from webmdp.paths import under
from webmdp.redact import strict_dumps
from webmdp.synth.annotate import action_text, before_shots
from webmdp.synth.episodes import Episode, episodes, trace_paths
from webmdp.synth.observations import semantic_views
from webmdp.synth.sidefile import grade_rows, grades_path, read_rows, step_key, thoughts_path
from webmdp.trace import EpisodeTrace

Format = Literal["sharegpt", "llamafactory", "jsonl"]
FORMATS: tuple[str, ...] = ("sharegpt", "llamafactory", "jsonl")
IMAGE_TOKEN = "<image>"
DATASET_NAME = "webmdp"
MIN_IMAGE_PIXELS = 1428 * 896
"""The smart-resized viewport (uitars, qwen): a trainer must not cap images below it."""
THOUGHT_SOURCES = ("exact", "model")
HISTORY_TOKENS: int = ModelAgentConfig.history_tokens
"""The step agent's default history budget: a semantic sample keeps what it keeps."""


Formatter = Callable[[str, dict[str, Any], Space, str], str]
"""(thought, recorded action dict, pixel space, mode) -> the model's raw output; raises
:class:`Unwritable`. A grammar module's ``write`` (beside its parser); checked against it."""


def writer_of(grammar: str) -> Formatter | None:
    """The ``write`` function of ``grammar``'s module, if it has one."""
    module = importlib.import_module(grammar_info(grammar).module)
    found: Formatter | None = getattr(module, "write", None)
    return found


def supported_grammars() -> list[str]:
    """The grammars ``synth export`` writes: those whose module defines ``write``."""
    return [g for g in grammar_names() if writer_of(g) is not None]


class Writer:
    """Writes steps in one grammar and checks each against the grammar's parser."""

    def __init__(self, grammar: str):
        supported = supported_grammars()
        if grammar not in supported:
            other = [g for g in grammar_names() if g not in supported]
            raise ConfigError(f"unknown grammar {grammar!r} for export: supported grammars are "
                              f"{', '.join(supported)}" + (f" ({', '.join(other)} have no writer)"
                                                           if grammar in other else ""))
        self.name = grammar
        format_ = writer_of(grammar)
        assert format_ is not None
        self.format = format_
        self.info = grammar_info(grammar)
        self.grammar = get_grammar(grammar)
        self.space = Space(model_image_size(self.info.image_policy))
        self.contexts = {m: ParseContext(mode=m, image_size=self.space.image,  # type: ignore
                                         coords=self.grammar.default_coords)
                         for m in ("browser", "semantic")}

    def modes(self) -> tuple[str, ...]:
        return tuple(self.grammar.modes)

    def system(self, mode: str, actions_doc: str = "") -> str:
        return str(self.grammar.system_prompt(mode=mode, actions_doc=actions_doc))

    def write(self, thought: str, action: dict[str, Any], mode: str) -> str:
        """The raw output for (thought, action), parsed back and checked; raises
        :class:`Unwritable` when the grammar cannot carry it."""
        thought = thought.strip()
        text = self.format(thought, action, self.space, mode)
        parsed = parse_output(self.grammar, text, self.contexts[mode])
        if not parsed.ok or len(parsed.actions) != 1:
            raise Unwritable(f"does not parse back ({parsed.error or 'several actions'})")
        recorded: GUIAction | Action = (
            Action(action["name"], dict(action.get("params") or {})) if mode == "semantic"
            else gui(action))
        if not same_action(recorded, parsed.actions[0], self.space):
            raise Unwritable("parses back to another action")
        if parsed.thought.strip() != thought:
            raise Unwritable("the thought does not survive the grammar's syntax")
        return text


# -- grades and thoughts -----------------------------------------------------------------------
StepKey = tuple[str, str, str, int]


def load_grades(run: Path, source: str) -> dict[StepKey, float | None]:
    """Mean grade per step over its samples (None: no sample graded it)."""
    sums: dict[StepKey, list[float]] = {}
    for row in grade_rows(run, source):
        got = sums.setdefault(step_key(row), [])
        g = row.get("grade")
        if isinstance(g, int | float) and not isinstance(g, bool):
            got.append(float(g))
    return {k: (sum(v) / len(v) if v else None) for k, v in sums.items()}


def made_thoughts(run: Path) -> str | None:
    """The thought source ``webmdp synth thoughts`` made for the run, if any: ``model`` when
    its file exists (made on purpose, with a model), else ``exact``, else ``None``."""
    return next((src for src in ("model", "exact") if thoughts_path(run, src).is_file()), None)


class Thoughts:
    """Side-file thoughts of one source; ``exact`` ones made on the fly when the file is
    missing."""

    def __init__(self, run: Path, source: str | None):
        self.source = source
        self.rows: dict[StepKey, str] = {}
        self.live: Any = None
        if source is None:
            return
        if source not in THOUGHT_SOURCES:
            raise unknown_choice("thought source", source, THOUGHT_SOURCES)
        path = thoughts_path(run, source)
        if path.is_file():
            for row in read_rows(path):
                if isinstance(row.get("thought"), str) and row["thought"].strip():
                    self.rows[step_key(row)] = row["thought"]
        elif source == "exact":
            from webmdp.synth.thoughts import ExactThoughts

            self.live = ExactThoughts()
        else:
            raise ConfigError(f"{path}: no {source} thoughts yet; make them with `webmdp synth "
                              f"thoughts {run} --thoughts {source}`")

    def for_episode(self, ep: Episode) -> list[str]:
        """The thought of every step: the trace's own, else this source's, else ''."""
        live: dict[int, str] = {}
        if self.live is not None:
            for row in self.live.rows(ep.label, ep.mode, ep.trace, ep.task):
                if isinstance(row.get("thought"), str):
                    live[int(row["step"])] = row["thought"]
        out = []
        for i, step in enumerate(ep.trace.steps):
            own = step.notes.thought if step.notes is not None else None
            if own and own.strip():
                out.append(own)
            else:
                out.append(live.get(i) or self.rows.get((ep.label, ep.mode, ep.trace.task_id, i))
                           or "")
        return out


# -- the export --------------------------------------------------------------------------------
@dataclass
class ExportSummary:
    """What an export wrote. ``trajectories`` / ``steps``: the trajectories exported from and
    their steps; ``kept_steps``: steps selected as targets (grade > cutoff, or every step with
    ``all_steps``); ``samples``: targets written (kept steps the grammar can express);
    ``skipped``: reason -> count (semantic traces, failed trajectories, unwritable targets)."""

    path: str
    format: str
    grammar: str
    cutoff: float
    window: int
    grades: str | None
    thoughts: str | None
    all_steps: bool
    successful_only: bool
    history: str = "trimmed"
    """A semantic sample's earlier answers: ``trimmed`` (as the step agent keeps them,
    :data:`HISTORY_TOKENS`) or ``full`` (every earlier action: WebSTAR's eq. 2)."""
    trajectories: int = 0
    steps: int = 0
    kept_steps: int = 0
    ungraded_steps: int = 0
    samples: int = 0
    images: int = 0
    without_screenshots: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)

    def skip(self, why: str, n: int = 1) -> None:
        self.skipped[why] = self.skipped.get(why, 0) + n

    def line(self) -> str:
        what = "all steps of successful trajectories" if self.all_steps else \
            f"grade > {self.cutoff:g} ({self.grades})"
        skipped = ", ".join(f"{k} {v}" for k, v in sorted(self.skipped.items()))
        return (f"{self.trajectories} trajectories, {self.steps} steps, {self.kept_steps} kept "
                f"steps ({what}): {self.samples} samples, {self.images} images"
                + (f"; skipped: {skipped}" if skipped else "") + f" -> {self.path}")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class _Images:
    """Screenshots placed in ``images/`` once each (hard link, else copy)."""

    def __init__(self, root: Path):
        self.root = root
        self.done: dict[Path, str] = {}
        self.dirs: set[Path] = set()
        self.link = True

    def place(self, src: Path, name: str) -> str:
        if src in self.done:
            return self.done[src]
        rel = f"images/{name}"
        dst = under(self.root, rel)
        if dst.parent not in self.dirs:
            dst.parent.mkdir(parents=True, exist_ok=True)
            self.dirs.add(dst.parent)
        try:
            if self.link:
                try:
                    os.link(src, dst)
                except FileNotFoundError:
                    raise
                except OSError:  # another file system, or no hard links there
                    self.link = False
            if not self.link:
                shutil.copyfile(src, dst)
        except FileNotFoundError:
            raise ConfigError(f"{src}: screenshot missing") from None
        self.done[src] = rel
        return rel


def _window(shots: list[str | None], i: int, w: int) -> list[str]:
    """The last ``w`` distinct screenshots up to the one step ``i`` acted on, oldest first."""
    out: list[str] = []
    for rel in reversed(shots[:i + 1]):
        if len(out) >= w:
            break
        if rel is not None and (not out or out[-1] != rel) and rel not in out:
            out.append(rel)
    return out[::-1]


def _prompt(instruction: str, history: list[str], n_images: int) -> str:
    parts = [f"Task: {instruction}"]
    if history:
        parts.append(f"Previous steps ({len(history)}):\n\n" + "\n\n".join(
            f"[Step {n}]\n{text}" for n, text in enumerate(history, 1)))
    else:
        parts.append("Previous steps: none, this is the first step.")
    if n_images:
        label = "the current page" if n_images == 1 else \
            f"the last {n_images} pages, oldest first; the last is the current page"
        parts.append(f"Screenshot of {label}:\n" + "\n".join([IMAGE_TOKEN] * n_images))
    return "\n\n".join(parts)


def _check(run: Path, fmt: str, cutoff: float, window: int) -> None:
    if fmt not in FORMATS:
        raise unknown_choice("export format", fmt, FORMATS)
    if not 0 <= cutoff <= 10:
        raise ConfigError(f"--cutoff must be between 0 and 10, got {cutoff:g}")
    if window < 0:
        raise ConfigError(f"--window must be at least 0, got {window}")
    trace_paths(run)


def export(run: Path, out: Path, *, fmt: str = "sharegpt", cutoff: float = 5, window: int = 3,
           grammar: str = "uitars", grades: str = "exact", thoughts: str | None = "auto",
           all_steps: bool = False, successful_only: bool = False,
           full_history: bool = False) -> ExportSummary:
    """Export the run's kept steps as SFT samples into ``out`` (see the module doc)."""
    run, out = Path(run), Path(out)
    _check(run, fmt, cutoff, window)
    writer = Writer(grammar)
    grade_map: dict[StepKey, float | None] = {}
    if not all_steps or grades_path(run, grades).is_file():
        grade_map = load_grades(run, grades)
    thoughts = made_thoughts(run) if thoughts == "auto" else (
        None if thoughts == "none" else thoughts)
    thought_src = Thoughts(run, thoughts)
    summary = ExportSummary(str(out), fmt, grammar, cutoff, window,
                            grades if (not all_steps or grade_map) else None, thoughts,
                            all_steps, successful_only or all_steps,
                            "full" if full_history else "trimmed")
    _refuse_foreign(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp"))
    os.chmod(tmp, 0o777 & ~_umask())  # mkdtemp's 0700 would outlive the rename
    try:
        data_name = "data.jsonl" if fmt == "jsonl" else "data.json"
        images = _Images(tmp)
        systems: dict[str, str] = {}
        shapes: list[tuple[int, list[str]]] = []  # (text characters, images) per sample
        with (tmp / data_name).open("w", encoding="utf-8") as fh:
            first = True
            if fmt != "jsonl":
                fh.write("[\n")
            for sample in _samples(run, writer, summary, grade_map, thought_src, images,
                                   systems):
                shapes.append((len(sample["system"]) + len(sample["prompt"])
                               + len(sample["action_text"]), sample["images"]))
                if fmt == "jsonl":
                    plain = {k: v for k, v in sample.items() if k != "system"}
                    fh.write(json.dumps(plain, ensure_ascii=False) + "\n")
                else:
                    fh.write(("" if first else ",\n") + json.dumps(
                        _sharegpt(sample), ensure_ascii=False))
                first = False
            if fmt != "jsonl":
                fh.write("\n]\n")
        summary.images = len(images.done)
        summary.files = [data_name, "export.json"]
        if fmt == "llamafactory":
            info = dataset_info(data_name)
            (tmp / "dataset_info.json").write_text(json.dumps(info, indent=2) + "\n",
                                                   encoding="utf-8")
            summary.files.append("dataset_info.json")
            (tmp / "train.yaml").write_text(_train_yaml(tmp, out, shapes), encoding="utf-8")
            summary.files.append("train.yaml")
        if images.done:
            summary.files.append("images/")
        manifest = {**summary.to_json(), "run": str(run), "image_size": list(writer.space.image),
                    "coords": writer.grammar.default_coords, "viewport": list(VIEWPORT),
                    "min_image_pixels": MIN_IMAGE_PIXELS if grammar != "json" else None,
                    "history_tokens": None if full_history else HISTORY_TOKENS,
                    "system_prompts": systems}
        (tmp / "export.json").write_text(strict_dumps(manifest, indent=2, ensure_ascii=False)
                                         + "\n", encoding="utf-8")
        _swap(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return summary


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _train_yaml(tmp: Path, out: Path, shapes: list[tuple[int, list[str]]]) -> str:
    """LlamaFactory's config for this export (:mod:`webmdp.synth.llamafactory`)."""
    from PIL import Image

    from webmdp.synth import llamafactory as lf

    sizes: dict[str, tuple[int, int]] = {}
    for _, rels in shapes:
        for rel in rels:
            if rel not in sizes:
                with Image.open(tmp / rel) as im:
                    sizes[rel] = im.size
    max_pixels = max((w * h for w, h in sizes.values()), default=None)
    longest = max((lf.sample_tokens(chars, [sizes[r] for r in rels], max_pixels or 1)
                   for chars, rels in shapes), default=0)
    return lf.train_yaml(out, DATASET_NAME, image_max_pixels=max_pixels,
                         cutoff=lf.cutoff_len(longest))


def _samples(run: Path, writer: Writer, summary: ExportSummary,
             grade_map: dict[StepKey, float | None], thought_src: Thoughts, images: _Images,
             systems: dict[str, str]) -> Iterable[dict[str, Any]]:
    for ep in episodes(run):
        trace = ep.trace
        if ep.mode not in writer.modes():
            summary.skip(f"{ep.mode} trajectories ({writer.name} has no {ep.mode} actions; "
                         "use --grammar json)")
            continue
        if summary.successful_only and not trace.success:
            summary.skip("failed_trajectories")
            continue
        n = len(trace.steps)
        keys = [(ep.label, ep.mode, trace.task_id, i) for i in range(n)]
        step_grades = [grade_map.get(k) for k in keys]
        if summary.all_steps:
            kept = [True] * n
        else:
            kept = [g is not None and g > summary.cutoff for g in step_grades]
            summary.ungraded_steps += sum(g is None for g in step_grades)
        summary.trajectories += 1
        summary.steps += n
        summary.kept_steps += sum(kept)
        if not any(kept):
            continue
        thoughts = thought_src.for_episode(ep)
        texts: list[str | None] = []
        for i, step in enumerate(trace.steps):
            try:
                texts.append(writer.write(thoughts[i], step.action, ep.mode))
            except Unwritable as why:
                texts.append(None)
                if kept[i]:
                    summary.skip(f"unwritable: {why}")
        history = [t if t is not None else _described(thoughts[i], trace, i)
                   for i, t in enumerate(texts)]
        shots: list[str | None] = before_shots(trace) if ep.mode == "browser" else [None] * n
        if ep.mode == "browser" and not any(shots):
            summary.without_screenshots += 1
        system_key = f"{ep.mode}:{trace.site}" if ep.mode == "semantic" else ep.mode
        if system_key not in systems:
            systems[system_key] = _system(writer, ep)
        prompts: list[str] | None = None
        if ep.mode == "semantic":
            prompts = semantic_prompts(ep, systems[system_key], history,
                                       None if summary.history == "full" else HISTORY_TOKENS)
            if prompts is None:
                summary.skip("semantic trajectories the MDP no longer replays")
                continue
        for i in range(n):
            target = texts[i]
            if not kept[i] or target is None:
                continue
            rels = _window(shots, i, summary.window)
            placed = [images.place(under(ep.path.parent, rel),
                                   f"{ep.label}/{ep.mode}/{Path(rel).name}") for rel in rels]
            summary.samples += 1
            yield {
                "agent": ep.label, "mode": ep.mode, "task_id": trace.task_id, "step": i,
                "seed": trace.seed, "site": trace.site, "template": trace.template,
                "success": trace.success, "grade": step_grades[i], "kept": True,
                "grammar": writer.name, "system": systems[system_key],
                "instruction": ep.task.instruction,
                "history": [{"step": j, "text": history[j], "grade": step_grades[j],
                             "kept": kept[j]} for j in range(i)],
                "images": placed, "thought": thoughts[i].strip(), "action_text": target,
                "action": trace.steps[i].action,
                "prompt": prompts[i] if prompts is not None else
                _prompt(ep.task.instruction, history[:i], len(placed)),
            }


def semantic_prompts(ep: Episode, system: str, answers: list[str],
                     history_tokens: int | None) -> list[str] | None:
    """The user turn of every step of a semantic episode: what the ``step`` model agent sends
    at that step (:func:`webmdp.agents.llm.channels.chat_messages` over the re-rendered
    observation, :mod:`webmdp.synth.observations`), with the earlier ``answers`` as its
    history keeps them (``history_tokens``; ``None``: all of them). ``None`` when the trace no
    longer replays."""
    views = semantic_views(ep.trace, ep.task)
    if views is None:
        return None
    cfg = ObservationConfig(screenshot=False, history_images=0,
                            history_tokens=history_tokens or 10**12)
    out, past = [], History()
    for view, answer in zip(views, answers, strict=True):
        system_msg, user = chat_messages(system, past, view, cfg)
        assert system_msg.joined == system and user.role == "user"
        out.append(user.joined)
        past = past.add(None, answer)
    return out


def _described(thought: str, trace: EpisodeTrace, i: int) -> str:
    """A step the grammar cannot write, for the context of later steps."""
    step = trace.steps[i]
    what = action_text(step.action) if step.action else "invalid output"
    if step.error:
        what += f"; rejected: {step.error}"
    return (f"{thought.strip()}\n" if thought.strip() else "") + f"({what})"


def _system(writer: Writer, ep: Episode) -> str:
    if ep.mode == "semantic":
        from webmdp.agents.llm.grammars import json_grammar
        from webmdp.core.registry import get_site

        return writer.system("semantic", json_grammar.semantic_actions_doc(get_site(
            ep.trace.site)))
    return writer.system(ep.mode)


def _sharegpt(sample: dict[str, Any]) -> dict[str, Any]:
    """The ShareGPT / LlamaFactory record: one human turn, one gpt turn, images in order."""
    return {"conversations": [{"from": "human", "value": sample["prompt"]},
                              {"from": "gpt", "value": sample["action_text"]}],
            "system": sample["system"], "images": sample["images"],
            "meta": {k: sample[k] for k in ("agent", "mode", "task_id", "step", "grade")}}


def dataset_info(file_name: str, name: str = DATASET_NAME) -> dict[str, Any]:
    """LlamaFactory's ``dataset_info.json`` entry for the exported ShareGPT file."""
    return {name: {
        "file_name": file_name,
        "formatting": "sharegpt",
        "columns": {"messages": "conversations", "system": "system", "images": "images"},
        "tags": {"role_tag": "from", "content_tag": "value", "user_tag": "human",
                 "assistant_tag": "gpt", "system_tag": "system"},
    }}


def _refuse_foreign(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise ConfigError(f"{out}: exists and is not a directory")
    if out.is_dir() and any(out.iterdir()) and not (out / "export.json").is_file():
        raise ConfigError(f"{out}: not empty and not an earlier export; choose a new --out")


def _swap(tmp: Path, out: Path) -> None:
    """Put ``tmp`` at ``out``; an earlier export there is replaced only once the new one is
    complete."""
    if not out.exists():
        os.replace(tmp, out)
        return
    old = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.", suffix=".old"))
    os.replace(out, old / "export")
    try:
        os.replace(tmp, out)
    except BaseException:
        os.replace(old / "export", out)
        raise
    shutil.rmtree(old, ignore_errors=True)
