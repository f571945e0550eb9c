"""The Code Repo site: a GitHub-like code hosting app (WebSTEP Tables 4, 5, 8)."""
