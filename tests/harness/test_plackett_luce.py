"""Plackett-Luce ratings (docs/STATISTICS.md, "Plackett-Luce"): the MM fit against
a brute-force maximisation of the exact likelihood, the tie rule, teams, recovery
of known strengths at 3, 4 and 6 seats, and the config and report wiring.
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import minimize

from harness.cli import main
from harness.contracts.errors import ConfigError
from harness.contracts.result import Result
from harness.stats.ratings import (
    ELO_TO_NATURAL,
    PairResult,
    RatingFlag,
    pair_results_from_matches,
)
from harness.stats.ratings_bootstrap import bootstrap_plackett_luce
from harness.stats.ratings_pairwise import fit_ratings
from harness.stats.ratings_plackett_luce import (
    Ranking,
    fit_plackett_luce,
    rankings_from_matches,
)
from harness.tournament.config import load_config
from tests.conftest import TOY_PLUGIN


def exact_log_likelihood(
    gamma: np.ndarray, rankings: list[Ranking], index: dict[str, int]
) -> float:
    """The PL log-likelihood written out: every order a tie could be broken in,
    each order's probability as the product of its choices, logs averaged."""
    total = 0.0
    for r in rankings:
        items = [index[e] for e in r.entrants]
        levels = sorted(set(r.ranks))
        blocks = [[items[p] for p, x in enumerate(r.ranks) if x == lv] for lv in levels]
        orders = [
            [x for part in combo for x in part]
            for combo in itertools.product(*(itertools.permutations(b) for b in blocks))
        ]
        logs = []
        for order in orders:
            lp = 0.0
            for s in range(len(order) - 1):
                rest = np.array(order[s:])
                lp += gamma[order[s]] - math.log(np.exp(gamma[rest]).sum())
            logs.append(lp)
        total += sum(logs) / len(logs)
    return total


def brute_force(rankings: list[Ranking]) -> dict[str, float]:
    """Maximise the exact likelihood with scipy (BFGS), mean 0, in Elo."""
    names = sorted({e for r in rankings for e in r.entrants})
    index = {n: k for k, n in enumerate(names)}

    def minus(free: np.ndarray) -> float:
        return -exact_log_likelihood(np.concatenate([[0.0], free]), rankings, index)

    res = minimize(minus, np.zeros(len(names) - 1), method="BFGS", tol=1e-12)
    gamma = np.concatenate([[0.0], res.x])
    gamma -= gamma.mean()
    return {n: gamma[k] / ELO_TO_NATURAL for k, n in enumerate(names)}


SMALL = [
    [
        Ranking(("a", "b", "c"), (1, 2, 3)),
        Ranking(("c", "a", "b"), (1, 2, 3)),
        Ranking(("b", "c", "a"), (1, 3, 2)),
        Ranking(("a", "c"), (2, 1)),
    ],
    # ties at the top, in the middle, at the bottom, and all four tied
    [
        Ranking(("a", "b", "c"), (1, 2, 3)),
        Ranking(("c", "a", "b"), (1, 2, 2)),
        Ranking(("b", "c", "a", "d"), (1, 1, 3, 4)),
        Ranking(("d", "a"), (1, 2)),
        Ranking(("a", "b", "c", "d"), (2, 1, 4, 3)),
        Ranking(("b", "d", "c"), (1, 2, 2)),
        Ranking(("c", "d"), (1, 2)),
        Ranking(("d", "b", "a"), (1, 1, 1)),
        Ranking(("a", "b", "c", "d"), (1, 2, 2, 2)),
    ],
    # six seats, an entrant holding two of them
    [
        Ranking(("a", "b", "c", "d", "e", "a"), (1, 2, 3, 4, 5, 6)),
        Ranking(("e", "d", "c", "b", "a", "f"), (2, 1, 3, 3, 5, 6)),
        Ranking(("f", "e", "d", "c", "b", "a"), (1, 2, 3, 4, 5, 6)),
        Ranking(("b", "f", "a", "e", "c", "d"), (1, 2, 3, 3, 3, 6)),
    ],
]


@pytest.mark.parametrize("case", range(len(SMALL)))
def test_mm_fit_equals_brute_force_maximum_of_the_exact_likelihood(case: int) -> None:
    rankings = SMALL[case]
    fit = fit_plackett_luce(rankings)
    expected = brute_force(rankings)
    for name, rating in expected.items():
        assert fit[name].rating == pytest.approx(rating, abs=1e-3)
    assert fit.model == "plackett-luce"
    names = sorted(expected)
    gamma = np.array([expected[n] * ELO_TO_NATURAL for n in names])
    ll = exact_log_likelihood(gamma, rankings, {n: k for k, n in enumerate(names)})
    assert fit.log_likelihood == pytest.approx(ll, abs=1e-8)


def test_two_team_rankings_are_the_pairwise_half_point_model() -> None:
    # With two items PL is Bradley-Terry, and a tie averaged over its two orders
    # is half a win: the same ratings as fit_ratings, and (one match per
    # cluster) the same sandwich up to the G/(G-1) factor.
    outcomes = [("a", "b", 1), ("a", "b", 1), ("a", "b", 0), ("b", "c", 1)]
    outcomes += [("a", "c", 1), ("c", "a", 2), ("b", "c", 0), ("a", "c", 0)]
    rankings, pairs = [], []
    for x, y, s in outcomes:
        ranks = {1: (1, 2), 0: (1, 1), 2: (2, 1)}[s]
        rankings.append(Ranking((x, y), ranks))
        pairs.append(PairResult(x, y, {1: 1.0, 0: 0.5, 2: 0.0}[s]))
    pl, bt = fit_plackett_luce(rankings), fit_ratings(pairs)
    g = len(rankings)
    for name in "abc":
        assert pl[name].rating == pytest.approx(bt[name].rating, abs=1e-6)
        width_pl = pl[name].upper - pl[name].lower
        width_bt = bt[name].upper - bt[name].lower
        assert width_pl == pytest.approx(width_bt * math.sqrt(g / (g - 1)), rel=1e-6)


def test_mirror_rankings_by_hand_and_ties_pull_together() -> None:
    # a > b > c and c > b > a: by symmetry w_a = w_c = 1, and the likelihood
    # b²/((2 + b)²(1 + b)²) peaks at b = √2 (2/b = 2/(2 + b) + 2/(1 + b)): the
    # entrant second twice beats those first once and last once. Mean 0 puts b
    # at 2/3·ln√2 natural units.
    mirror = [Ranking(("a", "b", "c"), (1, 2, 3)), Ranking(("c", "b", "a"), (1, 2, 3))]
    fit = fit_plackett_luce(mirror)
    by_hand = 2 / 3 * math.log(math.sqrt(2)) / ELO_TO_NATURAL
    assert fit["b"].rating == pytest.approx(by_hand, abs=1e-6)  # 40.14
    assert fit["a"].rating == pytest.approx(fit["c"].rating, abs=1e-6)
    # A three-way tie is symmetric and says "equal": it pulls b towards a and c.
    tied = fit_plackett_luce(mirror + [Ranking(("b", "c", "a"), (1, 1, 1))] * 5)
    assert 0 < tied["b"].rating < by_hand - 10
    assert tied["a"].rating == pytest.approx(tied["c"].rating, abs=1e-6)


def test_teams_are_ranked_as_one_item_named_by_their_first_seat() -> None:
    partners = Result(
        scores=(162, 0, 162, 0),
        ranks=(1, 3, 1, 3),
        teams=(0, 1, 0, 1),
        deal_points=((162, 0, 162, 0),),
    )
    three_teams = Result(
        scores=(1, 5, 3, 1, 5, 3),
        ranks=(5, 1, 3, 5, 1, 3),
        teams=(0, 1, 2, 0, 1, 2),
        deal_points=(),
    )
    alone = Result(scores=(1, 2), ranks=(2, 1), teams=(0, 1), deal_points=())
    rankings = rankings_from_matches(
        [
            (("ns", "ew", "ns", "ew"), partners, "g1"),
            (("x", "y", "z", "x", "y", "z"), three_teams, None),
            (("solo", "solo"), alone, None),  # one entrant: compares nothing
        ]
    )
    assert rankings == [
        Ranking(("ns", "ew"), (1, 3), "g1"),
        Ranking(("x", "y", "z"), (5, 1, 3), None),
    ]


def simulate(
    rng: np.random.Generator, true: np.ndarray, seats: int, matches: int
) -> list[Ranking]:
    """PL rankings by the Gumbel trick: sorting gamma + Gumbel noise is a PL draw."""
    out = []
    for _ in range(matches):
        who = rng.choice(len(true), seats, replace=False)
        key = true[who] * ELO_TO_NATURAL + rng.gumbel(size=seats)
        ranks = np.empty(seats, np.int64)
        ranks[np.argsort(-key)] = np.arange(1, seats + 1)
        out.append(Ranking(tuple(f"e{k}" for k in who), tuple(int(x) for x in ranks)))
    return out


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_recovers_known_strengths(seats: int) -> None:
    rng = np.random.default_rng(seats)
    true = np.array([-200.0, -120.0, -40.0, 0.0, 30.0, 90.0, 110.0, 130.0])
    true -= true.mean()
    fit = fit_plackett_luce(simulate(rng, true, seats, 1500))
    est = np.array([fit[f"e{k}"].rating for k in range(len(true))])
    sd = np.array(
        [(fit[f"e{k}"].upper - fit[f"e{k}"].lower) / 3.92 for k in range(len(true))]
    )
    z = (est - true) / sd
    assert np.all(np.abs(z) < 3.5), z
    # Σz² is about χ² with 7 degrees of freedom (the mean is fixed): < 24.3 at
    # the 0.1 % level. More seats per match: more information, narrower intervals.
    assert float(z @ z) < 24.3
    assert sd.max() < {3: 20, 4: 16, 6: 12}[seats]


def test_perfect_entrant_is_regularised_and_flagged() -> None:
    rankings = [
        Ranking(("top", "a", "b"), (1, 2, 3)),
        Ranking(("top", "b", "a"), (1, 2, 3)),
        Ranking(("a", "b"), (2, 1)),
        Ranking(("a", "b", "top"), (1, 2, 3)),
    ]
    rankings[-1] = Ranking(("a", "b", "top"), (2, 3, 1))
    fit = fit_plackett_luce(rankings)
    assert fit["top"].rating > fit["a"].rating
    assert math.isfinite(fit["top"].rating)
    assert RatingFlag.REGULARISED in fit["top"].flags
    assert any("regularised" in note for note in fit.notes)


def test_disconnected_pools_are_anchored_each_to_its_mean() -> None:
    rankings = [
        Ranking(("a", "b", "c"), (1, 2, 3)),
        Ranking(("c", "b", "a"), (1, 2, 3)),
        Ranking(("a", "b", "c"), (2, 1, 3)),
        Ranking(("x", "y"), (1, 2)),
        Ranking(("y", "x"), (1, 2)),
        Ranking(("x", "y"), (1, 2)),
    ]
    fit = fit_plackett_luce(rankings, entrants=["idle"])
    assert len(fit.components) == 2
    assert fit["x"].rating + fit["y"].rating == pytest.approx(0.0, abs=1e-6)
    assert sum(fit[n].rating for n in "abc") == pytest.approx(0.0, abs=1e-6)
    assert RatingFlag.DISCONNECTED in fit["x"].flags
    assert RatingFlag.NO_GAMES in fit["idle"].flags and math.isnan(fit["idle"].rating)
    with pytest.raises(ValueError, match="not comparable"):
        fit.difference("a", "x")


def test_anchor_and_errors() -> None:
    rankings = SMALL[1]
    fit = fit_plackett_luce(rankings, anchor="b", anchor_rating=1500)
    free = fit_plackett_luce(rankings)
    assert fit["b"].rating == 1500 and fit["b"].lower == fit["b"].upper == 1500
    assert fit["a"].rating - 1500 == pytest.approx(
        free["a"].rating - free["b"].rating, abs=1e-9
    )
    d, lo, hi = fit.difference("a", "c")
    d2, lo2, hi2 = free.difference("a", "c")
    assert (d, lo, hi) == pytest.approx((d2, lo2, hi2), abs=1e-6)
    with pytest.raises(ValueError, match="did you mean 'b'"):
        fit_plackett_luce(rankings, anchor="bb")
    with pytest.raises(ValueError, match="at least two teams"):
        Ranking(("a",), (1,))


def test_bootstrap_is_seeded_and_agrees_with_the_sandwich() -> None:
    rng = np.random.default_rng(11)
    true = np.array([-100.0, -50.0, 0.0, 50.0, 100.0])
    rankings = simulate(rng, true, 4, 600)
    one = bootstrap_plackett_luce(rankings, rounds=200, seed=3)
    two = bootstrap_plackett_luce(rankings, rounds=200, seed=3)
    assert np.array_equal(one.samples, two.samples)
    for line in one.ratings:
        fit = one.fit[line.entrant]
        width = fit.upper - fit.lower
        assert line.upper - line.lower == pytest.approx(width, rel=0.25)


# -- config and report -------------------------------------------------------------


def write_config(tmp: Path, extra: str) -> Path:
    path = tmp / "pl.toml"
    path.write_text(
        'game = "toy"\nseats = 3\nmatches = 3\nseed = 3\nexecutor = "inline"\n'
        f'plugins = ["{TOY_PLUGIN}"]\n{extra}'
        '[entrants.search]\nbot = "search"\noptions = { samples = 3 }\n'
        '[entrants.random-a]\nbot = "random"\n[entrants.random-b]\nbot = "random"\n'
        '[entrants.random-c]\nbot = "random"\n'
    )
    return path


def test_config_rating_model_is_checked_and_stored_only_when_set(
    tmp_path: Path,
) -> None:
    plain = load_config(write_config(tmp_path, ""))
    assert plain.rating_model == "pairwise"
    assert "rating_model" not in plain.snapshot()  # older databases stay equal
    pl = load_config(write_config(tmp_path, 'rating_model = "plackett-luce"\n'))
    assert pl.snapshot()["rating_model"] == "plackett-luce"
    with pytest.raises(ConfigError) as err:
        load_config(write_config(tmp_path, 'rating_model = "plackett"\n'))
    assert "pl.toml:7: rating_model: unknown rating model 'plackett'" in str(err.value)
    assert "did you mean 'plackett-luce'" in str(err.value)


def test_report_uses_the_configs_model_and_model_overrides_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_config(tmp_path, 'rating_model = "plackett-luce"\n')
    assert main(["run", str(path), "--quiet"]) == 0
    database = str(tmp_path / "pl.sqlite")
    capsys.readouterr()
    assert main(["report", database, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["model"] == "plackett-luce"
    assert abs(sum(row["rating"] for row in data["standings"])) < 1e-6
    assert main(["report", database, "--model", "pairwise", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["model"] == "pairwise"
    assert main(["report", database, "--bootstrap", "20"]) == 0
    out = capsys.readouterr().out
    assert "Plackett-Luce ratings (Elo scale), pool mean = 0" in out
    assert "bootstrap (20 × sets)" in out
    assert main(["report", database, "--seat-advantage"]) == 2
    assert "fits no seat advantage" in capsys.readouterr().err


def test_games_count_matches_and_the_score_is_the_pairwise_one() -> None:
    results = [
        Result(scores=(3, 2, 1), ranks=(1, 2, 3), teams=(0, 1, 2), deal_points=()),
        Result(scores=(2, 2, 1), ranks=(1, 1, 3), teams=(0, 1, 2), deal_points=()),
        Result(scores=(1, 3, 2), ranks=(3, 1, 2), teams=(0, 1, 2), deal_points=()),
        Result(
            scores=(1, 3, 1, 3), ranks=(3, 1, 3, 1), teams=(0, 1, 0, 1), deal_points=()
        ),
    ]
    seatings = [("a", "b", "c"), ("c", "a", "b"), ("b", "c", "a"), ("a", "c", "a", "c")]
    matches = [(s, r, None) for s, r in zip(seatings, results, strict=True)]
    pl = fit_plackett_luce(rankings_from_matches(matches))
    bt = fit_ratings(pair_results_from_matches(matches))
    for name in "abc":
        assert pl[name].score == pytest.approx(bt[name].score)
        assert pl[name].weight == pytest.approx(bt[name].weight)
    assert pl["a"].games == 4 and pl["b"].games == 3


@pytest.mark.slow
@pytest.mark.parametrize(("seats", "matches"), [(3, 150), (4, 100), (6, 60)])
def test_sandwich_intervals_cover_95_percent(seats: int, matches: int) -> None:
    """400 simulated pools of six entrants: stated 95 % intervals of each rating
    (to the pool mean) and of two differences cover the truth 93-97 % of the time
    (2400 and 800 intervals: about ±1.4 and ±2.3 points at 3 standard errors)."""
    rng = np.random.default_rng(100 + seats)
    true = np.array([-150.0, -60.0, 0.0, 20.0, 70.0, 120.0])
    ratings = differences = 0
    rounds = 400
    for _ in range(rounds):
        fit = fit_plackett_luce(simulate(rng, true, seats, matches))
        for k in range(len(true)):
            line = fit[f"e{k}"]
            ratings += line.lower <= true[k] <= line.upper
        for a, b in ((0, 5), (2, 3)):
            _, lo, hi = fit.difference(f"e{a}", f"e{b}")
            differences += lo <= true[a] - true[b] <= hi
    assert 0.93 <= ratings / (rounds * len(true)) <= 0.97
    assert 0.93 <= differences / (rounds * 2) <= 0.97
