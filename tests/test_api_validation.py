"""The Python API validates like the CLI (issue 10 item 7): what 0.1.0 silently truncated, accepted
or let escape as another exception is a ValueError or TypeError whose message names the argument."""

import numpy as np
import pytest

from wizsim import format_cards, legal_plays, parse_cards, score, trick_winner


def raises_naming(exc, name, fn, *args, **kwargs):
    with pytest.raises(exc) as err:
        fn(*args, **kwargs)
    assert name in str(err.value), str(err.value)
    return str(err.value)


def test_float_card_ids_are_not_truncated():
    raises_naming(TypeError, "text", parse_cards, [1.5])
    raises_naming(TypeError, "text", parse_cards, np.array([1.0, 2.0]))


def test_float_and_text_scores_are_not_truncated():
    raises_naming(TypeError, "bid", score, 1.7, 1)
    raises_naming(TypeError, "bid", score, "3", 3)
    raises_naming(TypeError, "tricks", score, 3, np.array([1.5]))


def test_two_dimensional_cards_are_refused():
    raises_naming(TypeError, "text", parse_cards, np.array([[0, 1], [2, 3]]))
    raises_naming(TypeError, "trick", trick_winner, [[17, 30]], 0)
    raises_naming(TypeError, "hand", legal_plays, np.array([[0, 1]]), "")


def test_scores_out_of_range_are_errors_not_numbers():
    raises_naming(ValueError, "bid", score, -1, 0)
    raises_naming(ValueError, "tricks", score, 0, 2**70)
    raises_naming(ValueError, "bid", score, np.array([2**40]), 0)
    assert score(20, 20) == 220 and score(np.array([[0, 2]]), 2).tolist() == [[-20, 40]]


def test_format_cards_refuses_a_duplicate():
    raises_naming(ValueError, "ids", format_cards, [0, 0])
    raises_naming(ValueError, "ids", format_cards, [60])


def test_legal_plays_refuses_oversized_hands_and_tricks():
    raises_naming(ValueError, "hand", legal_plays, list(range(60)), [])
    raises_naming(ValueError, "trick", legal_plays, "AS", "2S,3S,4S,5S,6S,7S,8S")
    raises_naming(ValueError, "trick", trick_winner, "2S,3S,4S,5S,6S,7S,8S", "S")


def test_trump_true_is_not_hearts():
    raises_naming(TypeError, "trump", trick_winner, "5H,AH,2S", True)
    raises_naming(TypeError, "trump", trick_winner, "5H,AH,2S", 1.0)
    assert trick_winner("5H,AH,2S", 1) == 1


def test_error_lines_cut_a_5000_card_input():
    text = ",".join(["AS"] * 2 + ["2S"] * 4998)
    message = raises_naming(ValueError, "text", parse_cards, text)
    assert len(message) < 300 and "..." in message
