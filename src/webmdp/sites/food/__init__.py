"""The Food Delivery site (WebSTEP Table 4 row "Food Delivery")."""
