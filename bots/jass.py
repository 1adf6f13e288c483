"""A rule-of-thumb bot for the jass family (klaverjassen and its variants).

It reads only its view. Bidding: it values its hand with a suit as trump
(:func:`hand_strength`) and plays, names a suit, bids or doubles when the value
is high enough. Card play: as leader of the playing side it draws trumps while
it holds the best one left; otherwise it leads aces, else a cheap card. As
follower it lets a partner's sure trick stand and throws points on it; else it
takes the trick as cheaply as it can, or throws its cheapest card. It always
declares roem in hand and the stuk (Kraken): declared roem can only add to its
side.
"""

from __future__ import annotations

from collections.abc import Sequence

from bots import jass_skart
from bots.jass_hands import SUIT_WORDS, hand_strength
from games.cards import PIQUET, PIQUET24, SUITS, CardMask, Deck
from games.jass import belote, klapper, klaverjassen
from games.jass.declarations import best_declarations
from games.tricks import TrickTables
from harness import Bot, View, hookimpl

__all__ = ["JassBot"]

#: Hand value from which the bot takes a contract, and from which it doubles.
PLAY_AT = 9.0
DOUBLE_AT = 11.0


class JassBot(Bot):
    """Heuristic player of the jass family's games (see the module docstring)."""

    name = "jass"
    description = (
        "Rules of thumb: bids on its hand's worth, draws trumps, leads aces, lets a "
        "partner's sure trick stand"
    )
    games = frozenset(
        {
            "klaverjassen",
            "klapper",
            "belote",
            "klaverjassen-3",
            "kleintje-klaverjas",
        }
    )

    def act(self, view: View) -> str:
        """The action the rules of thumb pick among ``view.legal_actions``."""
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        if isinstance(view, jass_skart.SKART_VIEWS):
            own = jass_skart.decide(view)  # skart, bids of points, claims
            if own is not None:
                return own
        hand: tuple[str, ...] = view.hand  # type: ignore[attr-defined]
        if "stuk" in legal:  # Kraken's stuk in hand (R22): 20 for the side
            return "stuk"
        if "roem" in legal:
            if isinstance(view, belote.BeloteView) and not _belote_declare(view, hand):
                legal = tuple(a for a in legal if a != "roem")
            else:
                return "roem"
        deck, _, _ = _game_of(view)
        cards = [a for a in legal if a in deck.index]
        if cards and len(cards) == len(legal):
            return self._card(view, hand, cards)
        if isinstance(view, belote.BeloteView):
            return _belote_bid(view, hand, legal)
        return self._bid(view, hand, legal)

    # -- bidding ----------------------------------------------------------------

    def _bid(self, view: View, hand: tuple[str, ...], legal: Sequence[str]) -> str:
        if "play" in legal:
            turned = SUITS.index(view.turned[-1])  # type: ignore[attr-defined]
            return "play" if hand_strength(hand, turned) >= _bar(hand) else "pass"
        best = max(range(4), key=lambda s: hand_strength(hand, s))
        strength = hand_strength(hand, best)
        if SUIT_WORDS[best] in legal:
            if "pass" in legal and strength < _bar(hand):
                return "pass"
            return SUIT_WORDS[best]
        bids = [a for a in legal if a[:-1].isdigit()]
        if bids:  # Leids: the lowest bid in the best suit the hand can carry
            reach = 82 + 10 * int(strength - PLAY_AT)
            mine = [b for b in bids if b[-1] == SUITS[best] and int(b[:-1]) <= reach]
            if mine and (strength >= PLAY_AT or "pass" not in legal):
                return mine[0]
            return "pass" if "pass" in legal else bids[0]
        # Doubling (Kraken): call with a strong hand in the chosen trump.
        trump = SUITS.index(view.trump)  # type: ignore[attr-defined]
        call = legal[0]
        return (
            call if hand_strength(hand, trump) >= DOUBLE_AT * len(hand) / 8 else "pass"
        )

    # -- card play ----------------------------------------------------------------

    def _card(self, view: View, hand: tuple[str, ...], legal: list[str]) -> str:
        trump = SUITS.index(view.trump)  # type: ignore[attr-defined]
        deck, all_tables, teams = _game_of(view)
        tables = all_tables[trump]
        index = deck.index
        seen = deck.mask(hand)
        for record in view.tricks:  # type: ignore[attr-defined]
            seen |= deck.mask(record[1])
        trick: tuple[tuple[int, str], ...] = view.trick  # type: ignore[attr-defined]
        for _, card in trick:
            seen |= 1 << index[card]
        unseen = deck.full & ~seen
        seat = view.seat
        if not trick:
            return self._lead(view, legal, tables, unseen, trump, deck, teams)
        best_seat, best = trick[0][0], index[trick[0][1]]
        for s, card in trick[1:]:
            c = index[card]
            if tables.beats[best] >> c & 1:
                best_seat, best = s, c
        last = len(trick) == _trick_size(view) - 1
        points = tables.points
        partner_sure = teams[best_seat] == teams[seat] and (
            last or not tables.beats[best] & unseen
        )
        if partner_sure:  # throw the most points that are not a useful trump
            return max(legal, key=lambda a: points[index[a]] - 30 * _trump(a, trump))
        winners = [a for a in legal if tables.beats[best] >> index[a] & 1]
        if winners:
            # The cheapest card that wins: least strength among the winners.
            return min(winners, key=lambda a: _rank_key(tables, index[a]))
        return min(legal, key=lambda a: (points[index[a]], _rank_key(tables, index[a])))

    def _lead(
        self,
        view: View,
        legal: list[str],
        tables: TrickTables,
        unseen: CardMask,
        trump: int,
        deck: Deck,
        teams: tuple[int, ...],
    ) -> str:
        index = deck.index
        player: int | None = view.player  # type: ignore[attr-defined]
        playing = player is not None and teams[player] == teams[view.seat]
        trumps = [a for a in legal if _trump(a, trump)]
        their_trumps = unseen & deck.suit_masks[trump]
        if playing and trumps and their_trumps:
            top = max(trumps, key=lambda a: _rank_key(tables, index[a]))
            if not tables.beats[index[top]] & unseen:
                return top  # the best trump left: draw theirs
        plain = [a for a in legal if not _trump(a, trump)] or legal
        # An ace (or a card whose betters are gone) takes the trick unless trumped.
        plain_unseen = unseen & ~tables.trumps
        masters = [a for a in plain if not tables.beats[index[a]] & plain_unseen]
        if masters:
            return max(masters, key=lambda a: tables.points[index[a]])
        return min(
            plain, key=lambda a: (tables.points[index[a]], _rank_key(tables, index[a]))
        )


def _bar(hand: Sequence[str]) -> float:
    """The value from which to play, for a hand of this size (8 in klaverjassen)."""
    return PLAY_AT * len(hand) / 8


def _game_of(view: View) -> tuple[Deck, tuple[TrickTables, ...], tuple[int, ...]]:
    """The pack, the trick tables by trump suit and the teams of ``view``'s game."""
    if isinstance(view, klapper.KlapperView):
        return PIQUET24, klapper.TRUMP_TABLES, view.teams
    if isinstance(view, belote.BeloteView):
        return PIQUET, klaverjassen.TRUMP_TABLES, tuple(range(len(view.scores)))
    if isinstance(view, jass_skart.SKART_VIEWS):
        return PIQUET, klaverjassen.TRUMP_TABLES, jass_skart.sides(view)
    return PIQUET, klaverjassen.TRUMP_TABLES, (0, 1, 0, 1)


def _trick_size(view: View) -> int:
    """Cards in a full trick: four, or one per seat playing the deal."""
    if isinstance(view, jass_skart.SKART_VIEWS):
        return len(view.active)
    return 4


def _trump(card: str, trump: int) -> int:
    return 1 if card[1] == SUITS[trump] else 0


def _rank_key(tables: TrickTables, card: int) -> int:
    """Higher for stronger cards: how few cards beat it."""
    return -tables.beats[card].bit_count()


# -- Belote's own decisions (seed 002 line 57) -----------------------------------

#: Belote: the value, per card held, from which the bot takes trump; lower with
#: more players, since the maker need only beat each of them alone.
_BELOTE_BAR = {2: 1.2, 3: 1.0, 4: 1.2}


def _belote_bid(
    view: belote.BeloteView, hand: tuple[str, ...], legal: Sequence[str]
) -> str:
    """Belote's bidding, Smous, Koe and Dix: take or name the suit its hand is
    worth most in when that clears the bar; say Smous (two seats) a little
    below it; let a Smous bidder play only when holding his trumps; always
    exchange the Dix (the turned card is worth more than the seven)."""
    if belote.DIX in legal:
        return belote.DIX
    n = len(view.scores)
    bar = _BELOTE_BAR[n] * len(hand)
    if belote.ACCEPT in legal:
        bid = view.bids[-1][1]
        suit = (
            SUITS.index(view.turned[1])
            if bid == belote.SMOUS
            else SUIT_WORDS.index(bid.split(":")[1])
        )
        return (
            belote.ACCEPT if hand_strength(hand, suit) >= bar * 0.6 else belote.REDEAL
        )
    if belote.TAKE in legal:
        value = hand_strength(hand, SUITS.index(view.turned[1]))
        if value >= bar:
            return belote.TAKE
        if belote.SMOUS in legal and value >= 0.8 * bar:
            return belote.SMOUS
        return belote.PASS
    best = max(range(4), key=lambda s: hand_strength(hand, s))
    value = hand_strength(hand, best)
    if belote.PASS not in legal or value >= bar:
        return SUIT_WORDS[best]  # the Koe, or a strong hand
    smous = f"{belote.SMOUS}:{SUIT_WORDS[best]}"
    if smous in legal and value >= 0.8 * bar:
        return smous
    return belote.PASS


def _announced_value(word: str) -> tuple[int, int]:
    """``(points, cards)`` of a Belote announcement such as ``"run:4:K"``."""
    rules = belote.BELOTE_ROEM
    parts = word.split(":")
    if parts[0] == "four":
        return rules.fours[parts[1]], 4
    return rules.run_points(int(parts[1])), int(parts[1])


def _belote_declare(view: belote.BeloteView, hand: tuple[str, ...]) -> bool:
    """Declare unless someone already announced a better declaration: only
    the best declarer scores (seed 002 line 79), and a declaration that cannot
    win only tells the table where the cards are."""
    found = best_declarations(PIQUET.mask(hand), belote.BELOTE_ROEM)
    if not found:
        return False
    mine = max((d.points, d.length) for d in found)
    theirs = [_announced_value(word) for _, words, _ in view.declared for word in words]
    return not theirs or mine >= max(theirs)


@hookimpl
def troef_bots() -> Sequence[type[Bot]]:
    """Register the jass bot."""
    return [JassBot]
