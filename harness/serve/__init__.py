"""``troef serve``: a person plays at a card table drawn in the browser.

``table.py`` holds one match (the person a Bot fed from the browser, the bots
under the referee, the result recorded); ``app.py`` the Starlette application
(the lobby's data, the table's WebSocket, the static drawing in ``static/``);
``replay.py`` a recorded match as the table's frames; ``record.py`` the
database a match is written into; ``live.py`` a tournament's database followed
as ``troef run`` writes it (``troef serve DB``).
"""
