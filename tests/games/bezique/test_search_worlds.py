"""The worlds a search values in the Bezique family: what a seat's view shows
must be what a world built from it holds (issue 35, the PIMC forfeit).

In the tuning run tournaments/tuning-bezique-pimc.toml (match 15, job
127b90b26bdb85a6) ``pimc`` forfeited with "seat 1 may not 'meld:bezique' now;
legal: meld:stuk, pass": its view listed the bezique, the worlds sampled from
that view did not. The cause was the view's cache of ``shown``, keyed by the
open cards and a counter of declarations: a new deal cleared the cards'
histories without a new key, so a card laid open in the new deal with the
same index (the same physical copy) as one declared late in the deal before
was shown with the old combinations. The sampler (R9) gave the world those
histories, and in it the queen could no longer join a bezique (R4).

Rule text: ../shared/seeds/000_f1f8b277f898f51f.txt ("seed 000 line N");
rulings: games/bezique/RULES.md (R4 the same combination once, R8 public
cards, R9 sampling).
"""

from __future__ import annotations

import random

import pytest

from bots.pimc import PIMCBot
from games.bezique import Bezique, Binage, Fildinski, Marjolet, Rubicon
from games.bezique.family import MELD, FamilyGame, FamilyState

#: Match 15 of the tuning run: its seed and every action, 269, to pimc's
#: forfeit (the first action of deal 3 is number 264: 7C 7D dix 9S 8H).
MATCH15_SEED = 7192384455387485998
MATCH15_LOG = """
    8H TS pass 8D 8S dix JC AS pass KD 9H pass AD TS pass JH QH pass 7D 8S pass KC
    7S pass 7H JC pass JS TC pass KS KH pass 8H 9D pass JS 8D pass TH AH pass 9S 7H
    pass QD KD pass AC QS* pass 8C AC pass AH AS pass 7C QC pass 9S 9C pass KH 8C
    meld:marias:C QC* 9C meld:bezique KC* 7C pass 9H QH AD 7D TD 9D TD JD TH JH QD
    JD* 7S* QS* KS TC JH 8C pass 7D 9C pass AC 9D pass 7S 8D pass AC 7C pass TC 9C
    pass 7D QH pass AH KC pass QD TD pass 8D JH pass 8S QD pass TH AH pass 7H JC
    meld:bezique 8H 7S pass JS KH meld:stuk 8S 9D pass 9S 8H pass QC* TD pass QS* 7H
    pass AS KD pass 8C QH pass JC TH pass KC* TS pass 9H 9H pass KS AS TC KS AD JD*
    AD KD QC KH 7C* 9S JD JS QS TS 7D QD pass AH 8C pass 8D KD pass 7D 8H pass 7H 9H
    meld:marias:H 7H QH pass TH JC pass 8H 7C pass TH 9S pass 8S 9S pass JH 8D pass
    JH 7S dix JS AS meld:bezique 9C 9D pass AS 8C meld:stuk QH* 9H pass KH 8S pass
    KH* 9D pass KS TS meld:marias:D JC KS pass AD KC* pass TS JD* pass QS AC pass JS
    AD pass JD 7C* AC 9C TC TD TC TD AH QD* KC KD* QC 7S QC* QS* 7C 7D dix 9S 8H
""".split()


def referee_line(game: FamilyGame, seed: int, log: list[str]) -> FamilyState:
    """``log`` played from ``seed`` as the referee plays it: the view of the
    seat to act is taken before every action (harness/match/referee.py)."""
    state = game.new_match(2, seed)
    for action in log:
        assert state.to_act is not None
        state.view(state.to_act)
        state.apply(action)
    return state


def quiet_line(game: FamilyGame, seed: int, log: list[str]) -> FamilyState:
    """``log`` played from ``seed`` with no view taken on the way."""
    state = game.new_match(2, seed)
    for action in log:
        state.apply(action)
    return state


def test_the_card_taken_with_the_dix_shows_no_declaration_of_the_deal_before() -> None:
    """Deal 2 of match 15: seat 1 declared a bezique (JD QS, seed 000 line 121)
    and played that QS last. Deal 3: seat 1 took the turned QS with the dix
    (line 123) and won the next trick. The QS lies open with no declaration
    of this deal (R8); so seat 1 may declare the bezique with it (R4: new to
    the kind), as its view says."""
    game = Bezique(target=500)
    view = referee_line(game, MATCH15_SEED, MATCH15_LOG).view(1)
    assert view.deal == 3 and view.phase == "meld"
    assert [m[:2] for m in view.melds] == [(1, "dix")]
    assert view.shown == ((), (("QS", ()),))
    assert view.legal_actions == ("meld:stuk", "meld:bezique", "pass")
    assert view == quiet_line(game, MATCH15_SEED, MATCH15_LOG).view(1)


def test_worlds_from_that_view_allow_what_the_view_allows() -> None:
    """R9: a world keeps every public fact, so its legal moves are the view's;
    PIMC, with the tuning run's options, values the bezique in each."""
    game = Bezique(target=500)
    view = referee_line(game, MATCH15_SEED, MATCH15_LOG).view(1)
    sampler = game.sampler(view)
    rng = random.Random(15)
    for _ in range(20):
        world = sampler.sample(rng)
        assert world.legal_actions() == view.legal_actions
        assert world.view(1) == view
        world.apply(MELD + "bezique")
    options = {"rollouts": 2, "evaluation": "game", "max_rollout": 10}
    # The number of worlds ends the search, not the clock.
    bot = PIMCBot(game, 1, 127, {**options, "worlds": 8, "seconds": 60.0})
    assert bot.act(view) in view.legal_actions
    assert bot.last_worlds == 8


GAMES: tuple[FamilyGame, ...] = (
    Bezique(target=300),
    Rubicon(target=150),
    Fildinski(target=200),
    Marjolet(target=150),
    Binage(target=150),
)


def _snapshot(state: FamilyState) -> tuple[object, ...]:
    """What a search must leave as it found it: both views, the legal moves,
    where every card is, the scores."""
    return (
        state.view(0),
        state.view(1),
        state.legal_actions() if not state.is_over() else (),
        dict(state.card_locations()),
        state.result() if state.is_over() else None,
    )


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_searching_a_world_leaves_it_and_its_view_as_they_were(
    game: FamilyGame,
) -> None:
    """Over seeded matches of a player who declares whenever it may (so
    histories, open cards and the dix come often), at every decision taken as
    the referee takes it: a clone played on never changes its source
    (PIMC values each action in its own clone); the deal estimate of a
    cut-off rollout (``evaluation = "game"``) changes nothing; and at a
    declaration a world sampled from the view allows what the view allows,
    and shows it the same view (R9)."""
    rng = random.Random(game.name)
    for seed in range(2):
        state = game.new_match(2, seed)
        while not state.is_over():
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            before = _snapshot(state)
            child = state.clone()
            for _ in range(6):  # across a trick and its declarations
                if child.is_over():
                    break
                legal = child.legal_actions()
                child.apply(legal[int(rng.random() * len(legal))])
            estimate = game.deal_estimate(state)
            assert game.deal_estimate(state) == estimate
            assert _snapshot(state) == before
            if view.phase == "meld":
                world = game.sampler(view).sample(rng)
                assert world.legal_actions() == view.legal_actions
                assert world.view(seat) == view
            legal = view.legal_actions
            melds = [a for a in legal if a.startswith(MELD) or a == "dix"]
            state.apply(rng.choice(melds or list(legal)))
