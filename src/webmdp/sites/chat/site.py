"""The Team Chat site: a Slack-like workspace of channels, threads and direct messages
(WebSTEP Tables 4, 5, 8)."""

from __future__ import annotations

from webmdp.core.spec import ActionSpec, ParamSpec, declare_action
from webmdp.sites._common.site import CO, INS, NAV, SE, ModularSite, SiteLogic
from webmdp.sites._common.tasklib import shown
from webmdp.sites.chat import mdp, observe
from webmdp.sites.chat import vocab as V
from webmdp.sites.chat.bound import chat_bound, chat_informed
from webmdp.sites.chat.catalog import CATALOG, PEOPLE
from webmdp.sites.chat.state import ChatState
from webmdp.sites.chat.world import CARD_FIELDS, DETAIL_FIELDS, generate_world

MSG = ParamSpec("message_id", "entity")
TEXT = ParamSpec("text", "str", text=True)
_a = declare_action


def _listing_actions() -> tuple[ActionSpec, ...]:
    """The catalog's search, filter, sort and paging actions; clearing the box is Table 8's
    ``search_clear``."""
    specs = CATALOG.action_specs()
    return tuple(_a(a.name, "search_clear", SE, doc=a.description)
                 if a.name == CATALOG.clear_search else a for a in specs)


ACTIONS: tuple[ActionSpec, ...] = (
    *_listing_actions(),
    _a("OpenChannel", "channel_navigation", NAV, ParamSpec("channel", "choice", V.CHANNELS)),
    _a("OpenDM", "dm_navigation", NAV, ParamSpec("member", "choice", V.MEMBERS)),
    _a("ShowOlderMessages", "scroll_navigation", NAV, doc="scroll up: load older messages"),
    _a("ShowNewerMessages", "scroll_navigation", NAV, doc="jump back to the newest messages"),
    _a("OpenResult", "thread_inspection", INS, MSG,
       doc="open a search result: its channel, with the message's thread pane"),
    _a("OpenThread", "thread_inspection", INS, MSG),
    _a("CloseThread", "thread_close", INS),
    _a("OpenMember", "member_inspection", INS, ParamSpec("member", "choice", PEOPLE)),
    _a("CloseMember", "member_close", INS),
    _a("SendMessage", "send_channel_message", CO, TEXT),
    _a("ReplyInThread", "send_thread_reply", CO, TEXT),
    _a("SendDM", "send_dm", CO, TEXT),
    _a("AddReaction", "message_reaction", CO, MSG,
       ParamSpec("emoji", "choice", V.EMOJI_NAMES)),
    _a("RemoveReaction", "message_reaction", CO, MSG,
       ParamSpec("emoji", "choice", V.EMOJI_NAMES)),
    _a("PinMessage", "message_pin", CO, MSG),
    _a("UnpinMessage", "message_pin", CO, MSG),
    _a("EditMessage", "message_edit", CO, MSG, TEXT),
    _a("DeleteMessage", "message_delete", CO, MSG),
    _a("MuteChannel", "channel_mute", CO, ParamSpec("channel", "choice", V.CHANNELS),
       doc="mute or unmute the open channel"),
    _a("RemindMe", "commit_timing", CO, MSG, ParamSpec("when", "choice", V.REMIND_TIMES),
       doc="remind me about this message"),
)

class ChatSite(ModularSite[ChatState]):
    name = "chat"
    title = "Huddle"
    entity_prefix = "MSG"
    example_params = {"query": "standup", "text": "Sounds good, thanks!"}
    surfaces = observe.SURFACES
    actions = ACTIONS
    entity_fields = {  # kind (id prefix) -> field -> type: webmdp.core.entities
        "MSG": {"author": "str", "channel": "str", "id": "str", "last_reply": "int",
            "pinned": "bool", "posted": "int", "reactions": "list", "reactors": "list",
            "repliers": "list", "replies": "list", "reply_count": "int", "text": "str",
            "thread_files": "list"},
    }
    # evidence_gap (tasks.informed): one thread's detail at a time, but a thread can open another
    # straight away.
    evidence_gap = {"MSG": 1}
    visibility = shown(CARD_FIELDS, DETAIL_FIELDS, ChannelView=CARD_FIELDS,
                       SearchResults=CARD_FIELDS, ThreadView=CARD_FIELDS + DETAIL_FIELDS,
                       DirectMessageView=(), MemberProfile=CARD_FIELDS)

    state_class = ChatState
    start_surface = "ChannelView"
    back_actions = {"ThreadView": "CloseThread", "MemberProfile": "CloseMember"}
    logic = SiteLogic(generate_world, mdp.transition, observe.observe, observe.facts,
                      observe.available)
    distance_bound = staticmethod(chat_bound)
    informed_bound = staticmethod(chat_informed)
