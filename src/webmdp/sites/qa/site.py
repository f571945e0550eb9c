"""The Coding Q&A site: a Stack Overflow-like programming Q&A site (WebSTEP Tables 4, 5, 8)."""

from __future__ import annotations

from webmdp.core.model import World
from webmdp.core.spec import ActionSpec, ParamSpec, declare_action
from webmdp.sites._common.site import CO, FI, INS, NAV, ModularSite, SiteLogic
from webmdp.sites._common.tasklib import shown
from webmdp.sites.qa import mdp, observe
from webmdp.sites.qa import vocab as V
from webmdp.sites.qa.bound import qa_bound, qa_informed
from webmdp.sites.qa.catalog import CATALOG
from webmdp.sites.qa.state import QAState
from webmdp.sites.qa.world import (
    ANSWER_FIELDS,
    QUESTION_CARD,
    QUESTION_DETAIL,
    USER_BRIEF,
    USER_PROFILE,
    generate_world,
)

POST = ParamSpec("post_id", "entity")
_a = declare_action

ACTIONS: tuple[ActionSpec, ...] = (
    *CATALOG.action_specs(),
    _a("OpenQuestion", "question_inspection", INS, ParamSpec("question_id", "entity")),
    _a("OpenUser", "user_inspection", INS, ParamSpec("user_id", "entity"),
       doc="a user's name or the header avatar: their profile"),
    _a("OpenTag", "tag_inspection", INS, ParamSpec("tag", "choice", V.TAGS),
       doc="a tag chip: the tag's page"),
    _a("GoBack", "back_navigation", NAV, doc="back to the page this one was opened from"),
    _a("ShowQuestions", "back_navigation", NAV, doc="the logo / Questions link"),
    _a("SortAnswers", "answer_sort_usage", FI, ParamSpec("order", "choice", V.ANSWER_ORDERS)),
    _a("Vote", "voting", CO, POST, ParamSpec("direction", "choice", ("up", "down")),
       doc="up or down arrow beside a question or answer; again to undo"),
    _a("PostAnswer", "answer_posting", CO, ParamSpec("body", "str", text=True)),
    _a("OpenCommentBox", "commenting", CO, POST, changes_state=False,
       doc="the 'Add a comment' link under a post"),
    _a("PostComment", "commenting", CO, POST, ParamSpec("body", "str", text=True)),
    _a("AcceptAnswer", "answer_acceptance", CO, ParamSpec("answer_id", "entity"),
       doc="the check mark, on the signed-in user's own questions"),
    _a("Bookmark", "bookmarking", CO, ParamSpec("question_id", "entity")),
)

_BRIEF = QUESTION_CARD + USER_BRIEF


class QASite(ModularSite[QAState]):
    name = "qa"
    title = "StackOverload"
    entity_prefix = "QST"
    example_params = {"query": "python", "body": "Try clearing the cache first.",
                      "min": 1, "max": 10}
    surfaces = observe.SURFACES
    actions = ACTIONS
    entity_fields = {  # kind (id prefix) -> field -> type: webmdp.core.entities
        "ANS": {"accepted": "bool", "author": "str", "author_id": "str", "body": "str",
            "id": "str", "posted": "str", "question_id": "str", "votes": "int"},
        "QST": {"accepted": "bool", "answer_count": "int", "asked": "str", "author": "str",
            "author_id": "str", "body": "str", "code": "str", "comments": "list",
            "environment": "str", "error": "str", "id": "str", "modified": "str", "phrase": "str",
            "popularity": "int", "tag": "str", "tags": "list", "title": "str", "token": "str",
            "topic": "str", "unanswered": "bool", "views": "int", "votes": "int", "year": "str"},
        "USR": {"about": "str", "badges": "list", "id": "str", "location": "str", "me": "bool",
            "member_since": "str", "name": "str", "reputation": "int"},
    }
    # evidence_gap (tasks.informed): a question page shows one question's detail fields; the next
    # is opened from a list (answers and users make no claim: a question page shows many).
    # (3: only a screen showing or naming an entity leads to its unread detail fields.)
    evidence_gap = {"QST": 3}
    visibility = shown(QUESTION_CARD, QUESTION_DETAIL, QuestionList=_BRIEF, TagPage=_BRIEF,
                       UserProfile=QUESTION_CARD + USER_PROFILE,
                       QuestionDetail=QUESTION_CARD + QUESTION_DETAIL + ANSWER_FIELDS + USER_BRIEF)

    state_class = QAState
    start_surface = "QuestionList"
    back_actions = dict.fromkeys(("QuestionDetail", "UserProfile", "TagPage"), "GoBack")
    logic = SiteLogic(generate_world, mdp.transition, observe.observe, observe.facts,
                      observe.available)
    distance_bound = staticmethod(qa_bound)
    informed_bound = staticmethod(qa_informed)

    def own_entities(self, world: World, ids: frozenset[str]) -> frozenset[str]:
        """Every entity: on Coding Q&A any question's page links its asker's profile and its
        tags, and a profile lists its user's questions, so the shortest way to a task's
        question may pass through any other question or user; and a question's answers are
        acted on from its page (an answer an agent accepted on a hard negative is taken back
        by AcceptAnswer again). A focused search here is the whole action space."""
        return frozenset(world.entities)
