"""Wizards and Jesters are interchangeable copies (docs/rules.md 1; issue 10 item 8): the same Wizard or
Jester id in two places (a hand and the trick, twice in one list) is two copies, as a turned-up
Wizard already is; a fifth copy is an error, a suited card twice is a duplicate. docs/rules.md's worked
examples written with each card parsed on its own (so every Wizard is id 52, every Jester id 56)."""

import pytest

from wizsim import CardError, format_cards, legal_plays, parse_cards, trick_winner

W, J = int(parse_cards("W")[0]), int(parse_cards("J")[0])


def each(text):
    """Each card parsed on its own, as a caller holding ids from separate places would have them."""
    return [int(parse_cards(token)[0]) for token in text.split(",")]


def test_rules_example_wizard_led_every_card_legal_with_ids_from_separate_parses():
    # docs/rules.md 7: holding AS, 3H, W, J on a trick led with W: every card
    got = legal_plays(parse_cards("AS,3H,W,J"), parse_cards("W"))
    assert format_cards(got) == "AS,3H,W,J"


def test_rules_example_jester_then_9D_every_card_legal_with_a_second_jester():
    got = legal_plays(parse_cards("AS,3H,W,J"), parse_cards("J,9D"))
    assert format_cards(got) == "AS,3H,W,J"


def test_rules_example_led_5S_with_ids():
    assert format_cards(legal_plays(parse_cards("AS,3H,W,J"), parse_cards("5S"))) == "AS,W,J"


@pytest.mark.parametrize("trick, trump, winner", [
    ("W,W,AS", "S", 0),        # first W
    ("J,J,J,J", "S", 0),       # first J
    ("7C,W,AC,W", "H", 1),     # first W, the second card
    ("J,J,9D,KD", "H", 3),     # Jesters lead, 9D sets diamonds
])
def test_rules_trick_table_with_repeated_wizard_and_jester_ids(trick, trump, winner):
    ids = each(trick)
    assert len(set(ids)) < len(ids)  # the same id stands twice: copies, not an error
    assert trick_winner(ids, trump) == winner == trick_winner(trick, trump)


def test_rule_functions_take_card_text_and_lists_of_card_texts():
    assert trick_winner(["J", "J", "9D", "KD"], "H") == 3
    assert format_cards(legal_plays(["AS", "3H", "W", "J"], ["W"])) == "AS,3H,W,J"
    assert format_cards(legal_plays("AS,3H,W,J", "5S")) == "AS,W,J"


def test_copies_take_free_ids_of_their_kind():
    assert parse_cards([52, 52]).tolist() == [52, 53]
    assert parse_cards([53, 53, 52]).tolist() == [53, 54, 52]  # an id given later keeps its own
    assert format_cards([52, 52, 56, 56]) == "W,W,J,J"
    assert parse_cards([52], taken=[52, 53]).tolist() == [54]


def test_a_fifth_copy_is_an_error():
    with pytest.raises(CardError, match="more than 4 Wizards"):
        legal_plays("W,W,W", [W, W])
    with pytest.raises(CardError, match="more than 4 Jesters"):
        parse_cards([J] * 5)


def test_a_suited_card_in_two_places_is_still_a_duplicate():
    with pytest.raises(CardError, match="duplicate"):
        legal_plays(parse_cards("AS,3H"), parse_cards("AS"))
    with pytest.raises(CardError, match="duplicate"):
        format_cards([0, 0])
