"""Everything that speaks Discord: the bot (``client``), the slash-command cogs, the buttons
and menus (``components``), and ``send``, the one function that turns a core ``Reply`` into
an interaction response. Nothing outside this package imports ``discord``.
"""
