"""Tests of what an operator runs and reads: backups and restores, the log's formats."""
