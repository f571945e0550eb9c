"""The Job Network site: a LinkedIn-like professional network (WebSTEP Tables 4, 5, 8)."""

from __future__ import annotations

from webmdp.core.model import State
from webmdp.core.spec import Action, ActionSpec, ParamSpec, declare_action
from webmdp.sites._common.site import CO, INS, NAV, SE, ModularSite, SiteLogic
from webmdp.sites._common.tasklib import shown
from webmdp.sites.jobs import mdp, observe
from webmdp.sites.jobs import vocab as V
from webmdp.sites.jobs.bound import jobs_bound, jobs_informed
from webmdp.sites.jobs.catalog import CATALOG
from webmdp.sites.jobs.state import JobsState
from webmdp.sites.jobs.world import (
    CARD_FIELDS,
    DETAIL_FIELDS,
    JOB_CARD,
    JOB_DETAIL,
    POST_FIELDS,
    PROFILE_CARD,
    PROFILE_DETAIL,
    generate_world,
)

PROFILE = ParamSpec("profile_id", "entity")
_a = declare_action

ACTIONS: tuple[ActionSpec, ...] = (
    _a("SearchPeople", "people_query_formulation", SE, ParamSpec("query", "str", text=True),
       doc="the header search box outside Jobs: people by name, title, company, city"),
    *CATALOG.action_specs(),
    _a("GoToFeed", "tab_navigation", NAV, doc="the Home tab: the feed"),
    _a("GoToJobs", "tab_navigation", NAV, doc="the Jobs tab"),
    _a("GoToNetwork", "tab_navigation", NAV, doc="the My Network tab: people"),
    _a("GoToMessaging", "tab_navigation", NAV, doc="the Messaging tab"),
    _a("BackToJobs", "tab_navigation", NAV, doc="back from a job to the results"),
    _a("BackToList", "tab_navigation", NAV, doc="back from a profile to where it was opened"),
    _a("CloseDialog", "tab_navigation", NAV, doc="dismiss Easy Apply or the connect dialog"),
    _a("OpenJob", "job_inspection", INS, ParamSpec("job_id", "entity")),
    _a("OpenProfile", "profile_inspection", INS, PROFILE),
    _a("SaveJob", "job_save_action", CO),
    _a("UnsaveJob", "job_save_action", CO),
    _a("OpenEasyApply", "job_application", CO, changes_state=False),
    _a("SubmitApplication", "job_application", CO, ParamSpec("phone", "str", text=True),
       ParamSpec("resume", "choice", V.RESUMES), ParamSpec("years", "int", text=True)),
    _a("OpenConnect", "connection_request", CO, changes_state=False),
    _a("SendInvitation", "connection_request", CO,
       ParamSpec("note", "str", text=True, optional=True)),
    _a("MessageProfile", "messaging", CO, changes_state=False,
       doc="the Message button: open a conversation with the member"),
    _a("OpenConversation", "conversation_management", CO, PROFILE, changes_state=False),
    _a("SendMessage", "messaging", CO, ParamSpec("text", "str", text=True)),
    _a("LikePost", "feed_interaction", CO, PROFILE, doc="like (or unlike) a member's post"),
)


class JobsSite(ModularSite[JobsState]):
    name = "jobs"
    title = "ProLink"
    entity_prefix = "JOB"
    example_params = {"query": "engineer", "phone": "415-555-0132", "resume": V.RESUMES[0],
                      "years": 5, "note": V.NOTES[0], "text": V.MESSAGES[0]}
    surfaces = observe.SURFACES
    actions = ACTIONS
    entity_fields = {  # kind (id prefix) -> field -> type: webmdp.core.entities
        "JOB": {"applicants": "int", "benefits": "list", "company": "str", "company_size": "str",
            "description": "str", "experience": "str", "id": "str", "job_type": "str",
            "kind": "str", "location": "str", "popularity": "int", "posted": "int",
            "salary": "int", "skills": "list", "team": "str", "title": "str", "workplace": "str"},
        "PRF": {"city": "str", "company": "str", "headline": "str", "id": "str", "kind": "str",
            "name": "str", "popularity": "int", "position": "str", "post": "str", "school": "str",
            "skills": "list", "topic": "str", "years": "int"},
    }
    # evidence_gap (tasks.informed): a job page shows one posting's detail fields, a profile
    # page one member's; the next is opened from a list (BackToList, then OpenProfile). A
    # member's post is a card field here (card_fields_of): the feed lists many.
    # (3: only a screen showing or naming an entity leads to its unread detail fields.)
    evidence_gap = {"JOB": 3, "PRF": 3}
    visibility = shown(CARD_FIELDS, DETAIL_FIELDS, Feed=POST_FIELDS, JobList=JOB_CARD,
                       JobDetail=JOB_CARD + JOB_DETAIL, ConnectionList=PROFILE_CARD,
                       ProfileView=PROFILE_CARD + PROFILE_DETAIL, Messaging=PROFILE_CARD)

    state_class = JobsState
    start_surface = "Feed"
    back_actions = {"JobDetail": "BackToJobs", "ProfileView": "BackToList"}
    logic = SiteLogic(generate_world, mdp.transition, observe.observe, observe.facts,
                      observe.available)
    distance_bound = staticmethod(jobs_bound)
    informed_bound = staticmethod(jobs_informed)

    def card_fields_of(self, kind: str) -> frozenset[str]:
        """A member's feed post shows on a list (the feed), so it counts as a card field."""
        cards = super().card_fields_of(kind)
        return cards | frozenset(POST_FIELDS) if kind == "PRF" else cards

    def browser_back(self, state: State) -> Action | None:
        if self.own(state).dialog:
            return Action("CloseDialog")
        return super().browser_back(state)
