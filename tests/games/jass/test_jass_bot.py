"""The heuristic jass bot (bots/jass.py): its rules of thumb on hands a card
player recognises, and its edge over random play in klaverjassen and every
variant (the SPRT configs tournaments/klaverjassen*-jass-sprt.toml test it
with significance; here a fixed set of duplicate seeds)."""

from __future__ import annotations

import pytest

from bots.jass import PLAY_AT, JassBot
from bots.jass_hands import hand_strength
from bots.random_bot import RandomBot
from games.jass import Klapper, Klaverjassen
from games.jass.klaverjassen import VARIANTS, KlaverjassenState
from harness import Bot
from harness.match.referee import make_bots, play_match
from harness.plugins import load_plugins

GAME = Klaverjassen()

HANDS = [
    "JH 9H AH 7H AS TS 7C 8D",
    "7S 8S JC QC KC 7D 9D TD",
    "8H TH KH QS KS 8C 9C AC",
    "QH 9S JS TC JD QD KD AD",
]


def bot(seat: int, game: Klaverjassen = GAME) -> JassBot:
    return JassBot(game, seat, seed=1)


def position(hands: list[str] = HANDS, trump: str = "H") -> KlaverjassenState:
    return KlaverjassenState.from_hands(GAME, hands, trump=trump, deal=4)


def test_registered_for_klaverjassen() -> None:
    """The bot is a plugin like the others, for the jass family's games."""
    assert load_plugins().bots["jass"] is JassBot


def test_hand_strength_counts_jas_nel_and_aces() -> None:
    """Seat 0 with hearts trump holds Jas, Nel, ace and 7 of trump (4 + 3 + 2 +
    0.75) and the ace and ten of spades (1.5 + 1.0): 12.25, a hand to play on."""
    hand = HANDS[0].split()
    assert hand_strength(hand, 2) == pytest.approx(12.25)
    assert hand_strength(hand, 2) >= PLAY_AT
    assert hand_strength(HANDS[1].split(), 2) < PLAY_AT  # no heart at all


def test_plays_a_strong_turned_suit_and_passes_a_weak_one() -> None:
    """Seed 004 line 99: play or pass on the turned suit; the bot plays with
    Jas and Nel of it, passes without trumps."""
    game = Klaverjassen(clubs_first=False)
    state = game.new_match(4, 5)
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    choice = bot(seat, game).act(view)
    turned = "CDHS".index(view.turned[0])
    expected = "play" if hand_strength(view.hand, turned) >= PLAY_AT else "pass"
    assert choice == expected


def test_leads_the_best_trump_when_playing() -> None:
    """Seat 0 plays hearts and holds the Jas, the best trump: it draws trumps."""
    state = position()
    assert bot(0).act(state.view(0)) == "JH"


def test_throws_points_on_partners_sure_trick() -> None:
    """Seat 0 leads JH (the Jas, nothing can beat it); seat 2, following hearts,
    throws its most valuable heart, the ten (10), on its partner's trick."""
    state = position()
    state.apply("JH")
    state.apply("7D")  # seat 1 has no heart and no trump
    assert state.to_act == 2
    assert bot(2).act(state.view(2)) == "TH"


def test_takes_the_trick_as_cheaply_as_it_can() -> None:
    """Seat 1 leads 7S; seat 2 holds QS and KS: either wins, the queen is the
    cheaper (seed 004 line 104: K over Q)."""
    hands = [
        "7H 8H 9H TH JH QH KH AH",
        "7S 8C 9C TC JC QC KC AC",
        "QS KS 7D 8D 9D TD JD QD",
        "8S 9S TS JS AS KD AD 7C",
    ]
    state = KlaverjassenState.from_hands(GAME, hands, trump="H", deal=5)
    assert state.to_act == 1
    state.apply("7S")
    assert bot(2).act(state.view(2)) == "QS"


def test_always_declares_roem_in_hand() -> None:
    """Kraken (R22): with roem in hand the bot declares it."""
    game = Klaverjassen(variant="kraken")
    hands = [
        "7S 8S 9S AH 7C 9C JD KD",
        "TS JS 7H 8H 8C TC QD AD",
        "QS KS 9H TH JC QC 7D 8D",
        "AS JH QH KH KC AC 9D TD",
    ]
    state = game.state_class.from_hands(game, hands, trump="H", deal=4)
    state.apply("pass")
    state.apply("pass")
    assert bot(0, game).act(state.view(0)) == "roem"


@pytest.mark.parametrize("variant", VARIANTS)
def test_beats_random_on_duplicate_seeds(variant: str) -> None:
    """Each of 10 seeds played from both sides of the table: the bot's team wins
    at least 15 of the 20 matches, in every variant."""
    game = Klaverjassen(variant=variant, target=500)
    wins = 0
    for seed in range(10):
        for side in (0, 1):
            seats = [JassBot, RandomBot] * 2 if side == 0 else [RandomBot, JassBot] * 2
            result = play_match(game, make_bots(game, seats, seed=seed), seed=seed)
            wins += result.scores[side] > result.scores[1 - side]
    assert wins >= 15


@pytest.mark.parametrize("seats", [4, 6])
def test_beats_random_at_klapper_in_teams(seats: int) -> None:
    """Klapper (seed 002 line 101) at 4 and 6 seats: 20 seeds from both sides,
    the bot's team wins at least 28 of 40 (a random team would win about 20;
    at six seats the bot's team wins about 70%, too close to 15 of 20 for a
    sample of 10 seeds)."""
    game = Klapper(target=300)
    wins = 0
    for seed in range(20):
        for side in (0, 1):
            seating = [JassBot if s % 2 == side else RandomBot for s in range(seats)]
            result = play_match(game, make_bots(game, seating, seed=seed), seed=seed)
            wins += (
                result.ranks[side] == 1
                and result.scores[side] > result.scores[1 - side]
            )
    assert wins >= 28


def test_beats_random_at_klapper_for_three() -> None:
    """Klapper for three (line 151), each for himself: the bot in each seat in
    turn over 10 seeds wins at least 20 of 30 matches (a random player would
    win about 10)."""
    game = Klapper(target=300)
    wins = 0
    for seed in range(10):
        for seat in range(3):
            seating: list[type[Bot]] = [RandomBot, RandomBot, RandomBot]
            seating[seat] = JassBot
            result = play_match(game, make_bots(game, seating, seed=seed), seed=seed)
            wins += result.ranks[seat] == 1
    assert wins >= 20
