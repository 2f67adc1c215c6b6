"""The pure Spades rules engine: no Django, no I/O, typed and fast.

Modules: ``cards`` and ``seats`` (vocabulary), ``rules`` (presets), ``deal``
(deck orders and the verifiable shuffle), ``hand`` (the state of one hand),
``bidding``, ``passing`` and ``play`` (moves, each validated with a reason a
player understands), ``moves`` (moves as values), ``view`` (what one seat may
see), ``hand_summary`` (a hand's bids and tricks by seat), ``record`` (the game
record format) and ``replay`` (one recorded hand through the rules).  Whole games
and their ledgers live above the engine (docs/architecture.md); it imports none.
"""
