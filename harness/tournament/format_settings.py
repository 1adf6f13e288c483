"""The settings of the formats beyond a round robin: a gauntlet's
``candidates``, an SPRT's ``[sprt]`` table and a ladder's ``[ladder]`` table.

Each belongs to its format only: given with another format, it is an error
naming the format it needs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from harness.contracts.errors import close_names
from harness.contracts.teams import describe_teams, team_count
from harness.tournament.config_reader import ConfigReader

if TYPE_CHECKING:
    from harness.tournament.entrants import Entrant

__all__ = ["FormatReader", "LadderSettings", "SprtSettings"]

_SPRT_KEYS = {
    "elo0": "Elo difference of H0 (e.g. 0; at most 200 normalized, 800 logistic)",
    "elo1": "Elo difference of H1 (e.g. 10); elo1 > elo0",
    "alpha": "false positive rate, 0 < alpha < 0.5",
    "beta": "false negative rate, 0 < beta < 0.5",
    "candidate": "label of the entrant under test (default: the first entrant)",
    "elo_model": (
        'what elo0/elo1 mean: "normalized" (default, as fishtest/fastchess) '
        'or "logistic"'
    ),
}
#: The largest |elo0| and |elo1| an SPRT takes, per Elo model (the ruling in
#: :meth:`FormatReader.sprt_settings`).
ELO_LIMITS = {"normalized": 200.0, "logistic": 800.0}

_LADDER_KEYS = {
    "k": "K factor of the online Elo update (> 0)",
    "initial": "rating of a new entrant",
    "explore": "share of pairings drawn at random instead of by rating, 0..1",
    "sets": "duplicate sets each pairing plays per round (>= 1)",
}


@dataclass(frozen=True)
class SprtSettings:
    """The hypotheses and error rates of an SPRT head-to-head."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    #: The entrant under test; its opponent is the other entrant.
    candidate: str = ""
    #: "normalized" or "logistic": the Elo scale of elo0 and elo1.
    elo_model: str = "normalized"


@dataclass(frozen=True)
class LadderSettings:
    """How a ladder pairs entrants and updates their online Elo."""

    k: float = 16.0
    initial: float = 1500.0
    explore: float = 0.2
    sets: int = 1


class FormatReader(ConfigReader):
    """The format's own keys: ``candidates``, ``[sprt]``, ``[ladder]``."""

    def candidates(self, fmt: str, entrants: tuple[Entrant, ...]) -> tuple[str, ...]:
        labels = [e.label for e in entrants]
        raw = self.data.get("candidates")
        if fmt != "gauntlet":
            if raw is not None:
                raise self.error(
                    "",
                    "candidates",
                    'only a gauntlet has candidates; set format = "gauntlet"',
                )
            return ()
        if (
            not isinstance(raw, list)
            or not raw
            or not all(isinstance(c, str) for c in raw)
        ):
            raise self.error(
                "", "candidates", "a gauntlet needs a list of candidate entrant labels"
            )
        for c in raw:
            if c not in labels:
                raise self.error(
                    "", "candidates", f"no entrant {c!r}; {close_names(c, labels)}"
                )
        if len(set(raw)) == len(labels):
            raise self.error(
                "", "candidates", "every entrant is a candidate; the pool is empty"
            )
        return tuple(dict.fromkeys(raw))

    def table(
        self, key: str, fmt: str, known: Mapping[str, str]
    ) -> dict[str, Any] | None:
        raw = self.data.get(key)
        if fmt != key:
            if raw is not None:
                raise self.error(key, None, f'a [{key}] table needs format = "{key}"')
            return None
        if raw is None:
            raw = {}
        if not isinstance(raw, dict):
            raise self.error("", key, f"expected a table [{key}]")
        self.check_keys(key, raw, known)
        return raw

    def sprt_settings(
        self, fmt: str, entrants: tuple[Entrant, ...], teams: tuple[int, ...]
    ) -> SprtSettings | None:
        raw = self.table("sprt", fmt, _SPRT_KEYS)
        if raw is None:
            return None
        elo_model = raw.get("elo_model", "normalized")
        if elo_model not in ("normalized", "logistic"):
            raise self.error(
                "sprt",
                "elo_model",
                f'{elo_model!r} is not allowed; expected "normalized" or "logistic"',
            )
        # Ruling: the hypotheses' Elo is bounded. Past about 235 normalized Elo
        # the generalised SPRT's constrained MLE (harness/stats/sprt.py) has no
        # root on some counts and the run would stop at a result; an SPRT is for
        # a few Elo (fishtest's are 0 and 2), so the bound costs nothing.
        limit = ELO_LIMITS[elo_model]
        within = f"from -{limit:g} to {limit:g} ({elo_model} Elo)"
        elo0 = self.number(
            "sprt", raw, "elo0", None, -limit, limit, f"a number {within}, e.g. 0"
        )
        elo1 = self.number(
            "sprt",
            raw,
            "elo1",
            None,
            -limit,
            limit,
            f"a number above elo0 {within}, e.g. 10",
        )
        if elo1 <= elo0:
            raise self.error(
                "sprt", "elo1", f"elo1 = {elo1:g} must be above elo0 = {elo0:g}"
            )
        alpha = self.number(
            "sprt", raw, "alpha", 0.05, 1e-6, 0.4999, "a number in (0, 0.5)"
        )
        beta = self.number(
            "sprt", raw, "beta", 0.05, 1e-6, 0.4999, "a number in (0, 0.5)"
        )
        if len(entrants) != 2:
            raise self.error(
                "",
                "entrants",
                f"an SPRT is a head-to-head of exactly 2 entrants, not {len(entrants)}",
            )
        if team_count(teams) != 2:
            raise self.error(
                "",
                "seats",
                f"an SPRT needs a table of two teams; {len(teams)} seats of this game "
                f"make {team_count(teams)} ({describe_teams(teams)})",
            )
        labels = [e.label for e in entrants]
        candidate = raw.get("candidate", labels[0])
        if candidate not in labels:
            raise self.error(
                "sprt",
                "candidate",
                f"no entrant {candidate!r}; {close_names(str(candidate), labels)}",
            )
        return SprtSettings(elo0, elo1, alpha, beta, candidate, elo_model)

    def ladder_settings(self, fmt: str) -> LadderSettings | None:
        raw = self.table("ladder", fmt, _LADDER_KEYS)
        if raw is None:
            return None
        inf = float("inf")
        sets = raw.get("sets", 1)
        if isinstance(sets, bool) or not isinstance(sets, int) or sets < 1:
            raise self.error(
                "ladder", "sets", f"{sets!r} is not allowed; expected an integer >= 1"
            )
        return LadderSettings(
            k=self.number("ladder", raw, "k", 16.0, 1e-9, inf, "a number > 0"),
            initial=self.number(
                "ladder", raw, "initial", 1500.0, -inf, inf, "a number"
            ),
            explore=self.number(
                "ladder", raw, "explore", 0.2, 0.0, 1.0, "a number from 0 to 1"
            ),
            sets=sets,
        )
