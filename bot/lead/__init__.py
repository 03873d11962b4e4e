"""Which of the bot's processes leads (``lease``: a lease in the store, watched and lost),
and what the leader does (``duties``: sync commands, fill the pool, prune, close
challenges)."""
