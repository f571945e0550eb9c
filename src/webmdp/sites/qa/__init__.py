"""The Coding Q&A site (WebSTEP Table 4 row "Coding Q&A")."""
