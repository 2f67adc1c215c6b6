"""Duplicate Spades, the pure core: boards, movements, board scoring, par, skill.

Every table of a round plays the same boards; a partnership is compared only with those
who held the same cards in the same direction. See docs/leagues.md, "Duplicate".
"""
