"""The game's mathematics: exact par-sheet figures, statistics and simulators.

- :mod:`etg.math.exact` — exact figures by combinatorics over the finite shoe (Fractions).
- :mod:`etg.math.stats` — running means and 99 % intervals for the simulators.
- :mod:`etg.math.vector_sim` — the vectorised (NumPy) main-game simulator.

Every payout here comes from :mod:`etg.core.settle`, so the math cannot drift
from the rules the round engine applies.
"""
