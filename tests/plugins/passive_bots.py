"""A gin bot that never goes out (issue 13, item 4): it always draws from the
stock and throws the first plain card, so every hand is void at the stock
floor and only the referee's cap ends the match."""

from __future__ import annotations

from collections.abc import Sequence

from harness import Bot, View, hookimpl


class Passive(Bot):
    name = "passive"

    def act(self, view: View) -> str:
        return next(a for a in view.legal_actions if not a.startswith(("knock", "gin")))


@hookimpl
def troef_bots() -> Sequence[type[Bot]]:
    return [Passive]
