"""The bid advisor: for every bid, the chance of making it and the expected score, for exactly what
the player knows (``question``), by exact enumeration in round 1 (``exact``) and by Monte Carlo over
the round kernel otherwise (``sampling``), with common random numbers across candidate bids;
``bid.advise`` puts them together. Play advice (which card now?) is ``play.advise_play`` over the
state that ``played`` rebuilds from the cards played. This package only re-exports.
"""

from __future__ import annotations

from wizsim.advisor.advice import Advice, PlayAdvice
from wizsim.advisor.bid import advise
from wizsim.advisor.play import advise_play
from wizsim.advisor.question import AdviceError, Question, make_question
from wizsim.advisor.trump import TrumpAdvice, advise_trump

__all__ = ["Advice", "AdviceError", "PlayAdvice", "Question", "TrumpAdvice", "advise", "advise_play", "advise_trump",
           "make_question"]
