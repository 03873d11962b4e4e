"""The Discord bot: a Discord-free core (``core.py``) over its flows, store and helper
processes, and the three adapters that call it: Discord, the console and the Activity's
page."""
