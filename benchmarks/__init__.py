"""How fast and how big: the engine's play, the pictures, the solver's speed and memory.

Run from a checkout, never installed: ``python -m benchmarks.solver_speed`` and its
neighbours. docs/SPEED.md has their figures, and the bot's own benchmarks beside them
(``tests.e2e.bench_bot`` and the others, which drive the bot against the fake Discord).
"""
