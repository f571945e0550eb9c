"""Mail task templates (WebSTEP H.1: Table 18 and five more)."""

from __future__ import annotations

import random
import sys
from typing import Any, ClassVar

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites._common.templates import TARGET, Params, PinnedTemplate, collect
from webmdp.sites.mail import catalog as C
from webmdp.sites.mail.world import MAX_AGE, address, company_of, email_of
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft, TaskTemplate
from webmdp.tasks.verifier import membership

N_THREADS = 34
Pins = tuple[list[Entity], Params]
"""Each pinned thread's own values (the target's first) and the task's params."""
ATTACHED = Action("ApplyFilter", {"filter": "has_attachment"})


def search(query: str) -> Action:
    return Action("SearchEmails", {"query": query})


def group(rng: random.Random, base: Entity, extras: list[Entity]) -> tuple[Entity, ...]:
    """Target (``extras[0]``) and hard negatives: identical on every card field (``base`` plus
    shared flags), distinct ages shuffled so the target's place among them varies."""
    files = rng.sample(C.ATTACHMENTS, 1) if rng.random() < 0.3 else []
    shared = {"starred": False, "labels": [], "read": rng.random() < 0.5,
              "n_earlier": rng.choice((0, 1, 2)), "attachments": files}
    ages = rng.sample(range(30, MAX_AGE // 2), len(extras))
    roles = ["target"] + ["hard_negative"] * (len(extras) - 1)
    return tuple({**shared, **base, **extra, "role": role, "age": age}
                 for extra, role, age in zip(extras, roles, ages, strict=True))


def same(e: Entity, p: Params) -> bool:
    """``e`` is from the group's sender under its subject."""
    return bool(e["from_name"] == p["sender"] and e["subject"] == p["subject"])


def labeled(d: Draft, label: str) -> list[Condition]:
    """The target carries ``label``; no hard negative does."""
    return [Condition(fact=f"labels.{d.target}", op="contains", value=label,
                      description=f"{d.target} is labelled {label!r}")] + [
        Condition(fact=f"labels.{h}", op="not_contains", value=label,
                  description=f"hard negative {h} is not labelled {label!r}")
        for h in d.hard_negatives]


def sent(d: Draft, mode: str, **fields: Any) -> list[Condition]:
    """Exactly one message was sent, of ``mode``, answering the target, with these fields."""
    out = [Condition(fact="sent.count", value=1, description="exactly one message sent"),
           Condition(fact="sent.0.mode", value=mode, description=f"it is a {mode}")]
    if mode != "new":
        out.append(Condition(fact="sent.0.thread", value=d.target,
                             description=f"it responds to {d.target}"))
    out += [Condition(fact=f"sent.0.{k}", value=v, description=f"{k} is {v!r}")
            for k, v in fields.items()]
    return out


class ThreadTemplate(PinnedTemplate):
    """Threads from one sender under one subject, in ``folder``, identical on every card field;
    ``pins`` gives each one's own values (the target's first) and the params. Fillers never
    share both sender and subject, so they cannot match."""

    ids = "THR-"
    opener = ("OpenThread", "CloseThread", "thread_id")
    folder = "inbox"
    unsaid: ClassVar[tuple[str, ...]] = ()
    """Words of the sentence that the task's params leave out."""

    def pins(self, rng: random.Random, k: int, sender: str, subject: str) -> Pins:
        raise NotImplementedError

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        subject, sender = rng.choice(list(C.SUBJECTS)), rng.choice(C.PEOPLE)
        extras, p = self.pins(rng, hard_negatives, sender, subject)
        base = {"from_name": sender, "subject": subject, "folder": self.folder}
        pinned = group(rng, base, extras)
        spec = WorldSpec(pinned, N_THREADS - len(pinned),
                         avoid=({"from_name": sender, "subject": subject},))
        return Draft(instruction=self.instruction(p), spec=spec, card_fields=self.card,
                     params={k: v for k, v in p.items() if k not in self.unsaid},
                     detail_fields=self.detail)

    def prefix(self, p: Params, world: World) -> list[Action]:
        return [search(p["subject"])]


class FindEmailExtract(ThreadTemplate):
    """Table 18: same sender and subject; only the body tells the target apart."""

    name = "find_email_extract"
    description = "Find the sender's email whose body mentions a keyword; star/archive/label it"
    commit_action = "Star"
    sentence = ("{sender} has sent you several similar emails. Find the one that mentions "
                "'{keyword}' in its body and {verb} it.")
    card, detail = ("from_name",), ("body",)

    def pins(self, rng: random.Random, k: int, sender: str, subject: str) -> Pins:
        stem = rng.choice(C.GREEK)
        words = [f"Project{stem}{n:03d}" for n in rng.sample(range(1, 100), k + 1)]
        line = rng.choice(C.KEYWORD_LINES)
        action = rng.choice(("star", "archive", "label"))
        label = rng.choice(C.LABELS)
        return [{"middle": line.format(w)} for w in words], {
            "sender": sender, "keyword": words[0], "action": action,
            "label": label if action == "label" else ""}

    def words(self, p: Params) -> Params:
        label = f"apply the label '{p['label']}' to"
        return {**p, "verb": label if p["action"] == "label" else p["action"]}

    def fits(self, e: Entity, p: Params) -> bool:
        return bool(e["from_name"] == p["sender"] and p["keyword"] in e["body"])

    def prefix(self, p: Params, world: World) -> list[Action]:
        return [search(p["sender"])]

    def commit(self, d: Draft, world: World) -> list[Action]:
        p, t = d.params, {"thread_id": d.target}
        return [{"star": Action("Star", t), "archive": Action("Archive", t),
                 "label": Action("AddLabel", {**t, "label": p["label"]})}[p["action"]]]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        action = d.params["action"]
        if action == "label":
            return labeled(d, d.params["label"])
        fact = "starred" if action == "star" else "archived"
        return membership(d, fact, fact)


class ReplyAfterExpanding(ThreadTemplate):
    """The decisive text is in an earlier, collapsed message: expand it, then reply."""

    name = "reply_after_expanding"
    description = "Reply to the thread where a colleague earlier suggested something"
    commit_action = "Send"
    sentence = ("{sender} has several threads titled '{subject}'. Reply to the one in which "
                "{colleague} earlier suggested {suggestion}, with the message: '{reply}'")
    card, detail = ("from_name", "subject"), ("messages",)
    inspect, unsaid = (Action("ExpandMessage", {"index": 0}),), ("colleague",)

    def pins(self, rng: random.Random, k: int, sender: str, subject: str) -> Pins:
        colleague = rng.choice([n for n in C.PEOPLE if n != sender])
        ideas = rng.sample(C.SUGGESTIONS, k + 1)
        preview = rng.choice(("Adding a few thoughts before we decide.",
                              "Circling back on the open question."))
        reply = rng.choice(C.REPLY_LINES)
        return [{"messages": [{"from_name": colleague, "preview": preview,
                               "extra": f"I'd suggest {idea}."}]} for idea in ideas], {
            "sender": sender, "subject": subject, "colleague": colleague,
            "suggestion": ideas[0], "reply": reply}

    def fits(self, e: Entity, p: Params) -> bool:
        return same(e, p) and any(p["suggestion"] in m["text"] for m in e["messages"])

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("Reply"), Action("SetBody", {"body": d.params["reply"]}), Action("Send")]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return sent(d, "reply", body=d.params["reply"])


class ForwardAttachment(ThreadTemplate):
    """Same sender, subject, attachment flag; the attachment's file name differs."""

    name = "forward_attachment"
    description = "Forward the email carrying a named attachment to an address"
    commit_action = "Send"
    sentence = ("{sender} sent you several '{subject}' emails with attachments. Forward the one "
                "that includes the file '{file}' to {to}.")
    card, detail = ("from_name", "subject", "has_attachment"), ("attachments",)

    def pins(self, rng: random.Random, k: int, sender: str, subject: str) -> Pins:
        files = rng.sample(C.ATTACHMENTS, k + 1)
        to = email_of(rng.choice([n for n in C.PEOPLE if n != sender]))
        return [{"attachments": [f]} for f in files], {
            "sender": sender, "subject": subject, "file": files[0], "to": to}

    def fits(self, e: Entity, p: Params) -> bool:
        return same(e, p) and p["file"] in e["attachments"]

    def prefix(self, p: Params, world: World) -> list[Action]:
        return [search(p["sender"]), ATTACHED]

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("Forward"), Action("AddRecipient", {"address": d.params["to"]}),
                Action("Send")]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return sent(d, "forward", to=[d.params["to"]])


class LabelByCc(ThreadTemplate):
    """Who was cc'd is only in the thread header."""

    name = "label_by_cc"
    description = "Label the email on which a given person was cc'd"
    commit_action = "AddLabel"
    sentence = ("Several '{subject}' emails from {sender} are in your inbox. Add the label "
                "'{label}' to the one on which {cc} was cc'd.")
    card, detail = ("from_name", "subject"), ("cc",)

    def pins(self, rng: random.Random, k: int, sender: str, subject: str) -> Pins:
        people = rng.sample([n for n in C.PEOPLE if n != sender], k + 1)
        label = rng.choice(C.LABELS)
        return [{"cc": [address(n)]} for n in people], {
            "sender": sender, "subject": subject, "cc": people[0], "label": label}

    def fits(self, e: Entity, p: Params) -> bool:
        return same(e, p) and any(c.startswith(p["cc"] + " <") for c in e["cc"])

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("AddLabel", {"thread_id": d.target, "label": d.params["label"]})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return labeled(d, d.params["label"])


class DeleteBySignature(ThreadTemplate):
    """A non-inbox folder plus a filter; the sender's signature (job title) decides."""

    name = "delete_by_signature"
    description = "In Archive with the attachment filter, delete the email signed with a title"
    commit_action, commit_with = "Delete", {"thread_id": TARGET}
    marked = ("deleted", "deleted")
    sentence = ("Go to your Archive and show only emails with attachments. Delete the "
                "'{subject}' email from {sender} in which they sign as {title}.")
    card = ("from_name", "subject", "folder", "has_attachment")
    detail, folder = ("signature",), "archive"

    def pins(self, rng: random.Random, k: int, sender: str, subject: str) -> Pins:
        titles = rng.sample(C.TITLES, k + 1)
        files = rng.sample(C.ATTACHMENTS, rng.choice((1, 2)))
        company = company_of(sender)
        return [{"attachments": files, "signature": f"{sender}\n{t} | {company}"}
                for t in titles], {"sender": sender, "subject": subject, "title": titles[0]}

    def fits(self, e: Entity, p: Params) -> bool:
        return bool(e["folder"] == "archive" and e["has_attachment"] and same(e, p)
                    and f"\n{p['title']} |" in e["signature"])

    def prefix(self, p: Params, world: World) -> list[Action]:
        return [Action("SwitchFolder", {"folder": "archive"}), ATTACHED]


class EmailReplyToAddress(ThreadTemplate):
    """Read two header fields (to, reply-to) of the right copy, then compose a new email."""

    name = "email_reply_to_address"
    description = "Find the copy sent to a mailing list and email its reply-to address"
    commit_action = "Send"
    sentence = ("{sender} sent '{subject}' to several mailing lists. Open the copy that went to "
                "{list} and send a new email to the reply-to address given in it, with the "
                "subject '{new_subject}'.")
    card, detail = ("from_name", "subject"), ("to", "reply_to")

    def pins(self, rng: random.Random, k: int, sender: str, subject: str) -> Pins:
        lists = rng.sample(C.MAILING_LISTS, k + 1)
        domain = email_of(sender).split("@")[1]
        boxes = [f"{b}@{domain}" for b in rng.sample(C.REPLY_BOXES, k + 1)]
        new_subject = rng.choice(C.NEW_SUBJECTS)
        return [{"to": [lst], "reply_to": box} for lst, box in zip(lists, boxes, strict=True)], {
            "sender": sender, "subject": subject, "list": lists[0], "reply_to": boxes[0],
            "new_subject": new_subject}

    def fits(self, e: Entity, p: Params) -> bool:
        return same(e, p) and p["list"] in e["to"]

    def commit(self, d: Draft, world: World) -> list[Action]:
        p = d.params
        return [Action("Compose"), Action("AddRecipient", {"address": p["reply_to"]}),
                Action("SetSubject", {"subject": p["new_subject"]}), Action("Send")]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return sent(d, "new", to=[d.params["reply_to"]], subject=d.params["new_subject"])


TEMPLATES: dict[str, TaskTemplate] = collect(sys.modules[__name__])
