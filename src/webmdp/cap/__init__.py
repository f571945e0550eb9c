"""CAP's site cards (CAP 3.1, Appendix B): the taxonomy of complex action and perception types,
and each site's card ``<F, A, P>`` derived from its declarations and rendered views."""

from webmdp.cap.cards import (
    ExecutionItem,
    Function,
    PerceptionItem,
    SiteCard,
    build_card,
    card_problems,
    coverage,
    site_card,
)
from webmdp.cap.taxonomy import (
    ACTION_CATEGORIES,
    ACTION_TYPES,
    PERCEPTION_CATEGORIES,
    PERCEPTION_TYPES,
    ActionType,
    PerceptionType,
    action_type,
    perception_type,
)

__all__ = [
    "ACTION_CATEGORIES",
    "ACTION_TYPES",
    "PERCEPTION_CATEGORIES",
    "PERCEPTION_TYPES",
    "ActionType",
    "ExecutionItem",
    "Function",
    "PerceptionItem",
    "PerceptionType",
    "SiteCard",
    "action_type",
    "build_card",
    "card_problems",
    "coverage",
    "perception_type",
    "site_card",
]
