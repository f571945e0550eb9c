"""Job Network semantic state: job search position, open job / profile, dialogs, and the
member's commits (saved jobs, applications, invitations, messages, likes)."""

from __future__ import annotations

from dataclasses import dataclass

from webmdp.sites._common.catalog import BrowseState

Application = tuple[str, str, str, int]
"""(job id, phone, resume, years of experience) as submitted in Easy Apply."""
Invitation = tuple[str, str]
"""(profile id, note)."""
Message = tuple[str, str]
"""(profile id, text)."""


@dataclass(frozen=True)
class JobsState(BrowseState):
    people_query: str = ""
    origin: str = ""
    """The list a profile was opened from (ConnectionList or Feed): where Back returns."""
    dialog: str = ""
    """An open modal over the detail surface: ``apply`` (Easy Apply) or ``connect``."""
    conversation: str = ""
    saved: tuple[str, ...] = ()
    applications: tuple[Application, ...] = ()
    invitations: tuple[Invitation, ...] = ()
    messages: tuple[Message, ...] = ()
    liked: tuple[str, ...] = ()
