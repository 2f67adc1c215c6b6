"""Application services of the tables: commands, loading state, read model, export."""
