"""Player accounts: registration, API tokens and the current user."""
