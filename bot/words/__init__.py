"""What a player reads beyond a board: the phrases replies share, the questions, the help."""
