"""The Mail site: a Gmail-like webmail client (WebSTEP Tables 4, 5, 7; template Table 18)."""

from __future__ import annotations

from functools import lru_cache

from webmdp.core.model import State, World
from webmdp.core.spec import ActionSpec, ParamSpec, SkillCategory, declare_action
from webmdp.sites._common.site import CO, FI, INS, NAV, SE, ModularSite, SiteLogic
from webmdp.sites._common.tasklib import shown
from webmdp.sites.mail import catalog as C
from webmdp.sites.mail import mdp, observe
from webmdp.sites.mail.available import available_actions
from webmdp.sites.mail.bound import mail_bound, mail_informed
from webmdp.sites.mail.state import MailState
from webmdp.sites.mail.world import CARD_FIELDS, DETAIL_FIELDS, generate_world

TID = ParamSpec("thread_id", "entity")
LABEL = ParamSpec("label", "choice", C.LABELS)
ADDR_TEXT = ParamSpec("address", "str", text=True)
ADDR = ParamSpec("address", "str")
IDX = ParamSpec("index", "int")
_a = declare_action


def _each(names: str, skill: str, cat: SkillCategory, *params: ParamSpec) -> list[ActionSpec]:
    return [_a(n, skill, cat, *params) for n in names.split()]


ACTIONS: tuple[ActionSpec, ...] = (
    _a("SwitchFolder", "folder_navigation", NAV, ParamSpec("folder", "choice", C.FOLDERS),
       doc="open a sidebar folder"),
    _a("OpenLabel", "folder_navigation", NAV, LABEL, doc="show threads with a label"),
    _a("NextPage", "pagination", NAV), _a("PrevPage", "pagination", NAV),
    _a("CloseThread", "backtrack_navigation", NAV, doc="back from a thread to the list"),
    _a("SearchEmails", "search_refinement", SE, ParamSpec("query", "str", text=True),
       doc="search all mail (words, from:, has:attachment, is:unread, label:)"),
    _a("ClearSearch", "search_refinement", SE),
    _a("ApplyFilter", "filter_application", FI, ParamSpec("filter", "choice", C.FILTERS)),
    _a("RemoveFilter", "filter_application", FI, ParamSpec("filter", "choice", C.FILTERS)),
    _a("ClearFilters", "filter_application", FI),
    _a("OpenThread", "thread_inspection", INS, TID),
    *_each("ExpandMessage CollapseMessage", "message_expansion", INS, IDX),
    *_each("ExpandAll CollapseAll", "message_expansion", INS),
    *_each("Star Unstar Archive Delete ReportSpam MoveToInbox MarkRead MarkUnread",
           "email_management", CO, TID),
    *_each("AddLabel RemoveLabel", "email_management", CO, TID, LABEL),
    *_each("SelectThread DeselectThread", "bulk_management", CO, TID),
    *_each("SelectAll ClearSelection BulkArchive BulkDelete BulkMarkRead BulkMarkUnread BulkStar",
           "bulk_management", CO),
    _a("BulkLabel", "bulk_management", CO, LABEL),
    *_each("Compose Reply ReplyAll Forward DiscardDraft", "compose_setup", CO),
    *_each("AddRecipient AddCc", "compose_field_entry", CO, ADDR_TEXT),
    *_each("RemoveRecipient RemoveCc", "compose_field_entry", CO, ADDR),
    _a("SetSubject", "compose_field_entry", CO, ParamSpec("subject", "str", text=True)),
    _a("SetBody", "compose_field_entry", CO, ParamSpec("body", "str", text=True)),
    _a("Send", "send_commit", CO, doc="send the open draft"),
)


class MailSite(ModularSite[MailState]):
    name = "mail"
    distance_bound = staticmethod(mail_bound)
    informed_bound = staticmethod(mail_informed)
    title = "Mailbox"
    entity_prefix = "THR"
    surfaces = observe.SURFACES
    actions = ACTIONS
    entity_fields = {  # kind (id prefix) -> field -> type: webmdp.core.entities
        "THR": {"age": "int", "attachments": "list", "body": "str", "cc": "list", "date": "str",
            "folder": "str", "from_email": "str", "from_name": "str", "full_date": "str",
            "has_attachment": "bool", "id": "str", "labels": "list", "message_count": "int",
            "messages": "list", "read": "bool", "reply_to": "str", "signature": "str",
            "snippet": "str", "starred": "bool", "subject": "str", "to": "list"},
    }
    example_params = {"query": "budget review", "address": "alex.doe@example.com",
                      "subject": "Quick question", "body": "Thanks, sounds good."}
    # evidence_gap (tasks.informed): an open thread shows one thread's body; the next is opened
    # from the list.
    # (3: only a screen showing or naming an entity leads to its unread detail fields.)
    evidence_gap = {"THR": 3}
    visibility = shown(CARD_FIELDS, DETAIL_FIELDS, ThreadList=CARD_FIELDS,
                       ThreadView=CARD_FIELDS + DETAIL_FIELDS, ComposeModal=observe.COMPOSE_FIELDS)

    state_class = MailState
    back_actions = {"ThreadView": "CloseThread"}
    logic = SiteLogic(generate_world, mdp.transition, observe.observe, observe.facts,
                      available_actions)

    def initial_state(self, world: World) -> State:
        return _initial_state(world)

    def alignment_state(self, state: State) -> State:
        """The notice ("Conversation archived.") is a one-step toast: shown, never read by a
        transition, gone after the next one."""
        assert isinstance(state, MailState)
        return state.replace(notice="") if state.notice else state


@lru_cache(maxsize=256)
def _initial_state(world: World) -> MailState:
    """The mailbox as the world files it (cached per world: states are immutable)."""
    ents = world.entities.values()

    def having(folder: str) -> frozenset[str]:
        return frozenset(e["id"] for e in ents if e["folder"] == folder)

    return MailState(
        surface="ThreadList", ids=tuple(world.entities),
        starred=frozenset(e["id"] for e in ents if e["starred"]),
        unread=frozenset(e["id"] for e in ents if not e["read"]),
        archived=having("archive"), trashed=having("trash"), spammed=having("spam"),
        sent_box=having("sent"),
        labels=tuple((e["id"], tuple(sorted(e["labels"]))) for e in ents if e["labels"]),
    )
