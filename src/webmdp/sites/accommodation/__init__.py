"""The Accommodation site: a holiday-rental marketplace (WebSTEP Tables 4, 5, 7; Table 20)."""
