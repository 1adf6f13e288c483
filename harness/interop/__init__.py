"""troef's games in the frameworks learning and search research already uses.

:mod:`harness.interop.openspiel` registers every game with OpenSpiel (the
``openspiel`` extra), :mod:`harness.interop.pettingzoo` makes each a PettingZoo
AEC environment (the ``pettingzoo`` extra). Both are built on the game's
encoding (``docs/ENCODING.md``), View and sampler, and import their framework
only when called, so core troef never needs it (``docs/INTEROP.md``).
"""

from __future__ import annotations
