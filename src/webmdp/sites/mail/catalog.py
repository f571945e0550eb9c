"""Static vocabulary of the Mail world: people, subjects, phrases, labels, folders."""

from __future__ import annotations

USER_NAME = "Jordan Lee"
USER_EMAIL = "jordan.lee@acmecorp.com"

FOLDERS = ("inbox", "starred", "sent", "archive", "spam", "trash")
"""Sidebar folders; ``starred`` is a view over every starred thread, the rest hold threads."""
STORED_FOLDERS = ("inbox", "sent", "archive", "spam", "trash")
FOLDER_TITLES = {"inbox": "Inbox", "starred": "Starred", "sent": "Sent", "archive": "Archive",
                 "spam": "Spam", "trash": "Trash"}
FILTERS = ("unread", "starred", "has_attachment")
FILTER_TITLES = {"unread": "Unread", "starred": "Starred", "has_attachment": "Has attachment"}
LABELS = ("Work", "Personal", "Finance", "Travel", "Follow-up", "Receipts")
LABEL_COLORS = {"Work": "#d3e3fd", "Personal": "#c4eed0", "Finance": "#fde293",
                "Travel": "#fad2cf", "Follow-up": "#e9d7fe", "Receipts": "#e6f4ea"}
PAGE_SIZE = 20
MOVES = {"Archive": ("archive", "Conversation archived."),
         "Delete": ("trash", "Conversation moved to Trash."),
         "ReportSpam": ("spam", "Conversation reported as spam."),
         "MoveToInbox": ("inbox", "Conversation moved to Inbox.")}
"""The actions that move one thread: the folder each puts it in, and the notice it shows."""

COMPANIES = (("Northwind Labs", "northwind.io"), ("Brightline Media", "brightline.co"),
             ("Cobalt Systems", "cobaltsys.com"), ("Harbor Analytics", "harbor-analytics.com"),
             ("Pinecrest Health", "pinecrest.org"), ("Atlas Freight", "atlasfreight.net"))

PEOPLE = ("Priya Patel", "David Kim", "Maria Gomez", "Samuel Okafor", "Emily Chen",
          "Lucas Moreau", "Hannah Schmidt", "Omar Haddad", "Grace Liu", "Noah Fischer",
          "Sofia Rossi", "Ethan Brooks", "Aisha Bello", "Mateo Silva", "Chloe Martin",
          "Ravi Nair", "Lena Novak", "Daniel Park", "Zoe Adams", "Kenji Watanabe")

TITLES = ("Product Manager", "Senior Designer", "Engineering Lead", "Account Executive",
          "Operations Analyst", "Marketing Director", "Finance Partner", "Research Scientist",
          "Customer Success Manager", "Head of Partnerships")

MAILING_LISTS = ("design-team@acmecorp.com", "eng-all@acmecorp.com", "sales-emea@acmecorp.com",
                 "product-leads@acmecorp.com", "ops-weekly@acmecorp.com",
                 "marketing@acmecorp.com")

# subject -> opening sentence (the snippet) of a message about it
SUBJECTS: dict[str, str] = {
    "Q3 budget review": "Sharing the latest numbers ahead of our budget review.",
    "Design sync notes": "Here are my notes from today's design sync.",
    "Weekly status update": "Quick status update on where things stand this week.",
    "Offsite planning": "Starting to pull together plans for the team offsite.",
    "Contract renewal": "Following up on the contract renewal we discussed.",
    "Hiring loop feedback": "Collecting feedback from the interview loop.",
    "Launch checklist": "Here is the current launch checklist for review.",
    "Vendor onboarding": "Kicking off onboarding for the new vendor.",
    "Customer escalation": "Flagging a customer escalation that needs attention.",
    "Roadmap draft": "Attaching the first draft of next quarter's roadmap.",
    "Travel itinerary": "Your itinerary for next week's trip is below.",
    "Invoice reminder": "A friendly reminder about the open invoice.",
    "Research findings": "Summarising the findings from the latest user research.",
    "Security review": "The security review for the new service is scheduled.",
    "Partnership proposal": "Sending over the partnership proposal we talked about.",
    "Quarterly OKRs": "Please take a look at the proposed quarterly OKRs.",
}

FILLER_LINES = ("Let me know if you have any questions.", "Happy to walk through it live.",
                "I've looped in the relevant folks.", "No rush, end of week is fine.",
                "Thanks again for the quick turnaround.", "We can discuss at the next sync.",
                "Please send comments by Thursday.", "I'll share an update once I hear back.",
                "The numbers look reasonable so far.", "Shout if anything looks off.")

CLOSINGS = ("Thanks,", "Best,", "Cheers,", "Regards,", "Talk soon,")

GREEK = ("Alpha", "Beta", "Gamma", "Delta", "Sigma", "Omega", "Kappa", "Theta")
"""Keyword stems: a task keyword is e.g. ``ProjectAlpha006`` (Table 18)."""

SUGGESTIONS = ("moving the launch to Thursday", "splitting the budget across two quarters",
               "hosting the offsite in Lisbon", "switching vendors before renewal",
               "adding a second interview round", "dropping the legacy export feature",
               "pausing the ad campaign", "hiring a contractor for QA",
               "running a pilot with three customers", "publishing the report in May")

ATTACHMENTS = ("budget_q3.xlsx", "design_mockups.pdf", "status_report.docx", "offsite_agenda.pdf",
               "contract_v2.pdf", "interview_scorecard.xlsx", "launch_plan.pptx",
               "vendor_form.pdf", "escalation_log.csv", "roadmap_draft.pptx", "itinerary.pdf",
               "invoice_4471.pdf", "research_summary.pdf", "threat_model.docx",
               "proposal_final.pdf", "okr_sheet.xlsx", "meeting_notes.txt", "photo_archive.zip")

REPLY_LINES = ("Thanks, this looks good to me.", "Approved, please go ahead.",
               "Can we push this to next week?", "I'll review it tonight and get back to you.",
               "Great work, let's discuss tomorrow.", "Looping in finance for sign-off.")

NEW_SUBJECTS = ("Quick question", "Follow-up on your email", "Request for the final files",
                "Scheduling a call", "Next steps")

KEYWORD_LINES = ("This one is for {}, so please keep it with the related files.",
                 "Note that it only covers {} for now.",
                 "The tracking code on our side is {}.")
"""Body sentences that carry a task keyword, after the snippet's opening sentence."""
REPLY_BOXES = ("events", "billing", "support", "projects", "press", "partners", "finance",
               "office")
"""Local parts of team reply-to addresses at a sender's company domain."""
