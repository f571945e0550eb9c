"""Building blocks shared by the Job Network templates: pinned job and profile groups, the E.3
oracle prefixes, and the commits (save, Easy Apply, connect with a note, message, like) with
their parameter-by-parameter verifiers."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites._common.templates import Group, PinnedTemplate
from webmdp.sites._common.worldgen import pin_group
from webmdp.sites.jobs import vocab as V
from webmdp.sites.jobs.world import N_JOBS, N_PROFILES
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft
from webmdp.tasks.verifier import commit_conditions, membership


def spec(pinned: tuple[Entity, ...], avoid: tuple[Entity, ...]) -> WorldSpec:
    return WorldSpec(pinned, N_JOBS + N_PROFILES - len(pinned), avoid)


def decoy(kind: str, **fields: Any) -> Entity:
    """A pinned entity that is not a hard negative (it fails a card-visible or ranked
    constraint), there so superlatives compare against something."""
    return {"kind": kind, "role": "filler", **fields}


class GroupTemplate(PinnedTemplate):
    """A target and its hard negatives sharing ``base``; fillers avoid the base entirely, so
    the instruction's constraints single out the target among the pinned group."""

    kind, ids = "job", "JOB-"
    opener = ("OpenJob", "BackToJobs", "job_id")

    def group(self, rng: random.Random, k: int) -> Group:
        raise NotImplementedError

    def extra_params(self, rng: random.Random) -> dict[str, Any]:
        return {}

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        base, extra, negs, decoys, params = self.group(rng, hard_negatives)
        params = {**params, **self.extra_params(rng)}
        base = {"kind": self.kind, **base}
        group = pin_group(rng, base, extra, negs)
        avoid = ({k: v for k, v in base.items() if not isinstance(v, list)},)
        return self.compose(params, spec((*group, *decoys), avoid))


# -- commits ------------------------------------------------------------------------------------
class Save:
    """Commit: the Save button on the job page."""

    commit_action: ClassVar[str] = "SaveJob"

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("SaveJob")]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return membership(d, "saved", "saved")


class Apply:
    """Commit: Easy Apply with phone, resume and years of experience, each verified."""

    commit_action: ClassVar[str] = "SubmitApplication"

    def extra_params(self, rng: random.Random) -> dict[str, Any]:
        return {"phone": rng.choice(V.PHONES), "resume": rng.choice(V.RESUMES),
                "years": rng.randint(1, 12)}

    @staticmethod
    def form(p: dict[str, Any]) -> str:
        return (f"In Easy Apply, enter the phone number {p['phone']}, choose the resume "
                f"{p['resume']} and answer {p['years']} for years of experience.")

    def commit(self, d: Draft, world: World) -> list[Action]:
        p = d.params
        return [Action("OpenEasyApply"), Action("SubmitApplication", {
            "phone": p["phone"], "resume": p["resume"], "years": p["years"]})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        p = d.params
        return [*membership(d, "applied", "applied to"), *commit_conditions(
            f"application.{d.target}", {"phone": p["phone"], "resume": p["resume"],
                                        "years": p["years"]}, "application")]


class Connect:
    """Commit: Connect, then "Add a note" and send; the note is verified."""

    commit_action: ClassVar[str] = "SendInvitation"

    def extra_params(self, rng: random.Random) -> dict[str, Any]:
        return {"note": rng.choice(V.NOTES)}

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("OpenConnect"), Action("SendInvitation", {"note": d.params["note"]})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [*membership(d, "invited", "sent an invitation"),
                *commit_conditions(f"invitation.{d.target}", {"note": d.params["note"]},
                                   "invitation")]


class Message:
    """Commit: Message from the profile, then send the text; the text is verified."""

    commit_action: ClassVar[str] = "SendMessage"

    def extra_params(self, rng: random.Random) -> dict[str, Any]:
        return {"text": rng.choice(V.MESSAGES)}

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("MessageProfile"), Action("SendMessage", {"text": d.params["text"]})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [*membership(d, "messaged", "messaged"),
                Condition(fact=f"messages.{d.target}", op="contains", value=d.params["text"],
                          description=f"the message to {d.target} reads {d.params['text']!r}")]
