"""The pure Spades rules engine: no Django, no I/O, typed and fast.

Modules: ``cards`` and ``seats`` (vocabulary), ``rules`` (presets), ``deal``
(deck orders and the verifiable shuffle), ``hand`` (the state of one hand),
``bidding``, ``passing`` and ``play`` (moves, each validated with a reason a
player understands), ``moves`` (moves as values), ``game`` (hands in turn with
the ledger) and ``view`` (what one seat may see).
"""
