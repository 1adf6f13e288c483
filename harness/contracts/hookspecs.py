"""The plugin contract of troef: every hook a plugin may implement.

A plugin is a module (or a ``.py`` file named in a config) with functions
marked ``@hookimpl``. The harness's own games and bots are plugins of exactly
this kind, registered through the ``troef`` entry-point group.

Hooks return values; they never mutate a registry passed to them. The harness
takes the union of what every plugin returns and reports clashes by plugin name.
Always call hooks with keyword arguments.

Each registration hook returns a list (or tuple) of classes, never a bare
class, and each class subclasses its contract (``harness.Game``,
``harness.Bot``, ``harness.ExecutorPlugin``), implements its abstract methods
and gives its metadata the documented types (``games`` a frozenset of names or
None, ``seat_counts`` a frozenset of integers, ...). The registry checks all of
this when it is built and raises a
:class:`~harness.contracts.errors.PluginError` naming the file and line, the
hook or class, what it found and what is accepted.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from harness.contracts.bot import Bot
    from harness.contracts.executor import ExecutorPlugin
    from harness.contracts.game import Game

__all__ = ["hookimpl", "hookspec"]

#: Marks a hook specification; the marker's name is the project's name.
hookspec = pluggy.HookspecMarker("troef")
#: Marks a plugin's implementation of a hook.
hookimpl = pluggy.HookimplMarker("troef")


# -------------------------------------------------------------------------
# Registration hooks
# -------------------------------------------------------------------------


@hookspec
def troef_games() -> Sequence[type[Game]]:  # type: ignore[empty-body]
    """Return the game classes this plugin provides.

    Each class has a unique ``name``; two plugins returning the same name are
    a :class:`~harness.contracts.errors.PluginError` naming both.

    Called in: the main process and every worker, once, when the registry
    is built. Must have no side effects.
    """


@hookspec
def troef_bots() -> Sequence[type[Bot]]:  # type: ignore[empty-body]
    """Return the bot classes this plugin provides.

    A bot's ``games`` must name only games that some plugin registers;
    otherwise the registry raises a
    :class:`~harness.contracts.errors.PluginError` naming the plugin.

    Called in: the main process and every worker, once, when the registry
    is built. Must have no side effects.
    """


@hookspec
def troef_executors() -> Sequence[type[ExecutorPlugin]]:  # type: ignore[empty-body]
    """Return the executor classes this plugin provides (where chunks run).

    Each is a :class:`~harness.ExecutorPlugin` subclass with a unique ``name``,
    the keys its config table ``[executor]`` takes (``settings``) and
    ``start``, which returns a ``concurrent.futures`` executor and the channel
    its workers stream results to; optionally ``max_chunk`` (the most jobs in a
    chunk by default), ``sprt_chunk`` (an SPRT's chunk by default) and
    ``session`` (what the runs of one command share, e.g. a ladder's cluster).
    The built-in ``inline``, ``process`` and ``dask`` are registered through
    this hook too.

    Called in: the main process (when a config is checked and a run starts)
    and every worker, once, when the registry is built. Must have no side
    effects.
    """
