"""mypyc's class marks, for the modules a compiled build compiles.

``@mypyc_attr(allow_interpreted_subclasses=True)`` lets plugins written in
Python subclass a class that mypyc compiles to a native class;
``@mypyc_attr(native_class=False)`` keeps a compiled class an ordinary one.
troef does not depend on ``mypy_extensions`` to run, so without it the mark
is a decorator that does nothing. It must be this ``try``: mypyc compiles the
``else:`` of an ``if TYPE_CHECKING:`` as unreachable code, which raises at
import (``bench/README.md``, "Compiled builds").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

__all__ = ["mypyc_attr"]

_T = TypeVar("_T")

try:
    from mypy_extensions import mypyc_attr
except ImportError:

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[_T], _T]:
        """Nothing: the marks mean something only to mypyc."""
        return lambda cls: cls
