"""The admin API: what a shop's staff use to run the shop (``/admin/*``, Cognito JWT)."""
