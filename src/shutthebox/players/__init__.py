"""Who decides: the strategy interface (:mod:`~shutthebox.players.base`) and the simple
computer players (:mod:`~shutthebox.players.simple`).

Both sit below the match and the solver: the match builds each :class:`~.base.Situation` and
asks a :class:`~.base.Strategy`, and the solver's optimal player
(:mod:`shutthebox.solver.players`) is one more strategy. The names the interfaces offer
(``random``, ``optimal``, ``hard``...) are read by :mod:`shutthebox.strategies`, above both.
"""
