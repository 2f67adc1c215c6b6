"""The browser client: the play page and the score calculator (templates and static files)."""
