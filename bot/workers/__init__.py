"""The processes beside the bot: the solver's, and the ones that draw the pictures."""
