"""Plain-Python twins of ``deal.kernels``: the same streams and the same deal, with Python ints."""

from __future__ import annotations

from wizsim.rules.reference import is_last_round

_M64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15

DEAL_STREAM = 0
PLAY_STREAM = 1
GAME_STREAM = 2


def mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


def stream_key(seed: int, index: int, stream: int) -> int:
    z = mix64((seed + _GAMMA) & _M64)
    z = mix64(z ^ ((index * 0xD1B54A32D192ED03) & _M64))
    return mix64(z ^ (((stream + 1) * 0x8CB92BA72F3D8DD7) & _M64))


class Stream:
    """A SplitMix64 stream; ``state`` plays the part of the kernels' one-element array."""

    def __init__(self, state: int):
        self.state = state

    def next_u64(self) -> int:
        self.state = (self.state + _GAMMA) & _M64
        return mix64(self.state)

    def rand_below(self, n: int) -> int:
        return ((self.next_u64() >> 32) * n) >> 32


def next_u64(state: list[int]) -> int:
    stream = Stream(state[0])
    out = stream.next_u64()
    state[0] = stream.state
    return out


def rand_below(state: list[int], n: int) -> int:
    stream = Stream(state[0])
    out = stream.rand_below(n)
    state[0] = stream.state
    return out


DEAL_DRAWS_PER_WORD = 5


class Dice:
    """Bounded draws several to a word, as the deal kernel takes them: a fresh 64-bit word of the
    stream every ``DEAL_DRAWS_PER_WORD`` draws; a draw below n is the high half of word * n, whose
    low half is the word for the next draw."""

    def __init__(self, stream: Stream):
        self.stream = stream
        self.word = 0
        self.left = 0

    def below(self, n: int) -> int:
        if self.left == 0:
            self.word = self.stream.next_u64()
            self.left = DEAL_DRAWS_PER_WORD
        product = self.word * n
        self.word = product & _M64
        self.left -= 1
        return product >> 64


def deal_round(stream: Stream, players: int, r: int, fixed_hands: list[int], turn_up_pool: int) -> tuple[int, list[int]]:
    """(turned-up card or -1, hands by seat as int masks), drawing exactly as the kernel does: the
    turned-up card from the pool's available cards, then r cards for each seat in seat order (a
    fixed hand draws nothing), each the k-th lowest of the cards still in the deck."""
    dice = Dice(stream)
    known = set()
    for hand in fixed_hands:
        known |= {c for c in range(60) if hand >> c & 1}
    turn_up = -1
    if not is_last_round(players, r):
        pool = [c for c in range(60) if turn_up_pool >> c & 1 and c not in known]
        turn_up = pool[dice.below(len(pool))]
        known.add(turn_up)
    deck = [c for c in range(60) if c not in known]  # ascending
    hands = []
    for s in range(players):
        if fixed_hands[s]:
            hands.append(fixed_hands[s])
            continue
        hand = 0
        for _ in range(r):
            hand |= 1 << deck.pop(dice.below(len(deck)))
        hands.append(hand)
    return turn_up, hands


def draw_below_mask(legal: int, state: int) -> tuple[int, int]:
    """(a uniform one-bit mask among ``legal``'s bits, the advanced state): the k-th lowest set bit,
    k drawn by ``rand_below`` from the stream at ``state``."""
    stream = Stream(state)
    cards = [c for c in range(64) if legal >> c & 1]
    return 1 << cards[stream.rand_below(len(cards))], stream.state
