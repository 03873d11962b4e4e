"""What an operator sees of a process: its metrics, its health."""
