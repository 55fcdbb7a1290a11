"""Counter-based random streams and the deal, as kernels.

Reproducibility rests on one rule: a simulated round draws its randomness only from streams keyed by
(run seed, round index, stream number), never from a generator shared between rounds. Then the same
seed gives the same rounds on any number of threads, in any chunking, on any cluster worker.

Streams: ``DEAL_STREAM`` feeds the deal and the turned-up card; ``PLAY_STREAM`` feeds the policies'
choices (bids, cards, a dealer's trump). Keeping them apart lets the advisor replay the same deals
while changing the bid (common random numbers). ``GAME_STREAM`` picks a game's first dealer.
``WORLD_STREAM`` feeds play advice's world sampler (world i of a run: (seed, i, WORLD_STREAM)).

The generator is SplitMix64 (Steele, Lea, Flood 2014): a Weyl sequence through a 64-bit finaliser,
fast, statistically strong for this use, and a few lines in any language.
"""

from __future__ import annotations

import numpy as np

from wizsim._numba import kernel
from wizsim.bits import ONE, ZERO, bit, mul_wide, popcount, select_bit, select_bit_mask
from wizsim.cards import FULL_DECK_MASK
from wizsim.rules.kernels import is_last_round

DEAL_STREAM = 0
PLAY_STREAM = 1
GAME_STREAM = 2
WORLD_STREAM = 4  # 3 is the bid advisor's CHECK_STREAM (advisor.kernels.evidence)

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_INDEX_MUL = np.uint64(0xD1B54A32D192ED03)
_STREAM_MUL = np.uint64(0x8CB92BA72F3D8DD7)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)


@kernel
def mix64(z):
    """SplitMix64's finaliser: a bijection of uint64 that scrambles every input bit into every output bit."""
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@kernel
def stream_key(seed, index, stream):
    """Starting state of the stream ``stream`` of round (or game) ``index`` in the run ``seed``."""
    z = mix64(np.uint64(seed) + _GAMMA)
    z = mix64(z ^ (np.uint64(index) * _INDEX_MUL))
    return mix64(z ^ ((np.uint64(stream) + ONE) * _STREAM_MUL))


@kernel
def next_u64(state):
    """Next 64 random bits of the stream whose state is ``state[0]`` (advanced in place)."""
    s = state[0] + _GAMMA
    state[0] = s
    return mix64(s)


@kernel
def rand_below(state, n):
    """Uniform int in [0, n) for 1 <= n <= 2**32, by Lemire's multiply-shift on the top 32 bits.

    The bias is below n / 2**32, far under anything a simulation of this size can see.
    """
    x = next_u64(state) >> _S32
    return np.int64((x * np.uint64(n)) >> _S32)


# The deal takes several bounded draws from each 64-bit word (Lemire's batched multiply: the high
# word of x * n is the draw, the low word feeds the next one). With bounds <= 60 the product of five
# bounds stays below 2**30, so each draw's bias is below 2**30 / 2**64, as negligible as rand_below's.
DEAL_DRAWS_PER_WORD = 5


@kernel
def draw_below_mask(legal, state):
    """(the uniformly chosen one-bit mask among ``legal``'s bits, the advanced stream state): exactly
    ``bit(select_bit(legal, rand_below(s, popcount(legal))))`` on a stream held in a register."""
    state += _GAMMA
    x = mix64(state) >> _S32
    return select_bit_mask(legal, np.int64((x * np.uint64(popcount(legal))) >> _S32)), state


@kernel
def deal_round(state, players, r, fixed_hands, turn_up_pool, hands_out):
    """Deal one round; return the turned-up card id (-1 when every card is dealt).

    Parameters
    ----------
    state : (1,) uint64, the round's deal stream (advanced one step per word drawn).
    players, r : int, 3..6 players and r cards each (players * r <= 60).
    fixed_hands : (players,) uint64, a seat's hand given in advance (the advisor's own hand) or 0 to deal.
    turn_up_pool : uint64, the cards the turned-up card may be; it is drawn uniformly from those of
        them not in a fixed hand (the full deck for an unconditioned deal, one card when it is known,
        the unknown cards of the trump suit when only the trump is known).
    hands_out : (players,) uint64, the hands by seat (index 0 = seat 1).

    Draws: the turned-up card first, then r cards for each seat in seat order (fixed seats draw
    nothing); each draw picks the k-th lowest (k uniform) of the cards still available, by ``select_bit``
    on the mask of available cards, so no deck array is built. Every ``DEAL_DRAWS_PER_WORD`` draws
    share one 64-bit word of the stream (see ``mul_wide``). This gives every seat a uniformly random
    hand, the same distribution as dealing one card at a time.
    """
    known = ZERO
    for s in range(players):
        known |= fixed_hands[s]
    s_state = state[0]
    word = ZERO
    left = 0
    turn_up = -1
    if not is_last_round(players, r):
        pool = turn_up_pool & ~known
        s_state += _GAMMA
        word = mix64(s_state)
        left = DEAL_DRAWS_PER_WORD
        k, word = mul_wide(word, np.uint64(popcount(pool)))
        left -= 1
        turn_up = select_bit(pool, np.int64(k))
        known |= bit(turn_up)
    rest = FULL_DECK_MASK & ~known
    n = popcount(rest)
    for s in range(players):
        if fixed_hands[s] != ZERO:
            hands_out[s] = fixed_hands[s]
            continue
        hand = ZERO
        for _ in range(r):
            if left == 0:
                s_state += _GAMMA
                word = mix64(s_state)
                left = DEAL_DRAWS_PER_WORD
            k, word = mul_wide(word, np.uint64(n))
            left -= 1
            card_bit = select_bit_mask(rest, np.int64(k))
            rest ^= card_bit
            hand |= card_bit
            n -= 1
        hands_out[s] = hand
    state[0] = s_state
    return turn_up
