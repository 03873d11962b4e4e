"""The maintainers' command-line tools, run from a checkout and never installed with the bot.

``python -m tools.solver``: the solver's figures (the odds in the README and in
engine/solver/ODDS.md), the daily deals, one position solved or hinted.
``python -m tools.catalog``: the translators' catalogs (bot/words/locales/) extracted from
the source, started, updated and checked.
"""
