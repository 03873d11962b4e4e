"""The web adapter: the same core as a page inside Discord (an Activity) — a small aiohttp
server (``server.py``), the players' signed sessions and their sign-in through Discord
(``sessions.py``, ``signin.py``), what the core shows written as the page's JSON
(``view.py``), and the page itself (``static/``, built from ``page/``)."""
