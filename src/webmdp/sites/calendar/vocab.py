"""Calendar vocabulary: calendars, people, meeting titles, places, descriptions.

Plain data (WebSTEP E.2 world generation draws from it); nothing here knows about states.
"""

from __future__ import annotations

CALENDARS: tuple[str, ...] = ("Work", "Team", "Personal", "Family")
COLORS = {"Work": "#039be5", "Team": "#7986cb", "Personal": "#33b679", "Family": "#f4511e"}
RESPONSES: tuple[str, ...] = ("yes", "no", "maybe")
RSVP_LABELS = {"yes": "Yes", "no": "No", "maybe": "Maybe", "pending": "Awaiting reply"}
VIEWS: tuple[str, ...] = ("day", "week", "month")
VIEW_SURFACE = {"day": "DayView", "week": "WeekView", "month": "MonthView"}
FIRST_HOUR, LAST_HOUR = 7, 20
"""The time grid shows 7 AM to 8 PM; every generated event lies inside working hours."""
DURATIONS: tuple[int, ...] = (30, 45, 60, 60, 90)
REMINDERS: tuple[str, ...] = ("5 minutes before", "10 minutes before", "30 minutes before",
                              "1 hour before", "1 day before")

PEOPLE: tuple[str, ...] = (
    "Priya Patel", "Marcus Chen", "Sofia Rossi", "Daniel Okafor", "Hannah Berg",
    "Diego Alvarez", "Aisha Khan", "Tom Becker", "Mei Tanaka", "Lucas Moreau",
    "Olivia Grant", "Ravi Shah", "Emma Lindqvist", "Noah Williams", "Chloe Martin",
    "Yusuf Demir", "Grace Kim", "Jonas Weber",
)

TITLES: dict[str, tuple[str, ...]] = {
    "Work": ("Design review", "Budget planning", "Quarterly business review", "Client call",
             "Roadmap sync", "Hiring committee", "Vendor demo", "Security briefing",
             "Sales pipeline review", "Product launch prep"),
    "Team": ("Sprint planning", "Team standup", "Retrospective", "1:1 check-in",
             "Architecture deep dive", "Bug bash", "Demo day rehearsal", "Onboarding session"),
    "Personal": ("Dentist appointment", "Yoga class", "Haircut", "Book club", "Car service",
                 "Piano lesson", "Running club", "Language exchange"),
    "Family": ("Parent-teacher meeting", "Soccer practice", "Family dinner",
               "Grandma's visit", "Swim lessons", "School play", "Vet appointment"),
}

LOCATIONS: dict[str, tuple[str, ...]] = {
    "Work": ("Room 4B - Everest", "Room 2A - Fuji", "Room 6C - Denali", "Boardroom",
             "Google Meet", "Zoom"),
    "Team": ("Team area, 3rd floor", "Room 2A - Fuji", "Google Meet", "Huddle room 5"),
    "Personal": ("Riverside Dental", "Studio Flow Yoga", "Central Library", "Golden Gate Park",
                 "Main St Auto"),
    "Family": ("Lincoln Elementary", "Mission Rec Center", "Home", "Bayview Vet Clinic"),
}

TOPICS: tuple[str, ...] = (
    "pricing", "onboarding", "the Q3 forecast", "accessibility", "the mobile app", "hiring",
    "the data migration", "customer feedback", "the API redesign", "travel budget",
    "the launch checklist", "performance", "vendor contracts", "the holiday schedule",
)
"""Description keywords: what an event's agenda is about (detail-only)."""

AGENDA = ("Agenda: {topic}; open questions; next steps.",
          "We will go through {topic} and agree on owners.",
          "Please read the notes on {topic} before we meet.",
          "Quick sync on {topic}. Bring your updates.")

CONFERENCE = ("meet.google.com/{a}-{b}-{c}", "zoom.us/j/{n}")
NEW_TITLE_SUFFIX = ("follow-up", "debrief", "wrap-up")
