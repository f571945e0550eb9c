"""Team Chat vocabulary: the workspace's members and channels, message texts, thread replies,
keywords, shared files, reaction emoji and reminder times."""

from __future__ import annotations

ME = "Sam Rivera"
"""The signed-in user: "your" messages are the ones they posted."""
MEMBERS: tuple[str, ...] = (
    "Priya Patel", "Marcus Chen", "Elena Rossi", "Omar Haddad", "Grace Kim", "Leo Martins",
    "Aisha Bello", "Tom Fischer", "Nina Kowalski", "Diego Alvarez", "Hana Sato", "Ben Carter",
)
TITLES: dict[str, str] = {
    "Priya Patel": "Product Manager", "Marcus Chen": "Staff Engineer",
    "Elena Rossi": "Design Lead", "Omar Haddad": "Data Scientist",
    "Grace Kim": "Engineering Manager", "Leo Martins": "Frontend Engineer",
    "Aisha Bello": "Customer Success", "Tom Fischer": "DevOps Engineer",
    "Nina Kowalski": "Marketing Lead", "Diego Alvarez": "Backend Engineer",
    "Hana Sato": "QA Engineer", "Ben Carter": "Sales Director", ME: "Product Designer",
}
COLORS: tuple[str, ...] = ("#e8912d", "#2bac76", "#1d9bd1", "#e01e5a", "#9f5fd1", "#4a90e2",
                           "#d8572a", "#3aa3a3", "#c2185b", "#5b8c3a", "#8a6d3b", "#607d8b",
                           "#1264a3")
CHANNELS: tuple[str, ...] = ("general", "engineering", "design", "marketing", "support",
                             "releases", "random")
TOPICS: dict[str, str] = {
    "general": "Company-wide announcements and work-based matters",
    "engineering": "Builds, reviews and on-call handoffs",
    "design": "Critiques, specs and the design system",
    "marketing": "Campaigns, launches and content calendar",
    "support": "Escalations and customer feedback",
    "releases": "Release trains, changelogs and rollbacks",
    "random": "Non-work banter and water cooler conversation",
}
BUSY_CHANNEL = "general"
TASK_CHANNELS: tuple[str, ...] = CHANNELS[1:]
RECURRING: tuple[str, ...] = (
    "Daily standup thread", "Weekly sync notes", "Deploy checklist for today",
    "Design critique: feedback thread", "On-call handoff", "Sprint retro notes",
    "Customer escalation summary", "Release notes draft", "Roadmap questions thread",
    "Bug triage for this week", "Campaign brief review", "Office hours recap",
)
"""Texts posted again and again by the same person: a task's target and its hard negatives
share one, so the card alone cannot tell them apart."""
FILLER_TEXTS: tuple[str, ...] = (
    "Morning all! Coffee machine on 3 is fixed.", "Can someone review my PR when you get a sec?",
    "Heads up: the wiki will be read-only tonight from 9 to 10.",
    "Great demo yesterday, thanks everyone.", "Who owns the onboarding doc these days?",
    "Reminder: expense reports are due Friday.", "Lunch order going out at 12:15.",
    "I'll be out Thursday afternoon, ping me on mobile if urgent.",
    "New hire joining the team on Monday, say hi!", "Does anyone have the Figma link handy?",
    "The build is green again.", "Moving our 1:1s to Wednesdays starting next week.",
    "Quick poll: pizza or tacos for the offsite?", "Shared the slides in the drive folder.",
    "Has anyone seen flaky tests in the payments suite?", "Thanks for covering for me today!",
    "Dashboard numbers look off for yesterday, checking.", "Welcome to the channel, folks.",
    "Can we push the review to 3pm?", "Updated the FAQ with the new pricing.",
    "Anyone up for a walk at 4?", "Docs are live on the portal.",
    "Looking for a volunteer to run Friday's demo.", "Closing the ticket, it was a cache issue.",
)
GENERIC_REPLIES: tuple[str, ...] = (
    "Looks good to me.", "I'll take a look after lunch.", "+1, agreed.",
    "Can we move this to Thursday?", "Thanks for pulling this together!",
    "Added my notes above.", "Nothing blocking on my side.", "Following.",
    "Let's discuss in the sync.", "Done on my end.", "Good catch, fixing now.",
    "I can pair on this tomorrow.", "Same here, no updates.", "Works for me.",
)
KEYWORDS: tuple[str, ...] = (
    "Falcon", "staging", "Q3 budget", "Redwood", "SSO", "Kestrel", "the pricing page",
    "Atlas", "dark mode", "Orion", "the iOS build", "Sequoia", "rate limits", "Phoenix",
)
KEYWORD_REPLIES: tuple[str, ...] = (
    "Update on {kw}: we are on track.", "{kw} is blocked until Wednesday.",
    "I moved {kw} to next sprint.", "Heads up, {kw} needs one more review.",
)
FILES: tuple[str, ...] = (
    "Q3-roadmap.pdf", "budget_v2.xlsx", "launch-plan.key", "error-log.txt", "mockups-final.fig",
    "customer-survey.csv", "architecture.png", "release-notes.md", "pricing-tiers.pdf",
    "oncall-runbook.docx", "metrics-weekly.png", "brand-guide.pdf",
)
EMOJI: dict[str, str] = {
    "thumbsup": "+1", "eyes": "\u25c9\u25c9", "white_check_mark": "\u2714", "tada": "\u2605",
    "heart": "\u2764", "rocket": "\u2708", "pray": "\u263a", "fire": "\u2668",
}
"""Reaction emoji by Slack short name, drawn as a glyph on a coloured badge (fonts the
benchmark's Chromium has; no colour-emoji font is assumed)."""
EMOJI_NAMES: tuple[str, ...] = tuple(EMOJI)
REMIND_TIMES: tuple[str, ...] = ("In 20 minutes", "In 1 hour", "In 3 hours", "Tomorrow",
                                 "Next week")
DAYS: tuple[str, ...] = ("Mon", "Tue", "Wed", "Thu", "Fri")
TODAY = "Fri"
"""The fixed "today" of every world (the week runs Monday 8:00 to Friday 18:00)."""
NEW_POSTS: tuple[str, ...] = (
    "Standup moved to 10:30 today.", "Retro notes are in the doc.",
    "Deploy is done, monitoring now.", "Thanks all, closing this out.",
    "Please review before Monday.", "I'll follow up with the customer.",
)
"""Texts that task instructions ask the user to post (replies, edits, direct messages)."""
