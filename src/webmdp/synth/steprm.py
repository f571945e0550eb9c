"""StepRM: a step reward model distilled from step grades (WebSTAR 4.4, WebSCORE).

Three parts:

- :func:`build_data` turns a graded run into a training set: one example per graded GUI step,
  balanced 50/50 around the cutoff (kept = grade > cutoff, the training mask) by dropping
  examples of the larger class deterministically. The split is by task, so no task sits in both
  ``train`` and ``test``, and some sites are held out entirely (``heldout``), to measure how the
  model does on a site it never saw. ``DATA/{train,test,heldout}.jsonl`` and ``DATA/meta.json``
  are each written atomically, ``meta.json`` last (a directory with it is complete).
- The CPU model (:func:`train`, :func:`evaluate`): TF-IDF over the example's text (instruction,
  action, target element, page, history) and a few numeric features (repeats, overlap of the
  action's arguments with the instruction, commit / finish flags, ...) into a
  logistic regression for kept / not kept; its probability maps to a 0-10 grade that is above
  the cutoff exactly when the classifier says kept. It trains in seconds on CPU; saved with
  joblib plus a JSON card (``MODEL/card.json``).
- :class:`StepRMGrader`: a trained StepRM as a grader (``--grader steprm:PATH``, source name
  ``steprm``), its rows in the exact grader's format. A model directory whose card says
  ``kind: vlm`` (:mod:`webmdp.synth.steprm_vlm`) grades through the fine-tuned VLM.

An example keeps the raw inputs, not features, so other models (the VLM recipe) train on the
same files. It is a step key, a :class:`~webmdp.synth.preaction.PreActionView` and, in a data
set, the grade and ``kept`` as labels: the model judges a proposed action before it runs
(WebSTAR App. F), so nothing of the step's outcome (surface after, changed, revealed, its
error) is in an example, and every feature and prompt is computed from the view alone. It
never sees the verifier, the task's hidden target or the goal distance either.

scikit-learn is the optional extra ``webmdp[steprm]``; it is imported only when a model is
trained, evaluated or loaded.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import random
import re
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol

from pydantic import ValidationError

from webmdp.errors import ConfigError
from webmdp.redact import strict_dumps
from webmdp.synth.agreement import agreement
from webmdp.synth.episodes import episodes, trace_paths
from webmdp.synth.exact import Graded, grade_row
from webmdp.synth.preaction import PreActionView, pre_action_views
from webmdp.synth.sidefile import Row, grade_rows, step_key
from webmdp.tasks.model import Task
from webmdp.trace import EpisodeTrace

SPLITS = ("train", "test", "heldout")
DATA_VERSION = 2
"""2: examples hold a pre-action view only (:mod:`webmdp.synth.preaction`); version 1 held the
step's outcome (surface after, changed, revealed, error), i.e. hindsight, and is refused."""
MODEL_FILE = "model.joblib"
CARD_FILE = "card.json"
SOURCE = "steprm"
EXTRA_HINT = "pip install 'webmdp[steprm]'"
Example = dict[str, Any]
StepInput = Example | PreActionView
"""What a model grades: a data-set row / step example (its view is read) or a view."""


# --- examples ----------------------------------------------------------------------------------


def step_examples(trace: EpisodeTrace, task: Task, label: str, mode: str,
                  trace_path: Path | None = None) -> list[Example]:
    """One example per GUI step of a trace: its step key and its :class:`PreActionView` (what
    exists before the step runs; nothing of its outcome). No grade: :func:`build_data` adds
    it."""
    key = {"agent": label, "mode": mode, "task_id": trace.task_id, "site": trace.site,
           "template": trace.template, "seed": trace.seed}
    return [{**key, **view.model_dump(mode="json")}
            for view in pre_action_views(trace, task.instruction, trace_path)]


def example_row(ex: Example) -> Row:
    """The step key of an example as a grade row (agent, mode, task_id, step)."""
    return {"agent": ex["agent"], "mode": ex["mode"], "task_id": ex["task_id"],
            "step": ex["step"]}


def _rank(seed: int, *parts: object) -> str:
    """A stable pseudo-random order key (no dependence on PYTHONHASHSEED)."""
    return hashlib.sha256(repr((seed, *parts)).encode()).hexdigest()


def _balance(examples: list[Example], seed: int) -> list[Example]:
    """Half kept, half not: the larger class is cut to the smaller one's size, keeping the
    examples that come first in a seeded hash order; the result is in step-key order."""
    pos = [e for e in examples if e["kept"]]
    neg = [e for e in examples if not e["kept"]]
    n = min(len(pos), len(neg))

    def take(xs: list[Example]) -> list[Example]:
        return sorted(xs, key=lambda e: _rank(seed, *step_key(e)))[:n]

    return sorted(take(pos) + take(neg), key=step_key)


def build_data(run: Path, out: Path, *, cutoff: float = 5, grades: str = "exact",
               test_share: float = 0.2, holdout_sites: Sequence[str] | None = None,
               n_holdout_sites: int = 2, seed: int = 0) -> dict[str, Any]:
    """Build a StepRM data set from a graded run; returns the summary written to meta.json.

    Examples are the run's graded steps (ungraded ones are left out, counted). ``holdout_sites``
    names the sites held out, else ``n_holdout_sites`` are drawn with ``seed``. The remaining
    tasks are shuffled with ``seed`` and ``test_share`` of them (at least one when there are
    two or more) go to ``test``. Each split is then balanced 50/50 around ``cutoff``.
    """
    if not 0 <= cutoff <= 10:
        raise ConfigError(f"--cutoff must be between 0 and 10, got {cutoff:g}")
    if not 0 <= test_share < 1:
        raise ConfigError(f"--test-share must be at least 0 and below 1, got {test_share:g}")
    if n_holdout_sites < 0:
        raise ConfigError(f"--n-holdout must be at least 0, got {n_holdout_sites}")
    trace_paths(run)  # a run with no traces says so before its missing grades
    graded = {step_key(r): r for r in grade_rows(run, grades) if r.get("grade") is not None}
    examples: list[Example] = []
    steps = 0
    for ep in episodes(run):
        for ex in step_examples(ep.trace, ep.task, ep.label, ep.mode, ep.path):
            steps += 1
            row = graded.get(step_key(ex))
            if row is None:
                continue
            ex["grade"] = row["grade"]
            ex["kept"] = float(row["grade"]) > cutoff
            examples.append(ex)
    if not examples:
        raise ConfigError(f"{run}: none of its {steps} steps has a {grades} grade "
                          f"(run `webmdp synth grade {run}`)")
    sites = sorted({e["site"] for e in examples})
    if holdout_sites:
        unknown = sorted(set(holdout_sites) - set(sites))
        if unknown:
            raise ConfigError(f"--holdout {', '.join(unknown)}: not a site with graded "
                              f"steps in {run} (there: {', '.join(sites)})")
        held = sorted(set(holdout_sites))
    else:
        if n_holdout_sites >= len(sites):
            raise ConfigError(f"--n-holdout {n_holdout_sites}: the run has graded steps of "
                              f"{len(sites)} site(s) only; hold out fewer so some are left to "
                              "train on")
        held = sorted(random.Random(seed).sample(sites, n_holdout_sites))
    if set(held) >= set(sites):
        raise ConfigError("every site is held out; none is left to train on")
    tasks = sorted({e["task_id"] for e in examples if e["site"] not in held})
    random.Random(seed).shuffle(tasks)
    n_test = 0 if test_share == 0 else min(len(tasks) - 1, max(1, round(test_share * len(tasks))))
    test_tasks = set(tasks[:n_test])
    parts: dict[str, list[Example]] = {s: [] for s in SPLITS}
    for e in examples:
        split = ("heldout" if e["site"] in held else
                 "test" if e["task_id"] in test_tasks else "train")
        parts[split].append(e)
    before = {s: _counts(parts[s]) for s in SPLITS}
    balanced = {s: _balance(parts[s], seed) for s in SPLITS}
    if not balanced["train"]:
        raise ConfigError(f"{run}: the training split has no step on one side of cutoff "
                          f"{cutoff:g} (kept {before['train']['kept']}, not kept "
                          f"{before['train']['not_kept']}); grade more varied agents (e.g. "
                          "`-a random`) or move the cutoff")
    meta = {
        "version": DATA_VERSION, "run": str(run.resolve()), "grades": grades,
        "cutoff": cutoff, "split": "gt", "seed": seed, "test_share": test_share,
        "heldout_sites": held, "train_sites": [s for s in sites if s not in held],
        "test_tasks": sorted(test_tasks), "steps": steps, "graded": len(examples),
        "before_balance": before, "counts": {s: _counts(balanced[s]) for s in SPLITS},
        "made": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    out.mkdir(parents=True, exist_ok=True)
    (out / "meta.json").unlink(missing_ok=True)  # incomplete until rewritten last
    for s in SPLITS:
        _write_atomic(out / f"{s}.jsonl", "".join(
            json.dumps(e, sort_keys=True, ensure_ascii=False) + "\n" for e in balanced[s]))
    _write_atomic(out / "meta.json", strict_dumps(meta, indent=2, sort_keys=True) + "\n")
    return meta


def _counts(examples: Sequence[Example]) -> dict[str, int]:
    kept = sum(1 for e in examples if e["kept"])
    return {"n": len(examples), "kept": kept, "not_kept": len(examples) - kept,
            "tasks": len({e["task_id"] for e in examples})}


def _write_atomic(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _read_json(path: Path, missing: str, valid: Callable[[dict[str, Any]], bool],
               what: str) -> dict[str, Any]:
    """A JSON object file; one-line errors for a missing, unreadable or foreign one."""
    if not path.is_file():
        raise ConfigError(missing)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ConfigError(f"{path}: unreadable ({type(e).__name__})") from None
    if not isinstance(data, dict) or not valid(data):
        raise ConfigError(f"{path}: not {what}")
    return data


def read_meta(data_dir: Path) -> dict[str, Any]:
    """The data set's meta.json; a one-line error for a directory that is not a data set, or
    one of another version (version 1 holds each step's outcome: rebuild it)."""
    meta = _read_json(data_dir / "meta.json",
                      f"{data_dir}: not a StepRM data set (no meta.json; make one with "
                      "`webmdp synth steprm-data RUN --out DATA`)",
                      lambda d: "cutoff" in d, "a StepRM data set's meta.json")
    version = meta.get("version", 1)
    if version != DATA_VERSION:
        raise ConfigError(f"{data_dir}: a version-{version} StepRM data set (this install reads "
                          f"version {DATA_VERSION}: examples without the step's outcome); "
                          f"rebuild it with `webmdp synth steprm-data {meta.get('run', 'RUN')} "
                          f"--out {data_dir}`")
    return meta


def read_split(data_dir: Path, split: str) -> list[Example]:
    read_meta(data_dir)
    path = data_dir / f"{split}.jsonl"
    if not path.is_file():
        raise ConfigError(f"{data_dir}: {split}.jsonl is missing; rebuild the data set")
    out: list[Example] = []
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if line.strip():
                try:
                    ex = json.loads(line)
                    ex["grade"], ex["kept"], PreActionView.of_row(ex)
                except (json.JSONDecodeError, KeyError, TypeError, ValidationError) as e:
                    why = str(e).splitlines()[0] if str(e) else ""
                    raise ConfigError(f"{path}:{n}: not a StepRM example "
                                      f"({type(e).__name__}: {why})") from None
                out.append(ex)
    return out


# --- features ----------------------------------------------------------------------------------

_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset(["a", "an", "the", "of", "to", "in", "on", "for", "and", "or", "with", "is",
                   "are", "at", "by", "from", "it", "its", "this", "that", "be", "as"])


def _words(text: object) -> set[str]:
    return {w for w in _WORD.findall(str(text).lower()) if w not in _STOP and len(w) > 1}


def _param_words(params: object) -> set[str]:
    if isinstance(params, dict):
        return set().union(*(_words(v) for v in params.values())) if params else set()
    return set()


def _params(v: PreActionView) -> dict[str, Any]:
    """The proposed action's params, else those of the element it targets."""
    if v.action.params is not None:
        return v.action.params
    return v.target.params if v.target is not None else {}


def example_text(v: PreActionView) -> str:
    """The text the TF-IDF sees: tagged tokens for the action, its target element, the page and
    the history, and the instruction's words. Built from a pre-action view only."""
    a, t, page = v.action, v.target, v.page
    params = _params(v)
    toks = [f"kind:{a.kind}", f"act:{a.name or a.kind}", f"finish:{int(a.finish)}",
            f"surf:{page.surface}"]
    toks += [f"pkey:{k}" for k in sorted(params)]
    if t is not None:
        toks += [f"tact:{t.action}", f"cat:{t.category}", f"skill:{t.skill}",
                 f"on:{t.surface}", f"commits:{int(t.commits)}"]
    else:
        toks.append("target:none")
    if v.history:
        toks.append(f"prev:{_head(v.history[-1])}")
        toks += [f"hist:{_head(h)}" for h in v.history]
    else:
        toks.append("prev:none")
    words = [f"ins:{w}" for w in sorted(_words(v.instruction))]
    words += [f"pw:{w}" for w in sorted(_param_words(params))]
    if page.url:
        words += [f"url:{w}" for w in sorted(_words(page.url))]
    return " ".join(s.lower().replace(" ", "_") for s in toks + words)


def _head(action_text: str) -> str:
    """An action text's name: ``Search(query=..)`` -> ``Search``, ``click at (..)`` -> click."""
    return re.split(r"[(\s]", action_text.strip(), maxsplit=1)[0] or "?"


NUMERIC = ("log_step", "repeats", "prev_same", "same_target_before", "param_overlap",
           "param_any_overlap", "param_miss", "n_params", "no_target", "commits", "finish",
           "finish_after_commit", "finish_without_commit", "log_history_commits",
           "target_seen_before")
"""Version 1 also had log_revealed, revealed_overlap, rejected, no_change and a
surface_revisit read from the surface after: all outcomes of the step, now gone."""


def example_numbers(v: PreActionView) -> list[float]:
    """Numeric features in :data:`NUMERIC`'s order, from a pre-action view only."""
    hist, text, t = v.history, v.action.text, v.target
    params = _params(v)
    pw = _param_words(params)
    overlap = len(pw & _words(v.instruction)) / len(pw) if pw else 0.0
    finish, commits = v.action.finish, v.history_commits
    return [
        math.log1p(v.step),
        math.log1p(sum(1 for h in hist if h == text)),
        float(bool(hist) and hist[-1] == text),
        float(t is not None and text in hist),
        overlap, float(overlap > 0), float(bool(pw) and overlap == 0), float(len(params)),
        float(t is None), float(t is not None and t.commits), float(finish),
        float(finish and commits > 0), float(finish and commits == 0), math.log1p(commits),
        float(t is not None and any(_head(h) == t.action for h in hist)),
    ]


def as_view(ex: Example | PreActionView) -> PreActionView:
    """The pre-action view of an example row (or the view itself): all a model reads."""
    return ex if isinstance(ex, PreActionView) else PreActionView.of_row(ex)


# --- the CPU model -----------------------------------------------------------------------------


def _sklearn() -> Any:
    try:
        import sklearn  # noqa: F401
    except ImportError:
        raise ConfigError(f"StepRM needs scikit-learn: {EXTRA_HINT}") from None
    import sklearn as mod

    return mod


class CPUModel:
    """TF-IDF text + scaled numeric features -> logistic regression (kept / not kept); the
    probability of kept maps to a 0-10 grade consistent with the cutoff (:func:`to_grade`)."""

    def __init__(self, cutoff: float, c: float = 1.0, seed: int = 0):
        _sklearn()
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.linear_model import LogisticRegression
        from sklearn.preprocessing import StandardScaler

        self.cutoff = cutoff
        self.text = TfidfVectorizer(token_pattern=r"\S+", lowercase=False, sublinear_tf=True,
                                    min_df=1)
        self.scaler = StandardScaler()
        self.clf = LogisticRegression(C=c, max_iter=2000, class_weight="balanced",
                                      random_state=seed)

    def _matrix(self, examples: Sequence[StepInput], fit: bool = False) -> Any:
        import numpy as np
        from scipy.sparse import csr_matrix, hstack

        views = [as_view(e) for e in examples]
        texts = [example_text(v) for v in views]
        nums = np.asarray([example_numbers(v) for v in views], float)
        if fit:
            return hstack([self.text.fit_transform(texts),
                           csr_matrix(self.scaler.fit_transform(nums))]).tocsr()
        return hstack([self.text.transform(texts),
                       csr_matrix(self.scaler.transform(nums))]).tocsr()

    def fit(self, examples: Sequence[Example]) -> CPUModel:
        y = [bool(e["kept"]) for e in examples]
        if len(set(y)) < 2:
            raise ConfigError("the training split needs steps on both sides of the cutoff")
        self.clf.fit(self._matrix(examples, fit=True), y)
        return self

    def p_kept(self, examples: Sequence[StepInput]) -> list[float]:
        if not examples:
            return []
        proba = self.clf.predict_proba(self._matrix(examples))
        col = list(self.clf.classes_).index(True)
        return [float(p[col]) for p in proba]

    def grades(self, examples: Sequence[StepInput]) -> list[tuple[int, float]]:
        return [(to_grade(p, self.cutoff), p) for p in self.p_kept(examples)]


def to_grade(p_kept: float, cutoff: float) -> int:
    """The 0-10 grade of a probability of kept: ``round(10 p)``, moved just across the cutoff
    where needed so that grade > cutoff exactly when p > 0.5 (the classifier's decision)."""
    g = round(10 * p_kept)
    lo = math.floor(cutoff)  # the highest grade not kept
    if p_kept > 0.5:
        return max(min(lo + 1, 10), min(g, 10))
    return min(lo, max(g, 0))


def train(data_dir: Path, model_dir: Path, *, c: float = 1.0, seed: int = 0) -> dict[str, Any]:
    """Train the CPU StepRM on DATA/train.jsonl; write MODEL/model.joblib and MODEL/card.json
    (with the test and held-out figures); returns the card."""
    meta = read_meta(data_dir)
    train_ex = read_split(data_dir, "train")
    if not train_ex:
        raise ConfigError(f"{data_dir}: train.jsonl has no example")
    t0 = time.perf_counter()
    model = CPUModel(float(meta["cutoff"]), c=c, seed=seed).fit(train_ex)
    train_s = time.perf_counter() - t0
    import joblib
    import sklearn

    model_dir.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=model_dir, prefix=f".{MODEL_FILE}.", suffix=".tmp")
    os.close(fd)
    try:
        joblib.dump(model, tmp)
        os.replace(tmp, model_dir / MODEL_FILE)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    card: dict[str, Any] = {
        "kind": "cpu", "source": SOURCE, "model": "tfidf+numeric -> logistic regression",
        "data_version": DATA_VERSION,
        "cutoff": meta["cutoff"], "split": "gt", "grades": meta.get("grades"),
        "data": str(data_dir.resolve()), "train": _counts(train_ex),
        "heldout_sites": meta.get("heldout_sites", []), "numeric_features": list(NUMERIC),
        "vocabulary": len(model.text.vocabulary_), "C": c, "seed": seed,
        "train_s": round(train_s, 3), "sklearn": sklearn.__version__,
    }
    card["eval"] = _eval_examples(model, data_dir, meta)
    _write_atomic(model_dir / CARD_FILE, strict_dumps(card, indent=2, sort_keys=True) + "\n")
    return card


def train_vlm(model_dir: Path, data_dir: Path, out: Path, *, epochs: int = 1, lora_r: int = 16,
              lr: float = 2e-4, grad_accum: int = 1, seed: int = 0,
              max_examples: int | None = None, evaluate: bool = True) -> dict[str, Any]:
    """The VLM StepRM (:mod:`webmdp.synth.steprm_vlm`, extra ``webmdp[steprm-vlm]``): LoRA
    fine-tune the local VLM in ``model_dir`` on DATA/train.jsonl (``max_examples``: a seeded
    sample of it) to answer each step's grade; write ``out/adapter``, ``out/processor`` and
    ``out/card.json`` (``kind: vlm``, losses, and with ``evaluate`` the agreement on the test
    and held-out splits); return the card."""
    from webmdp.synth import steprm_vlm

    steprm_vlm._require()
    meta = read_meta(data_dir)
    train_ex = read_split(data_dir, "train")
    if not train_ex:
        raise ConfigError(f"{data_dir}: train.jsonl has no example")
    if max_examples is not None:
        train_ex = sorted(train_ex, key=lambda e: _rank(seed, *step_key(e)))[:max_examples]
    model, processor, stats = steprm_vlm.finetune(model_dir, train_ex, out, epochs=epochs,
                                                  lora_r=lora_r, lr=lr, grad_accum=grad_accum,
                                                  seed=seed)
    card: dict[str, Any] = {"kind": "vlm", "source": SOURCE, "data_version": DATA_VERSION,
                            "cutoff": meta["cutoff"],
                            "split": "gt", "grades": meta.get("grades"),
                            "data": str(data_dir.resolve()), "train": _counts(train_ex),
                            **stats}
    if evaluate:
        t0 = time.perf_counter()
        card["eval"] = _eval_examples(
            steprm_vlm.VLMScorer.of(model, processor, float(meta["cutoff"])), data_dir, meta)
        card["eval_s"] = round(time.perf_counter() - t0, 3)
    _write_atomic(out / CARD_FILE, strict_dumps(card, indent=2, sort_keys=True) + "\n")
    return card


def read_card(model_dir: Path) -> dict[str, Any]:
    """The model's card; a model trained on another data version is refused (its features or
    prompt differ, and a version-1 model learnt from the steps' outcomes)."""
    card = _read_json(model_dir / CARD_FILE,
                      f"{model_dir}: not a StepRM model (no {CARD_FILE}; train one with "
                      "`webmdp synth steprm train DATA --out MODEL`)",
                      lambda d: d.get("kind") in ("cpu", "vlm"), "a StepRM model card")
    version = card.get("data_version", 1)
    if version != DATA_VERSION:
        raise ConfigError(f"{model_dir}: trained on version-{version} StepRM data (this install "
                          f"reads version {DATA_VERSION}); rebuild the data set and train again")
    return card


def load_model(model_dir: Path) -> CPUModel:
    """The trained CPU model (a joblib pickle: load only models you trained or trust)."""
    read_card(model_dir)
    _sklearn()
    import joblib

    path = model_dir / MODEL_FILE
    if not path.is_file():
        raise ConfigError(f"{model_dir}: {MODEL_FILE} is missing; train again")
    try:
        model = joblib.load(path)
    except Exception as e:  # a pickle from another version or a damaged file
        raise ConfigError(f"{path}: cannot be loaded ({type(e).__name__}: {e}); "
                          "train again with this install") from None
    if not isinstance(model, CPUModel):
        raise ConfigError(f"{path}: not a StepRM CPU model")
    return model


class Scorer(Protocol):
    """A StepRM model: ``grades(examples) -> [(grade or None, p_kept or None)]``; a grade of
    None is a step the model gave no readable grade (the VLM), never guessed."""

    cutoff: float

    def grades(self, examples: Sequence[StepInput]) -> Sequence[tuple[int | None, float | None]]:
        ...


def scorer(model_dir: Path) -> Scorer:
    """The model of a StepRM directory, CPU or VLM, as something with ``grades(examples)``."""
    card = read_card(model_dir)
    if card["kind"] == "vlm":
        from webmdp.synth.steprm_vlm import VLMScorer

        return VLMScorer(model_dir)
    return load_model(model_dir)


def _eval_examples(model: Scorer, data_dir: Path, meta: dict[str, Any],
                   splits: Iterable[str] = ("test", "heldout")) -> dict[str, Any]:
    cutoff = float(meta["cutoff"])
    out: dict[str, Any] = {}
    all_a: list[Row] = []
    all_b: list[Row] = []
    for split in splits:
        ex = read_split(data_dir, split)
        a = [dict(example_row(e), grade=e["grade"]) for e in ex]
        b = [dict(example_row(e), grade=g) for e, (g, _) in zip(ex, model.grades(ex),
                                                                strict=True)]
        out[split] = _summary(agreement(a, b, cutoff=cutoff, split="gt",
                                        names=("exact", SOURCE)), ex, b)
        all_a += a
        all_b += b
    res = _summary(agreement(all_a, all_b, cutoff=cutoff, split="gt", names=("exact", SOURCE)),
                   [], all_b)
    res["splits"] = out
    res["cutoff"] = cutoff
    return res


def _summary(ag: dict[str, Any], examples: Sequence[Example], pred: Sequence[Row]
             ) -> dict[str, Any]:
    kept = Counter(bool(e["kept"]) for e in examples)
    out = {k: ag[k] for k in ("n", "agreement", "kappa", "spearman", "confusion")}
    out["ungraded"] = sum(1 for r in pred if r["grade"] is None)
    if examples:
        out["majority_rate"] = round(max(kept.values()) / len(examples), 4)
    return out


def evaluate(model_dir: Path, data_dir: Path) -> dict[str, Any]:
    """Agreement of a trained StepRM with the data set's grades (exact by default) on its test
    split and on the held-out sites: ``n``, ``agreement``, ``kappa`` over both, and
    ``splits.test`` / ``splits.heldout`` with the same plus Spearman's rho, the confusion
    matrix (rows: exact, columns: steprm) and the majority-class rate (0.5 when balanced)."""
    meta = read_meta(data_dir)
    card = read_card(model_dir)
    if float(card["cutoff"]) != float(meta["cutoff"]):
        raise ConfigError(f"the model was trained at cutoff {card['cutoff']} and the data set "
                          f"is split at {meta['cutoff']}; rebuild one of them")
    res = _eval_examples(scorer(model_dir), data_dir, meta)
    res["heldout_sites"] = meta.get("heldout_sites", [])
    res["kind"] = card["kind"]
    return res


# --- a trained StepRM as a grader --------------------------------------------------------------


class StepRMGrader:
    """Grades the steps of stored traces with a trained StepRM (``--grader steprm:PATH``);
    rows have the exact grader's format with source ``steprm`` and ``p_kept``, the model's
    probability that the step is above the cutoff."""

    source = SOURCE

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self.card = read_card(self.path)
        self.model = scorer(self.path)

    def rows(self, label: str, mode: str, trace: EpisodeTrace, task: Task,
             trace_path: Path | None = None) -> list[Row]:
        examples = step_examples(trace, task, label, mode, trace_path)
        out: list[Row] = []
        for i, (g, p) in enumerate(self.model.grades(examples)):
            row = grade_row(label, mode, trace, i,
                            Graded(g, SOURCE if g is not None else "unparseable"), SOURCE)
            if p is not None:
                row["p_kept"] = round(p, 4)
            row["model"] = str(self.path)
            out.append(row)
        return out
