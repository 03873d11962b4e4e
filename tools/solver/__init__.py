"""The solver on the command line: ``python -m tools.solver --help``.

Many deals solved, or played by a policy, on one core or several, and the figures the
README and engine/solver/ODDS.md print: what a player's install never runs.
"""
