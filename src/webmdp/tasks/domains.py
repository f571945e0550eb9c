"""WebForge's seven task domains (Table 1) and the one each template belongs to.

A site's templates share its domain unless the table below says otherwise: the domain is what
the task asks the user's work to be (buying, moderating, collaborating, looking up, running a
platform, using a tool, publishing), not which site it runs on.
"""

from __future__ import annotations

from webmdp.errors import unknown_choice
from webmdp.tasks.variants import base_name

DOMAINS = {
    "D1": "Consumer Transaction/Service",
    "D2": "Content Moderation/Compliance",
    "D3": "Enterprise Process/Collaboration",
    "D4": "Info Retrieval/Analysis",
    "D5": "Platform Management/Ops",
    "D6": "Tool Usage",
    "D7": "Content Creation/Publishing",
}

SITE_DOMAIN = {
    "shopping": "D1", "food": "D1", "accommodation": "D1", "housing": "D1", "jobs": "D1",
    "mail": "D3", "calendar": "D3", "chat": "D3", "qa": "D2", "repo": "D5",
}

TEMPLATE_DOMAIN = {
    ("accommodation", "abandon_checkout"): "D4",
    ("shopping", "report_product_price"): "D4",
    ("shopping", "report_biggest_price_drop"): "D4",
    ("jobs", "connect_alum_with_note"): "D3",
    ("jobs", "message_by_skill"): "D3",
    ("jobs", "connect_most_experienced"): "D3",
    ("jobs", "message_namesake"): "D3",
    ("jobs", "like_post_by_alum"): "D3",
    ("jobs", "message_post_author"): "D3",
    ("mail", "find_email_extract"): "D4",
    ("mail", "delete_by_signature"): "D2",
    ("chat", "delete_own_reacted_by"): "D2",
    ("chat", "edit_own_message"): "D7",
    ("chat", "post_in_channel_of_thread"): "D7",
    ("qa", "bookmark_by_environment"): "D4",
    ("qa", "user_question_by_error"): "D4",
    ("qa", "comment_by_code"): "D7",
    ("qa", "answer_unanswered"): "D7",
    ("qa", "comment_on_accepted_answer"): "D7",
    ("qa", "answer_and_bookmark"): "D7",
    ("repo", "search_language_most_forks"): "D6",
    ("repo", "topic_stars_license_branch"): "D6",
    ("repo", "watch_most_watched"): "D6",
    ("repo", "fork_default_branch"): "D6",
    ("repo", "create_issue_licensed_copy"): "D7",
    ("repo", "comment_on_assigned_issue"): "D7",
}


def domain_of(site: str, template: str) -> str:
    """The domain code (``D1``..``D7``) of a site's template (an answer variant ``BASE:MODE``
    keeps its base's: the work asked is the same). A site outside the tables (a plugin's)
    says its own (``Site.domain``)."""
    found = TEMPLATE_DOMAIN.get((site, base_name(template))) or SITE_DOMAIN.get(site)
    if found is None:
        from webmdp.core.registry import get_site

        found = check_domain(get_site(site).domain)
    return found


def check_domain(code: str) -> str:
    """``code`` (``D4``, ``d4`` or the domain's name), or a one-line error naming the valid ones."""
    for key, name in DOMAINS.items():
        if code.strip().lower() in (key.lower(), name.lower()):
            return key
    raise unknown_choice("domain", code, list(DOMAINS))
