"""Reads of leagues: pairings, standings (official and what-if), ratings, exports."""
