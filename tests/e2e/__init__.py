"""End-to-end tests: the real bot, driven by a real discord.py client, against a fake Discord."""
