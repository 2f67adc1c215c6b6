"""Read-side selectors: what a viewer may see of a table."""
