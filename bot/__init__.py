"""The Discord bot: a Discord-free core (``core.py``) over its flows, store and helper
processes, and the two adapters that call it, Discord and the console."""
