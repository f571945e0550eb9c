"""Mail task templates (WebSTEP H.1: Table 18 and five more)."""

from __future__ import annotations

import random
from typing import Any

from webmdp.core.model import World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites.mail import catalog as C
from webmdp.sites.mail.world import MAX_AGE, address, company_of, email_of
from webmdp.tasks.listing import ranked_after
from webmdp.tasks.model import Condition
from webmdp.tasks.oracle import explore_then_open
from webmdp.tasks.template import Draft, TaskTemplate

N_THREADS = 34
OPEN = Action("OpenThread")
BACK = Action("CloseThread")
_KEYWORD_LINES = ("This one is for {}, so please keep it with the related files.",
                  "Note that it only covers {} for now.",
                  "The tracking code on our side is {}.")
_REPLY_BOXES = ("events", "billing", "support", "projects", "press", "partners", "finance",
                "office")


def _group(rng: random.Random, base: dict, extras: list[dict]) -> tuple[dict, ...]:
    """Target (``extras[0]``) and hard negatives: identical on every card field (``base`` plus
    shared flags), distinct ages shuffled so the target's place among them varies."""
    shared = {"starred": False, "labels": [], "read": rng.random() < 0.5,
              "n_earlier": rng.choice((0, 1, 2))}
    ages = rng.sample(range(30, MAX_AGE // 2), len(extras))
    roles = ["target"] + ["hard_negative"] * (len(extras) - 1)
    return tuple({**shared, **base, **extra, "role": role, "age": age}
                 for extra, role, age in zip(extras, roles, ages, strict=True))


def _spec(pinned: tuple[dict, ...], sender: str, subject: str) -> WorldSpec:
    """Fillers never share the group's sender and subject, so they cannot match."""
    return WorldSpec(pinned, N_THREADS - len(pinned),
                     avoid=({"from_name": sender, "subject": subject},))


def _subject_sender(rng: random.Random) -> tuple[str, str]:
    return rng.choice(list(C.SUBJECTS)), rng.choice(C.PEOPLE)


def _explore(d: Draft, world: World, site: Site, prefix: list[Action],
             inspect: tuple[Action, ...] = ()) -> list[Action]:
    ranked = ranked_after(site, world, prefix)
    return [*prefix, *explore_then_open(ranked, d.target, d.hard_negatives, open_action=OPEN,
                                        back=BACK, entity_param="thread_id", inspect=inspect)]


def _in_list(d: Draft, fact: str, what: str) -> list[Condition]:
    """The list fact holds the target and none of the hard negatives."""
    return [Condition(fact=fact, op="contains", value=d.target,
                      description=f"{d.target} is {what}")] + [
        Condition(fact=fact, op="not_contains", value=h,
                  description=f"hard negative {h} is not {what}") for h in d.hard_negatives]


def _labeled(d: Draft, label: str) -> list[Condition]:
    """The target carries ``label``; no hard negative does."""
    return [Condition(fact=f"labels.{d.target}", op="contains", value=label,
                      description=f"{d.target} is labelled {label!r}")] + [
        Condition(fact=f"labels.{h}", op="not_contains", value=label,
                  description=f"hard negative {h} is not labelled {label!r}")
        for h in d.hard_negatives]


def _sent(d: Draft, mode: str, **fields: Any) -> list[Condition]:
    out = [Condition(fact="sent.count", value=1, description="exactly one message sent"),
           Condition(fact="sent.0.mode", value=mode, description=f"it is a {mode}")]
    if mode != "new":
        out.append(Condition(fact="sent.0.thread", value=d.target,
                             description=f"it responds to {d.target}"))
    out += [Condition(fact=f"sent.0.{k}", value=v, description=f"{k} is {v!r}")
            for k, v in fields.items()]
    return out


class FindEmailExtract(TaskTemplate):
    """Table 18: same sender and subject; only the body tells the target apart."""

    name = "find_email_extract"
    description = "Find the sender's email whose body mentions a keyword; star/archive/label it"
    commit_action = "Star"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        subject, sender = _subject_sender(rng)
        stem = rng.choice(C.GREEK)
        words = [f"Project{stem}{n:03d}" for n in rng.sample(range(1, 100), hard_negatives + 1)]
        line = rng.choice(_KEYWORD_LINES)
        action = rng.choice(("star", "archive", "label"))
        label = rng.choice(C.LABELS)
        verb = f"apply the label '{label}' to" if action == "label" else action
        files = rng.sample(C.ATTACHMENTS, 1) if rng.random() < 0.3 else []
        base = {"from_name": sender, "subject": subject, "folder": "inbox", "attachments": files}
        pinned = _group(rng, base, [{"middle": line.format(w)} for w in words])
        return Draft(
            instruction=f"{sender} has sent you several similar emails. Find the one that "
                        f"mentions '{words[0]}' in its body and {verb} it.",
            params={"sender": sender, "keyword": words[0], "action": action,
                    "label": label if action == "label" else ""},
            spec=_spec(pinned, sender, subject),
            card_fields=("from_name",), detail_fields=("body",),
        )

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        return [i for i, e in world.entities.items()
                if e["from_name"] == p["sender"] and p["keyword"] in e["body"]]

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        p, t = d.params, {"thread_id": d.target}
        commit = {"star": Action("Star", t), "archive": Action("Archive", t),
                  "label": Action("AddLabel", {**t, "label": p["label"]})}[p["action"]]
        return [*_explore(d, world, site, [Action("SearchEmails", {"query": p["sender"]})]),
                commit]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        action = d.params["action"]
        if action == "label":
            return _labeled(d, d.params["label"])
        fact = "starred" if action == "star" else "archived"
        return _in_list(d, fact, fact)


class ReplyAfterExpanding(TaskTemplate):
    """The decisive text is in an earlier, collapsed message: expand it, then reply."""

    name = "reply_after_expanding"
    description = "Reply to the thread where a colleague earlier suggested something"
    commit_action = "Send"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        subject, sender = _subject_sender(rng)
        colleague = rng.choice([n for n in C.PEOPLE if n != sender])
        ideas = rng.sample(C.SUGGESTIONS, hard_negatives + 1)
        preview = rng.choice(("Adding a few thoughts before we decide.",
                              "Circling back on the open question."))
        reply = rng.choice(C.REPLY_LINES)
        base = {"from_name": sender, "subject": subject, "folder": "inbox"}
        pinned = _group(rng, base, [{"messages": [{"from_name": colleague, "preview": preview,
                                                   "extra": f"I'd suggest {idea}."}]}
                                    for idea in ideas])
        return Draft(
            instruction=f"{sender} has several threads titled '{subject}'. Reply to the one in "
                        f"which {colleague} earlier suggested {ideas[0]}, with the message: "
                        f"'{reply}'",
            params={"sender": sender, "subject": subject, "suggestion": ideas[0],
                    "reply": reply},
            spec=_spec(pinned, sender, subject),
            card_fields=("from_name", "subject"), detail_fields=("messages",),
        )

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        return [i for i, e in world.entities.items()
                if e["from_name"] == p["sender"] and e["subject"] == p["subject"]
                and any(p["suggestion"] in m["text"] for m in e["messages"])]

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        prefix = [Action("SearchEmails", {"query": d.params["subject"]})]
        expand = Action("ExpandMessage", {"index": 0})
        return [*_explore(d, world, site, prefix, (expand,)), Action("Reply"),
                Action("SetBody", {"body": d.params["reply"]}), Action("Send")]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return _sent(d, "reply", body=d.params["reply"])


class ForwardAttachment(TaskTemplate):
    """Same sender, subject, attachment flag; the attachment's file name differs."""

    name = "forward_attachment"
    description = "Forward the email carrying a named attachment to an address"
    commit_action = "Send"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        subject, sender = _subject_sender(rng)
        files = rng.sample(C.ATTACHMENTS, hard_negatives + 1)
        to = email_of(rng.choice([n for n in C.PEOPLE if n != sender]))
        base = {"from_name": sender, "subject": subject, "folder": "inbox"}
        pinned = _group(rng, base, [{"attachments": [f]} for f in files])
        return Draft(
            instruction=f"{sender} sent you several '{subject}' emails with attachments. "
                        f"Forward the one that includes the file '{files[0]}' to {to}.",
            params={"sender": sender, "subject": subject, "file": files[0], "to": to},
            spec=_spec(pinned, sender, subject),
            card_fields=("from_name", "subject", "has_attachment"),
            detail_fields=("attachments",),
        )

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        return [i for i, e in world.entities.items()
                if e["from_name"] == p["sender"] and e["subject"] == p["subject"]
                and p["file"] in e["attachments"]]

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        prefix = [Action("SearchEmails", {"query": d.params["sender"]}),
                  Action("ApplyFilter", {"filter": "has_attachment"})]
        return [*_explore(d, world, site, prefix), Action("Forward"),
                Action("AddRecipient", {"address": d.params["to"]}), Action("Send")]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return _sent(d, "forward", to=[d.params["to"]])


class LabelByCc(TaskTemplate):
    """Who was cc'd is only in the thread header."""

    name = "label_by_cc"
    description = "Label the email on which a given person was cc'd"
    commit_action = "AddLabel"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        subject, sender = _subject_sender(rng)
        people = rng.sample([n for n in C.PEOPLE if n != sender], hard_negatives + 1)
        label = rng.choice(C.LABELS)
        base = {"from_name": sender, "subject": subject, "folder": "inbox"}
        pinned = _group(rng, base, [{"cc": [address(n)]} for n in people])
        return Draft(
            instruction=f"Several '{subject}' emails from {sender} are in your inbox. Add the "
                        f"label '{label}' to the one on which {people[0]} was cc'd.",
            params={"sender": sender, "subject": subject, "cc": people[0], "label": label},
            spec=_spec(pinned, sender, subject),
            card_fields=("from_name", "subject"), detail_fields=("cc",),
        )

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        return [i for i, e in world.entities.items()
                if e["from_name"] == p["sender"] and e["subject"] == p["subject"]
                and any(c.startswith(p["cc"] + " <") for c in e["cc"])]

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        prefix = [Action("SearchEmails", {"query": d.params["subject"]})]
        return [*_explore(d, world, site, prefix),
                Action("AddLabel", {"thread_id": d.target, "label": d.params["label"]})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return _labeled(d, d.params["label"])


class DeleteBySignature(TaskTemplate):
    """A non-inbox folder plus a filter; the sender's signature (job title) decides."""

    name = "delete_by_signature"
    description = "In Archive with the attachment filter, delete the email signed with a title"
    commit_action = "Delete"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        subject, sender = _subject_sender(rng)
        titles = rng.sample(C.TITLES, hard_negatives + 1)
        files = rng.sample(C.ATTACHMENTS, rng.choice((1, 2)))
        base = {"from_name": sender, "subject": subject, "folder": "archive",
                "attachments": files}
        company = company_of(sender)
        pinned = _group(rng, base, [{"signature": f"{sender}\n{t} | {company}"} for t in titles])
        return Draft(
            instruction=f"Go to your Archive and show only emails with attachments. Delete the "
                        f"'{subject}' email from {sender} in which they sign as {titles[0]}.",
            params={"sender": sender, "subject": subject, "title": titles[0]},
            spec=_spec(pinned, sender, subject),
            card_fields=("from_name", "subject", "folder", "has_attachment"),
            detail_fields=("signature",),
        )

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        return [i for i, e in world.entities.items()
                if e["folder"] == "archive" and e["has_attachment"]
                and e["from_name"] == p["sender"] and e["subject"] == p["subject"]
                and f"\n{p['title']} |" in e["signature"]]

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        prefix = [Action("SwitchFolder", {"folder": "archive"}),
                  Action("ApplyFilter", {"filter": "has_attachment"})]
        return [*_explore(d, world, site, prefix), Action("Delete", {"thread_id": d.target})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return _in_list(d, "deleted", "deleted")


class EmailReplyToAddress(TaskTemplate):
    """Read two header fields (to, reply-to) of the right copy, then compose a new email."""

    name = "email_reply_to_address"
    description = "Find the copy sent to a mailing list and email its reply-to address"
    commit_action = "Send"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        subject, sender = _subject_sender(rng)
        lists = rng.sample(C.MAILING_LISTS, hard_negatives + 1)
        domain = email_of(sender).split("@")[1]
        boxes = [f"{b}@{domain}" for b in rng.sample(_REPLY_BOXES, hard_negatives + 1)]
        new_subject = rng.choice(C.NEW_SUBJECTS)
        base = {"from_name": sender, "subject": subject, "folder": "inbox"}
        pinned = _group(rng, base, [{"to": [lst], "reply_to": box}
                                    for lst, box in zip(lists, boxes, strict=True)])
        return Draft(
            instruction=f"{sender} sent '{subject}' to several mailing lists. Open the copy that "
                        f"went to {lists[0]} and send a new email to the reply-to address given "
                        f"in it, with the subject '{new_subject}'.",
            params={"sender": sender, "subject": subject, "list": lists[0],
                    "reply_to": boxes[0], "new_subject": new_subject},
            spec=_spec(pinned, sender, subject),
            card_fields=("from_name", "subject"), detail_fields=("to", "reply_to"),
        )

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        return [i for i, e in world.entities.items()
                if e["from_name"] == p["sender"] and e["subject"] == p["subject"]
                and p["list"] in e["to"]]

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        p = d.params
        prefix = [Action("SearchEmails", {"query": p["subject"]})]
        return [*_explore(d, world, site, prefix), Action("Compose"),
                Action("AddRecipient", {"address": p["reply_to"]}),
                Action("SetSubject", {"subject": p["new_subject"]}), Action("Send")]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return _sent(d, "new", to=[d.params["reply_to"]], subject=d.params["new_subject"])


TEMPLATES: dict[str, TaskTemplate] = {
    t.name: t for t in (FindEmailExtract(), ReplyAfterExpanding(), ForwardAttachment(),
                        LabelByCc(), DeleteBySignature(), EmailReplyToAddress())
}
