"""Mail task templates (WebSTEP H.1: Table 18 and five more)."""

from __future__ import annotations

import random

from webmdp.core.model import World
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites.mail import catalog as C
from webmdp.sites.mail import tasklib as L
from webmdp.sites.mail.world import address, company_of, email_of
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft, TaskTemplate


class FindEmailExtract(TaskTemplate):
    """Table 18: same sender and subject; only the body tells the target apart."""

    name = "find_email_extract"
    description = "Find the sender's email whose body mentions a keyword; star/archive/label it"
    commit_action = "Star"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        subject, sender = L.subject_sender(rng)
        stem = rng.choice(C.GREEK)
        words = [f"Project{stem}{n:03d}" for n in rng.sample(range(1, 100), hard_negatives + 1)]
        line = rng.choice(C.KEYWORD_LINES)
        action = rng.choice(("star", "archive", "label"))
        label = rng.choice(C.LABELS)
        verb = f"apply the label '{label}' to" if action == "label" else action
        base = {"from_name": sender, "subject": subject, "folder": "inbox"}
        pinned = L.group(rng, base, [{"middle": line.format(w)} for w in words])
        return Draft(
            instruction=f"{sender} has sent you several similar emails. Find the one that "
                        f"mentions '{words[0]}' in its body and {verb} it.",
            params={"sender": sender, "keyword": words[0], "action": action,
                    "label": label if action == "label" else ""},
            spec=L.spec(pinned, sender, subject),
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
        return [*L.explore(d, world, site, [Action("SearchEmails", {"query": p["sender"]})]),
                commit]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        action = d.params["action"]
        if action == "label":
            return L.labeled(d, d.params["label"])
        fact = "starred" if action == "star" else "archived"
        return L.in_list(d, fact, fact)


class ReplyAfterExpanding(TaskTemplate):
    """The decisive text is in an earlier, collapsed message: expand it, then reply."""

    name = "reply_after_expanding"
    description = "Reply to the thread where a colleague earlier suggested something"
    commit_action = "Send"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        subject, sender = L.subject_sender(rng)
        colleague = rng.choice([n for n in C.PEOPLE if n != sender])
        ideas = rng.sample(C.SUGGESTIONS, hard_negatives + 1)
        preview = rng.choice(("Adding a few thoughts before we decide.",
                              "Circling back on the open question."))
        reply = rng.choice(C.REPLY_LINES)
        base = {"from_name": sender, "subject": subject, "folder": "inbox"}
        pinned = L.group(rng, base, [{"messages": [{"from_name": colleague, "preview": preview,
                                                   "extra": f"I'd suggest {idea}."}]}
                                    for idea in ideas])
        return Draft(
            instruction=f"{sender} has several threads titled '{subject}'. Reply to the one in "
                        f"which {colleague} earlier suggested {ideas[0]}, with the message: "
                        f"'{reply}'",
            params={"sender": sender, "subject": subject, "suggestion": ideas[0],
                    "reply": reply},
            spec=L.spec(pinned, sender, subject),
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
        return [*L.explore(d, world, site, prefix, (expand,)), Action("Reply"),
                Action("SetBody", {"body": d.params["reply"]}), Action("Send")]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return L.sent(d, "reply", body=d.params["reply"])


class ForwardAttachment(TaskTemplate):
    """Same sender, subject, attachment flag; the attachment's file name differs."""

    name = "forward_attachment"
    description = "Forward the email carrying a named attachment to an address"
    commit_action = "Send"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        subject, sender = L.subject_sender(rng)
        files = rng.sample(C.ATTACHMENTS, hard_negatives + 1)
        to = email_of(rng.choice([n for n in C.PEOPLE if n != sender]))
        base = {"from_name": sender, "subject": subject, "folder": "inbox"}
        pinned = L.group(rng, base, [{"attachments": [f]} for f in files])
        return Draft(
            instruction=f"{sender} sent you several '{subject}' emails with attachments. "
                        f"Forward the one that includes the file '{files[0]}' to {to}.",
            params={"sender": sender, "subject": subject, "file": files[0], "to": to},
            spec=L.spec(pinned, sender, subject),
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
        return [*L.explore(d, world, site, prefix), Action("Forward"),
                Action("AddRecipient", {"address": d.params["to"]}), Action("Send")]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return L.sent(d, "forward", to=[d.params["to"]])


class LabelByCc(TaskTemplate):
    """Who was cc'd is only in the thread header."""

    name = "label_by_cc"
    description = "Label the email on which a given person was cc'd"
    commit_action = "AddLabel"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        subject, sender = L.subject_sender(rng)
        people = rng.sample([n for n in C.PEOPLE if n != sender], hard_negatives + 1)
        label = rng.choice(C.LABELS)
        base = {"from_name": sender, "subject": subject, "folder": "inbox"}
        pinned = L.group(rng, base, [{"cc": [address(n)]} for n in people])
        return Draft(
            instruction=f"Several '{subject}' emails from {sender} are in your inbox. Add the "
                        f"label '{label}' to the one on which {people[0]} was cc'd.",
            params={"sender": sender, "subject": subject, "cc": people[0], "label": label},
            spec=L.spec(pinned, sender, subject),
            card_fields=("from_name", "subject"), detail_fields=("cc",),
        )

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        return [i for i, e in world.entities.items()
                if e["from_name"] == p["sender"] and e["subject"] == p["subject"]
                and any(c.startswith(p["cc"] + " <") for c in e["cc"])]

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        prefix = [Action("SearchEmails", {"query": d.params["subject"]})]
        return [*L.explore(d, world, site, prefix),
                Action("AddLabel", {"thread_id": d.target, "label": d.params["label"]})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return L.labeled(d, d.params["label"])


class DeleteBySignature(TaskTemplate):
    """A non-inbox folder plus a filter; the sender's signature (job title) decides."""

    name = "delete_by_signature"
    description = "In Archive with the attachment filter, delete the email signed with a title"
    commit_action = "Delete"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        subject, sender = L.subject_sender(rng)
        titles = rng.sample(C.TITLES, hard_negatives + 1)
        files = rng.sample(C.ATTACHMENTS, rng.choice((1, 2)))
        base = {"from_name": sender, "subject": subject, "folder": "archive",
                "attachments": files}
        company = company_of(sender)
        pinned = L.group(rng, base, [{"signature": f"{sender}\n{t} | {company}"} for t in titles])
        return Draft(
            instruction=f"Go to your Archive and show only emails with attachments. Delete the "
                        f"'{subject}' email from {sender} in which they sign as {titles[0]}.",
            params={"sender": sender, "subject": subject, "title": titles[0]},
            spec=L.spec(pinned, sender, subject),
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
        return [*L.explore(d, world, site, prefix), Action("Delete", {"thread_id": d.target})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return L.in_list(d, "deleted", "deleted")


class EmailReplyToAddress(TaskTemplate):
    """Read two header fields (to, reply-to) of the right copy, then compose a new email."""

    name = "email_reply_to_address"
    description = "Find the copy sent to a mailing list and email its reply-to address"
    commit_action = "Send"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        subject, sender = L.subject_sender(rng)
        lists = rng.sample(C.MAILING_LISTS, hard_negatives + 1)
        domain = email_of(sender).split("@")[1]
        boxes = [f"{b}@{domain}" for b in rng.sample(C.REPLY_BOXES, hard_negatives + 1)]
        new_subject = rng.choice(C.NEW_SUBJECTS)
        base = {"from_name": sender, "subject": subject, "folder": "inbox"}
        pinned = L.group(rng, base, [{"to": [lst], "reply_to": box}
                                    for lst, box in zip(lists, boxes, strict=True)])
        return Draft(
            instruction=f"{sender} sent '{subject}' to several mailing lists. Open the copy that "
                        f"went to {lists[0]} and send a new email to the reply-to address given "
                        f"in it, with the subject '{new_subject}'.",
            params={"sender": sender, "subject": subject, "list": lists[0],
                    "reply_to": boxes[0], "new_subject": new_subject},
            spec=L.spec(pinned, sender, subject),
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
        return [*L.explore(d, world, site, prefix), Action("Compose"),
                Action("AddRecipient", {"address": p["reply_to"]}),
                Action("SetSubject", {"subject": p["new_subject"]}), Action("Send")]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return L.sent(d, "new", to=[d.params["reply_to"]], subject=d.params["new_subject"])


TEMPLATES: dict[str, TaskTemplate] = {
    t.name: t for t in (FindEmailExtract(), ReplyAfterExpanding(), ForwardAttachment(),
                        LabelByCc(), DeleteBySignature(), EmailReplyToAddress())
}
