"""Team Chat: a Slack-like team messaging app (WebSTEP Table 4 "Team Chat")."""
