"""``docs/CARDS.md`` says how every card of every deck is written (issue #25).

The doc's deck tables are generated from ``games/cards.py`` (``tests/cards_doc.py``);
these tests read the doc as a person would and check each card it names
against the code, both ways.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games import cards
from harness.contracts.errors import InvalidActionError
from tests.cards_doc import DECKS, DOC, render, replaced

ROOT = Path(__file__).parents[2]


def _section(name: str) -> str:
    text = DOC.read_text()
    start = text.index(f"### `{name}`")
    end = text.find("### ", start + 4)
    return text[start : end if end >= 0 else len(text)]


def test_the_doc_is_up_to_date_with_the_code() -> None:
    text = DOC.read_text()
    assert replaced(text) == text, (
        "docs/CARDS.md differs from games/cards.py: run "
        "`python -m tests.cards_doc --write` and read the diff"
    )
    assert render() in text


@pytest.mark.parametrize("name", DECKS)
def test_every_card_the_doc_names_parses_and_prints_as_written(name: str) -> None:
    deck = getattr(cards, name)
    table = [line for line in _section(name).splitlines() if line.startswith("|")]
    rows = table[2:]  # below the header and its rule
    written = [c for row in rows for c in re.findall(r"`([^`]+)`", row.split("|")[2])]
    assert written == list(deck.faces)  # every card, in index order, once
    for card in written:
        index = deck.parse(card)
        assert deck.cards[index] == card
        assert deck.names(deck.face_masks[deck.face_of(index)]) == (card,) * deck.copies
        assert str(cards.CardSet.of(deck, [card])) == card


@pytest.mark.parametrize("name", DECKS)
def test_the_other_decks_spelling_of_a_ten_is_refused(name: str) -> None:
    """The doc's ten ruling: ``T`` in French-suited packs, ``10`` in tarot."""
    deck = getattr(cards, name)
    wrong = "TC" if name == "TAROT" else "10C"
    with pytest.raises(InvalidActionError, match=re.escape(repr(wrong))):
        deck.parse(wrong)
    with pytest.raises(InvalidActionError):
        deck.parse("jc")  # cards are upper case


def test_the_doc_is_linked_from_both_readmes() -> None:
    assert "docs/CARDS.md" in (ROOT / "README.md").read_text()
    assert "../docs/CARDS.md" in (ROOT / "games" / "README.md").read_text()


#: The expression docs/CARDS.md gives a bot for any card of any deck.
_ANY_CARD = r"(?:EX|(?:[2-9TJNQKA]|1[0-9]?|2[01]?)[CDHST])"


@pytest.mark.parametrize("name", DECKS)
def test_the_docs_reading_rule_and_expression_read_every_card(name: str) -> None:
    """ "The suit is the last character, the rank everything before it"."""
    text = DOC.read_text()
    assert f"`{_ANY_CARD}`" in text
    deck = getattr(cards, name)
    for card in deck.faces:
        assert re.fullmatch(_ANY_CARD, card)
        assert re.fullmatch(deck.pattern(), card)
        if card in deck.extras:
            assert card == "EX"
            continue
        rank, suit = card[:-1], card[-1]
        assert suit in deck.suits
        assert rank in deck.suit_ranks[deck.suits.index(suit)]
    # One deck's pattern takes only its own cards.
    others = {c for d in DECKS for c in getattr(cards, d).faces} - set(deck.faces)
    assert not any(re.fullmatch(deck.pattern(), c) for c in others)
