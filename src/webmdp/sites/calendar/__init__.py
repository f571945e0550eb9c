"""The Calendar site: a Google Calendar-like scheduling app (WebSTEP Tables 4, 5, 7)."""
