"""Card ids, masks and the text notation of docs/rules.md section 1."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import distinct_cards

from wizsim import CardError, format_cards, parse_cards
from wizsim.cards import (
    FIRST_JESTER,
    FIRST_WIZARD,
    FULL_DECK_MASK,
    JESTER_MASK,
    N_CARDS,
    SUIT_MASKS,
    WIZARD_MASK,
    cards_to_mask,
    mask_to_cards,
    masks_to_cards_matrix,
    parse_trump,
)


def ids(text):
    return parse_cards(text).tolist()


# --- ids (docs/rules.md 1, "Card identifiers") ---

def test_card_ids_follow_suit_times_13_plus_rank():
    assert ids("2S,AS,2H,AC") == [0, 12, 13, 51]
    for suit, s in enumerate("SHDC"):
        for rank, k in enumerate("23456789TJQKA"):
            assert ids(k + s) == [suit * 13 + rank]


def test_wizards_are_52_to_55_and_jesters_56_to_59():
    assert ids("W,W,W,W") == [52, 53, 54, 55]
    assert ids("J,J,J,J") == [56, 57, 58, 59]


def test_sixty_cards_and_masks_partition_the_deck():
    assert N_CARDS == 60
    assert int(FULL_DECK_MASK) == (1 << 60) - 1
    parts = [int(m) for m in SUIT_MASKS] + [int(WIZARD_MASK), int(JESTER_MASK)]
    assert sum(bin(m).count("1") for m in parts) == 60
    union = 0
    for m in parts:
        assert union & m == 0
        union |= m
    assert union == int(FULL_DECK_MASK)


def test_mask_bit_id_is_set_when_card_present():
    assert cards_to_mask([0, 12, 59]) == 1 | 1 << 12 | 1 << 59
    assert mask_to_cards(1 << 52 | 1 << 3).tolist() == [3, 52]


@given(distinct_cards())
def test_mask_round_trip(cards):
    mask = cards_to_mask(cards)
    assert mask_to_cards(mask).tolist() == sorted(cards)
    matrix = masks_to_cards_matrix(np.array([mask], dtype=np.uint64))
    assert np.flatnonzero(matrix[0]).tolist() == sorted(cards)


def test_trump_codes_and_text():
    assert [parse_trump(t) for t in ("S", "h", "D", "c", "none", "NONE", None)] == [0, 1, 2, 3, -1, -1, -1]
    assert [parse_trump(t) for t in (-1, 0, 3)] == [-1, 0, 3]
    for bad in ("X", "spades", 4, -2):
        with pytest.raises(CardError):
            parse_trump(bad)


# --- text notation ---

def test_ten_written_T_or_10():
    assert ids("TH") == ids("10H") == [21]


def test_wizard_spellings_W_Z_Wizard():
    assert ids("W") == ids("Z") == ids("Wizard") == ids("wizard") == [52]


def test_jester_spellings_J_N_Jester():
    assert ids("J") == ids("N") == ids("Jester") == ids("jester") == [56]


def test_J_followed_by_a_suit_is_the_jack():
    assert ids("JS") == [9]
    assert ids("JS,J") == [9, 56]


def test_case_does_not_matter():
    assert ids("as,Th,qD,w,j,n,z") == ids("AS,TH,QD,W,J,N,Z")


def test_spaces_around_commas_are_ignored():
    assert ids(" W , AS ,3H ") == ids("W,AS,3H") == [52, 12, 14]


def test_canonical_output_uses_W_J_T():
    assert format_cards(parse_cards("Z,N,10H,Wizard,Jester,as")) == "W,J,TH,W,J,AS"


def test_format_keeps_the_order_given():
    assert format_cards([52, 12, 14]) == "W,AS,3H"


def test_kth_wizard_gets_id_51_plus_k_and_kth_jester_55_plus_k():
    assert ids("W,J,AS,Z,N,Wizard,Jester,W,J") == [52, 56, 12, 53, 57, 54, 58, 55, 59]


def test_turned_up_wizard_takes_next_free_wizard_id():
    hand = parse_cards("W,W,AS")
    assert parse_cards("W", taken=hand).tolist() == [54]
    assert parse_cards("J", taken=parse_cards("J")).tolist() == [57]


@pytest.mark.parametrize("token", ["1S", "13S", "11H", "12d", "1c"])
def test_commercial_ranks_rejected_with_accepted_form(token):
    with pytest.raises(CardError) as err:
        parse_cards(f"AS,{token}")
    msg = str(err.value)
    suit = token[-1].upper()
    assert repr(token) in msg  # names the bad token
    assert f"2{suit}" in msg and f"A{suit}" in msg  # shows the accepted form


@pytest.mark.parametrize("text", ["AS,,3H", ",AS", "AS,", "AS, ,3H"])
def test_empty_token_is_an_error(text):
    with pytest.raises(CardError, match="empty card"):
        parse_cards(text)


@pytest.mark.parametrize("text,bad", [("AS,XX", "XX"), ("1X", "1X"), ("JX", "JX"), ("A", "A"), ("S,AS", "S"),
                                      ("14S", "14S"), ("AS,Queen", "Queen")])
def test_unknown_token_is_named_in_the_error(text, bad):
    with pytest.raises(CardError) as err:
        parse_cards(text)
    assert repr(bad) in str(err.value)
    assert "W,AS" in str(err.value)  # an accepted example


def test_card_error_is_a_value_error():
    assert issubclass(CardError, ValueError)


@pytest.mark.parametrize("text,bad", [("AS,as", "as"), ("TH,10H", "10H"), ("JS,3H,js", "js")])
def test_duplicate_suited_card_rejected(text, bad):
    with pytest.raises(CardError, match="duplicate") as err:
        parse_cards(text)
    assert repr(bad) in str(err.value)


def test_more_than_four_wizards_rejected():
    with pytest.raises(CardError, match="more than 4 Wizards"):
        parse_cards("W,Z,Wizard,W,W")


def test_more_than_four_jesters_rejected():
    with pytest.raises(CardError, match="more than 4 Jesters"):
        parse_cards("J,N,J,Jester,J")


def test_four_of_each_special_is_fine():
    assert len(ids("W,W,W,W,J,J,J,J")) == 8


def test_empty_text_is_an_empty_hand():
    assert parse_cards("").size == 0


def test_parse_returns_int8_in_given_order():
    out = parse_cards("3H,W,AS")
    assert out.dtype == np.int8
    assert out.tolist() == [14, 52, 12]


def test_id_sequences_are_checked():
    assert parse_cards([0, 59]).tolist() == [0, 59]
    with pytest.raises(CardError, match="60"):
        parse_cards([60])
    with pytest.raises(CardError, match="duplicate"):
        parse_cards([3, 3])
    with pytest.raises(CardError):
        format_cards([-1])


@given(distinct_cards())
def test_format_then_parse_round_trip(cards):
    text = format_cards(cards)
    back = parse_cards(text).tolist()
    # Wizards and Jesters are interchangeable: they are renumbered in order of appearance
    assert format_cards(back) == text
    assert [c for c in back if c < FIRST_WIZARD] == [c for c in cards if c < FIRST_WIZARD]
    assert sorted(c for c in back if c >= FIRST_JESTER) == list(range(56, 56 + sum(c >= 56 for c in cards)))


@given(distinct_cards(), st.randoms())
def test_parse_tolerates_any_case_and_spacing(cards, rnd):
    tokens = format_cards(cards).split(",") if cards else []
    messy = ",".join(" " * rnd.randint(0, 2) + "".join(ch.lower() if rnd.random() < 0.5 else ch for ch in t)
                     + " " * rnd.randint(0, 2) for t in tokens)
    assert format_cards(parse_cards(messy)) == format_cards(parse_cards(",".join(tokens)))
