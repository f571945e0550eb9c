"""The difficulty dial: tasks whose *measured* WebForge vector meets a request.

Each site has one fixed stream of candidate tasks beyond its built-in 180, in eight to ten
segments of :data:`SCAN` candidates that turn one knob each (:func:`segments`):

1. ``templates``: the site's templates, then its dial templates (visual information, Direct
   and Mixed answers), with the template's own catalogue;
2. ``small-catalogue``: the same templates in a world with no filler entities (only the
   target, its hard negatives and companions), so result lists are short (Jump Breadth and
   Info Complexity fall);
3. ``answers``: the answer variants of every template (:mod:`webmdp.tasks.variants`):
   ``direct`` (report a field of the target, change nothing), ``mixed`` (do the task and
   report it) and ``calc`` (report a multiple of its price: arithmetic);
4. ``answers-small-catalogue``: the answer variants in the small catalogue (read-only and
   short lists: where level 1 lives);
5. ``confirm-dialogs``: the templates with a confirmation dialog before each commit
   (:mod:`webmdp.core.dialog`: Risk Factor L2 where it was L3);
6. ``visual``: dial templates added to a site after its stream was published
   (``TaskTemplate.dial_segment``): accommodation's and food's visual templates. Shopping's
   and housing's are in the first segment, where they were from the start;
7. ``small-pages``: the templates with :data:`SMALL_PAGE` results per page on every listing
   (world meta ``page_size``); the oracle turns pages (``GoToPage``, or ``NextPage`` on mail)
   to reach each entity it opens, so Jump Breadth falls (fewer options on a page) and Page
   Interaction rises (the page turns are actions on the list page). A page turn stays on the
   same surface, so it is not a Jump Depth transition;
8. ``lookups`` (three times :data:`SCAN` candidates): the ``lookup`` variants (``direct`` by the
   shortest way, :mod:`webmdp.tasks.variants`) in sparse worlds
   (no fillers, nor a site's own background entities: ``WorldSpec.sparse``) with small
   pages and at most one hard negative: read-only look-ups on short lists and small pages,
   WebForge's level 1 ("direct lookup, read-only, no risk"), which needs at most one
   dimension above L1 (the grid suite, :mod:`webmdp.forge.grid`);
9. ``commits``: the templates that commit (Operation Code answers), their ``mixed`` variants,
   and the dial templates that name this segment (repo's look-up chores), in sparse worlds
   with small pages, at most one hard negative and a confirmation dialog before each commit:
   WebForge's level 1 for tasks that change something (Risk Factor L2, confirmed, and short
   lists), so that the domains whose work is a commit (moderation, operations, publishing)
   reach level 1 too;
10. ``analysis``: dial templates that name it, in their own worlds (shopping's
   ``report_biggest_price_drop``: Info Retrieval/Analysis at level 3).

Candidate ``k`` is world index ``DIAL_BASE + k``; within its segment, at offset ``j``, it is
template ``j mod T`` of the segment's ``T`` and ``(j div T) mod 4`` hard negatives, so the
stream also turns the hard-negative knob and the seeded world. A dial-made task is named by its
site, its measured level and its rank among the stream's tasks of that level:
``shopping_L3_0007`` is the eighth level-3 task of the shopping stream. That name is stable
whatever the request that found it, and :func:`resolve` rebuilds the task from it alone. (The
segments come in order, so the first segment's names did not change when the later ones were
added, and a template added to a published stream goes to an appended segment.)
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from webmdp.core.registry import get_site
from webmdp.core.site import Site
from webmdp.errors import ConfigError, GenerationError, unknown_choice
from webmdp.tasks.domains import domain_of
from webmdp.tasks.generate import MAX_HARD_NEGATIVES, make_task
from webmdp.tasks.model import DIMENSIONS, Task
from webmdp.tasks.variants import LOOKUP, SEP, modes

DIAL_BASE = 10_000
SCAN = 240
"""Candidates per segment of a site's stream (the dial looks at ``SCAN`` per segment, eight or
nine segments a site, before it gives up on a request)."""
SMALL_CATALOGUE = 0
"""Filler entities in the ``small-catalogue`` segment's worlds."""
SMALL_PAGE = 2
"""Results per page in the ``small-pages`` segment's worlds (the sites' own: 10-20)."""


@dataclass(frozen=True)
class Segment:
    """One knob of the stream: its templates, the catalogue size (``None``: the template's
    own), whether commits ask for confirmation (:mod:`webmdp.core.dialog`) and the results
    per page (``None``: the site's own)."""

    name: str
    templates: tuple[str, ...]
    catalogue: int | None = None
    confirm: bool = False
    page_size: int | None = None
    scan: int = 0
    """Candidates in the segment (0: :data:`SCAN`)."""
    sparse: bool = False
    """Worlds with nothing but the pinned entities (``WorldSpec.sparse``)."""
    max_hard_negatives: int = MAX_HARD_NEGATIVES
    """The hard-negative knob turns 0..this (a look-up lists at most two look-alikes)."""

    @property
    def size(self) -> int:
        """Candidates the segment holds (none when it has no template)."""
        return (self.scan or SCAN) if self.templates else 0


APPENDED = ("visual",)
"""Appended template segments, in order: each holds the dial templates that name it as their
``dial_segment`` (a site whose templates name none has none); ``small-pages`` and ``lookups``
follow them."""
LAST = "commits"
"""The segment after ``lookups``, which a dial template may also name as its
``dial_segment``; the RL pool stops before it (:func:`pool_candidates`)."""
TAIL = ("analysis",)
"""Template segments appended after ``commits``, in order: each holds the dial templates that
name it (a site whose templates name none has none), in the template's own worlds."""


def segments(site: Site) -> tuple[Segment, ...]:
    """The site's stream segments, in order (see the module docstring)."""
    late = {n: t.dial_segment for n, t in site.dial_templates.items()
            if t.dial_segment != "templates"}
    if unknown := set(late.values()) - {*APPENDED, LAST, *TAIL}:
        raise ConfigError(f"{site.name}: unknown dial segment(s) {sorted(unknown)}")
    names = tuple(n for n in (*site.templates, *site.dial_templates) if n not in late)
    coded = [n for n in names if site.template(n).answer_type == "operation_code"]
    commits = (*coded, *(n for n, s in late.items() if s == LAST))
    variants = tuple(f"{n}{SEP}{m}" for m in modes(site) for n in coded)

    def named(order: Sequence[str]) -> tuple[Segment, ...]:
        """The segments of ``order`` that dial templates name, each holding those templates."""
        return tuple(Segment(seg, tuple(n for n, s in late.items() if s == seg))
                     for seg in order if seg in late.values())

    return (Segment("templates", names), Segment("small-catalogue", names, SMALL_CATALOGUE),
            Segment("answers", variants), Segment("answers-small-catalogue", variants,
                                                  SMALL_CATALOGUE),
            Segment("confirm-dialogs", names, confirm=True),
            *named(APPENDED),
            Segment("small-pages", names, page_size=SMALL_PAGE),
            Segment("lookups", tuple(f"{n}{SEP}{LOOKUP}" for n in coded),
                    SMALL_CATALOGUE, page_size=SMALL_PAGE, scan=3 * SCAN, sparse=True,
                    max_hard_negatives=1),
            Segment(LAST, (*commits, *(f"{n}{SEP}mixed" for n in commits)), SMALL_CATALOGUE,
                    confirm=True, page_size=SMALL_PAGE, sparse=True, max_hard_negatives=1),
            *named(TAIL))


def pool_candidates(site: Site) -> int:
    """How many candidates of the stream the RL pool (:func:`webmdp.tasks.sources.
    dial_tasks`) takes its level-1 tasks from: the segments before ``commits``, which came
    after the splits were published, as did the :data:`TAIL` ones. A pool that grew with them
    would move published tasks between ``train`` and ``test`` (a site's template holdout is a
    fifth of its pool's templates)."""
    total = 0
    for seg in segments(site):
        if seg.name == LAST:
            break
        total += seg.size
    return total


def candidate_templates(site: Site) -> list[str]:
    """Every template name the site's stream draws from (variants included)."""
    return list(dict.fromkeys(n for seg in segments(site) for n in seg.templates))
DIAL_ID = re.compile(r"^(?P<site>[a-z]+)_L(?P<level>[123]|none)_(?P<rank>\d{4})$")


@dataclass(frozen=True)
class Request:
    """What the dial is asked for: an overall level, dimension levels, a domain."""

    level: int | None = None
    dims: Mapping[str, int] | None = None
    domain: str | None = None

    def wants(self, task: Task) -> bool:
        d = task.difficulty
        assert d is not None
        if self.level is not None and d.level != self.level:
            return False
        return all(d.of(k) == v for k, v in (self.dims or {}).items())

    def miss(self, task: Task) -> int:
        """How far the task's vector is from the request (0: it meets it)."""
        d = task.difficulty
        assert d is not None
        off = sum(abs(d.of(k) - v) for k, v in (self.dims or {}).items())
        if self.level is not None and d.level != self.level:
            off += 1 if d.level == "none" else abs(int(d.level) - self.level)
        return off


def parse_dims(text: str | None) -> dict[str, int]:
    """``depth=3,visual=2`` -> ``{"depth": 3, "visual": 2}``, with one-line errors."""
    out: dict[str, int] = {}
    for part in (text or "").split(","):
        if not part.strip():
            continue
        name, sep, value = part.partition("=")
        name = name.strip()
        if name not in DIMENSIONS:
            raise unknown_choice("dimension", name, list(DIMENSIONS))
        if not sep or value.strip() not in ("1", "2", "3"):
            raise ConfigError(f"--dims {part.strip()!r}: give NAME=LEVEL with LEVEL 1, 2 or 3")
        out[name] = int(value)
    return out


def stream(site: Site) -> Iterator[Task]:
    """The site's candidate tasks in order, each with its dial name (``site_L<level>_NNNN``)
    and measured difficulty; candidates no world fits are skipped."""
    ranks: dict[str, int] = {}
    for k, (seg, template, hn) in enumerate(_candidates(site)):
        try:
            task = make_task(site, DIAL_BASE + k, template, hn, catalogue=seg.catalogue,
                             confirm=seg.confirm, page_size=seg.page_size, sparse=seg.sparse)
        except GenerationError:
            continue
        assert task.difficulty is not None
        level = str(task.difficulty.level)
        rank = ranks.get(level, 0)
        ranks[level] = rank + 1
        yield task.model_copy(update={"id": f"{site.name}_L{level}_{rank:04d}"})


def _candidates(site: Site) -> Iterator[tuple[Segment, str, int]]:
    """(segment, template, hard negatives) of each candidate, in stream order."""
    for seg in segments(site):
        names = seg.templates
        for j in range(seg.size):
            yield seg, names[j % len(names)], (j // len(names)) % (seg.max_hard_negatives + 1)


def search(request: Request, sites: Sequence[str], limit: int) -> tuple[list[Task], list[Task]]:
    """Up to ``limit`` tasks meeting ``request``, taken in turn from each site's stream; and,
    when none does, the nearest candidates seen (one per distinct vector, nearest first)."""
    found: list[Task] = []
    near: dict[tuple[int, ...], Task] = {}
    if request.domain is not None:  # a site none of whose templates has the domain: skipped
        sites = [s for s in sites if any(domain_of(s, t) == request.domain
                                         for t in candidate_templates(get_site(s)))]
    streams = [stream(get_site(s)) for s in sites]
    while streams and len(found) < limit:
        for it in list(streams):
            task = next(it, None)
            if task is None:
                streams.remove(it)
                continue
            if request.domain is not None and domain_of(task.site, task.template) != \
                    request.domain:
                continue
            if request.wants(task):
                found.append(task)
                if len(found) == limit:
                    break
            elif task.difficulty is not None:
                near.setdefault(task.difficulty.vector, task)
    nearest = sorted(near.values(), key=lambda t: (request.miss(t), t.id))
    return found, nearest


def resolve(task_id: str) -> Task:
    """The dial-made task a ``site_L<level>_NNNN`` name stands for."""
    m = DIAL_ID.match(task_id)
    if not m:
        raise ConfigError(f"'{task_id}' is not a dial task name (SITE_L<1|2|3|none>_NNNN)")
    site = get_site(m["site"])
    for task in stream(site):
        if task.id == task_id:
            return task
    scanned = sum(seg.scan or SCAN for seg in segments(site))
    raise ConfigError(f"unknown task id '{task_id}': the {site.name} dial stream holds fewer "
                      f"level-{m['level']} tasks in its first {scanned} candidates")


def is_dial_id(task_id: str) -> bool:
    return DIAL_ID.match(task_id) is not None
