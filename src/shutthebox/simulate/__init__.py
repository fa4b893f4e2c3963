"""Fast simulation of single turns, and tournaments of whole matches.

>>> from shutthebox.rules import Rules
>>> simulate(Rules(tiles=6), "highest-first", games=1000, seed=3).games
1000
"""

from shutthebox.simulate.tournament import TournamentResult, tournament
from shutthebox.simulate.turns import SimulationError, SimulationResult, simulate

__all__ = ["SimulationError", "SimulationResult", "TournamentResult", "simulate", "tournament"]
