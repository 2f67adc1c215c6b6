"""Pure bot strategies: decide from one seat's view, import nothing from Django.

Use :func:`bots.strategies.registry.get_strategy` to obtain a level's strategy and call
``strategy.decide(view, seed)``; see ``docs/bots.md``.
"""
