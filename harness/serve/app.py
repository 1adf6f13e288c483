"""The web application of ``troef serve``: Starlette routes, one WebSocket per table.

- ``GET /`` the lobby and the table (``static/index.html``; its script and
  style from ``/static``, nothing from the network);
- ``GET /api/games`` every registered game with its seat counts, options
  and the bots that play it, for the lobby;
- ``GET /api/recorded`` the databases in the results folder and their
  matches; ``GET /api/replay?database=NAME&match=ID&seat=N`` one of them as
  the frames of the table as seat N saw it (``seat=referee``: every hand
  open; :mod:`harness.serve.replay`); ``live=1`` in place of ``database``:
  a match of the tournament ``/live`` follows;
- ``WS /ws/table`` one seat at one table: the browser sends ``{"type":
  "new", ...}`` (:meth:`TableSettings.from_message`; the server answers
  ``invited`` with a link per seat left to people) or ``{"type": "join",
  "table": ID, "seat": N}`` (a seat's link), then ``{"type": "move", "action":
  ...}``; the server sends ``start``, ``update`` (after every move), ``turn``
  (the person is to act: the View, and per card not legal the reason),
  ``refused`` (a move not legal, with the reason), ``over`` (the result and
  where it is recorded) or ``error`` (what was wrong with the settings).
- ``GET /live`` and ``GET /api/live`` (``troef serve DB``): a tournament's
  database followed as it is written (:mod:`harness.serve.live`).

The match runs in a thread of its own (the referee blocks); its messages
cross to the socket's event loop through ``call_soon_threadsafe``.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from harness.contracts.errors import ConfigError, TroefError
from harness.plugins import Registry
from harness.serve.live import live_routes
from harness.serve.replay import database_in, recorded, replay_frames
from harness.serve.table import Message, Table, TableSettings

__all__ = ["STATIC", "bound_socket", "create_app", "games_data", "running"]

#: The page: HTML, script and style, served as they are.
STATIC = Path(__file__).parent / "static"
#: The table's drawing, shared with the HTML report: ``/static/drawing.js``
#: and ``drawing.css`` from the report's package data.
DRAWING = ("harness.report", "static")


def games_data(registry: Registry) -> list[dict[str, Any]]:
    """What the lobby offers: each game, its seats, options and bots."""
    games = []
    for name in sorted(registry.games):
        cls = registry.games[name]
        bots = sorted(
            b
            for b, bot in registry.bots.items()
            if bot.games is None or name in bot.games
        )
        games.append(
            {
                "name": name,
                "title": cls.title,
                "seats": sorted(cls.seat_counts),
                "options": [
                    {
                        "name": o.name,
                        "default": o.default,
                        "doc": o.doc,
                        "choices": None if o.choices is None else list(o.choices),
                    }
                    for o in cls.option_specs
                ],
                "check_options": dict(cls.check_options),
                "bots": bots,
            }
        )
    return games


def create_app(
    registry: Registry, *, results: Path, pace: float = 0.8, watch: Path | None = None
) -> Starlette:
    """The application: ``results`` is the folder each match's database goes to;
    ``watch`` a tournament's database that ``/live`` follows (:mod:`.live`)."""
    #: The tables being played or waiting for their people, by id, with
    #: the thread that plays each.
    tables: dict[str, tuple[Table, threading.Thread]] = {}

    async def index(_: Request) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    async def games(_: Request) -> JSONResponse:
        return JSONResponse(games_data(registry))

    async def recorded_matches(_: Request) -> JSONResponse:
        return JSONResponse(await asyncio.to_thread(recorded, results))

    async def replay(request: Request) -> JSONResponse:
        query = request.query_params
        asked = query.get("seat", "0")
        try:
            seat = None if asked == "referee" else int(asked)
        except ValueError:
            return JSONResponse(
                {"error": f"replay: seat {asked!r}; expected a number or referee"},
                status_code=400,
            )
        try:
            if query.get("live") == "1":
                # A match of the tournament that /live follows.
                if watch is None:
                    raise ConfigError(
                        "replay: live=1 names the database of 'troef serve DB'; "
                        "this server follows none"
                    )
                path = watch
            else:
                path = database_in(results, query.get("database", ""))
            frames = await asyncio.to_thread(
                replay_frames, registry, path, query.get("match", "0"), seat
            )
        except TroefError as exc:
            return JSONResponse({"error": str(exc)}, status_code=404)
        return JSONResponse(frames)

    async def table_socket(ws: WebSocket) -> None:
        await ws.accept()
        loop = asyncio.get_running_loop()
        out: asyncio.Queue[Message] = asyncio.Queue()

        def send(message: Message) -> None:
            loop.call_soon_threadsafe(out.put_nowait, message)

        try:
            first = await ws.receive_json()
            table, seat = _sit_down(first, send)
        except TroefError as exc:
            await ws.send_json({"type": "error", "message": str(exc)})
            await ws.close()
            return
        except WebSocketDisconnect:
            return

        async def listen() -> None:
            while True:
                data = await ws.receive_json()
                if isinstance(data, dict) and data.get("type") == "move":
                    table.move(seat, str(data.get("action")))

        listener = asyncio.create_task(listen())
        try:
            while True:
                getter = asyncio.create_task(out.get())
                done, _ = await asyncio.wait(
                    {getter, listener}, return_when=asyncio.FIRST_COMPLETED
                )
                if getter not in done:  # the person left
                    getter.cancel()
                    break
                message = getter.result()
                await ws.send_json(message)
                if message["type"] in ("over", "error"):
                    break
        except WebSocketDisconnect:
            pass
        finally:
            listener.cancel()
            table.detach(seat)
            _, thread = tables.get(table.id, (None, None))
            if thread is not None and not thread.is_alive():
                tables.pop(table.id, None)
            if ws.client_state is WebSocketState.CONNECTED:
                with contextlib.suppress(RuntimeError, WebSocketDisconnect):
                    await ws.close()

    def _sit_down(first: Any, send: Any) -> tuple[Table, int]:
        """A ``new`` table set up, or a ``join`` at a seat of one: the table
        and the seat. Raises TroefError naming what was wrong."""
        if isinstance(first, dict) and first.get("type") == "join":
            found = tables.get(str(first.get("table")))
            if found is None:
                raise ConfigError(
                    f"table: no table {first.get('table')!r} here; it ended, or "
                    "the link is not this server's"
                )
            seat = first.get("seat")
            if not isinstance(seat, int) or isinstance(seat, bool):
                raise ConfigError(f"table: 'seat' is {seat!r}; expected a number")
            found[0].attach(seat, send)
            return found[0], seat
        table = Table(
            registry, TableSettings.from_message(first), results=results, pace=pace
        )
        seat = table.settings.seat
        table.attach(seat, send)

        def play() -> None:
            try:
                table.run()
            except Exception as exc:  # a bot that would not start, a bad option
                for person in table.people.values():
                    if person.sink is not None:
                        person.sink(
                            {"type": "error", "message": f"{type(exc).__name__}: {exc}"}
                        )
            finally:
                tables.pop(table.id, None)

        thread = threading.Thread(target=play, name="troef-table", daemon=True)
        tables[table.id] = (table, thread)
        thread.start()
        if table.invited:
            links = {str(s): f"/?table={table.id}&seat={s}" for s in table.invited}
            send({"type": "invited", "table": table.id, "links": links})
        return table, seat

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        yield
        # The server stops: every table closes, every match ends.
        for table, thread in list(tables.values()):
            table.close()
            await asyncio.to_thread(thread.join)

    return Starlette(
        routes=[
            Route("/", index),
            Route("/api/games", games),
            Route("/api/recorded", recorded_matches),
            Route("/api/replay", replay),
            WebSocketRoute("/ws/table", table_socket),
            *([] if watch is None else live_routes(watch)),
            Mount(
                "/static",
                StaticFiles(directory=STATIC, packages=[DRAWING]),
                name="static",
            ),
        ],
        lifespan=lifespan,
    )


def bound_socket(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: a free one)."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(64)
    return sock


def _server(app: Starlette) -> uvicorn.Server:
    return uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))


def serve(app: Starlette, sock: socket.socket) -> None:
    """Serve ``app`` on ``sock`` until interrupted (``troef serve``)."""
    _server(app).run(sockets=[sock])


@contextlib.contextmanager
def running(app: Starlette, host: str = "127.0.0.1") -> Iterator[str]:
    """``app`` served on a free port of ``host`` in a thread; yields its URL.

    Stopped on leaving: the server exits, its tables end, the thread is joined.
    """
    sock = bound_socket(host, 0)
    server = _server(app)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]})
    thread.start()
    try:
        while not server.started and thread.is_alive():
            threading.Event().wait(0.01)  # polled until uvicorn says it listens
        if not server.started:
            raise TroefError("troef serve: the server did not start")
        yield f"http://{host}:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join()
        sock.close()
