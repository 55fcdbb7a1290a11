"""The bid advisor: for every bid, the chance of making it and the expected score, for exactly what
the player knows (``question``), by exact enumeration in round 1 (``exact``) and by Monte Carlo over
the round kernel otherwise (``sampling``), with common random numbers across candidate bids;
``bid.advise`` puts them together. This package only re-exports.
"""

from __future__ import annotations

from wizsim.advisor.advice import Advice
from wizsim.advisor.bid import advise
from wizsim.advisor.question import AdviceError, Question, make_question

__all__ = ["Advice", "AdviceError", "Question", "advise", "make_question"]
