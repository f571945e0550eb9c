"""The Job Network site: a LinkedIn-like professional network (WebSTEP Job Network)."""
