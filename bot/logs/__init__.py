"""The bot's log: each record a line of text for people, or a JSON object for a log
collector (``LOG_FORMAT``), with no secret in either (``formats``)."""
