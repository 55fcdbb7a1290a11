"""Plain-Python/NumPy twin of ``policies.net``: the same features and the same forward pass, written
for reading rather than speed (tests/test_net.py holds the kernels to it)."""

from __future__ import annotations

import numpy as np

from wizsim.cards import N_RANKS, N_SUITED
from wizsim.policies import net as K
from wizsim.rules.kernels import LED_NONE, LED_WIZARD


def canon_suit(s: int, trump: int) -> int:
    if trump < 0:
        return s
    return 0 if s == trump else (s + 1 if s < trump else s)


def card_kind(c: int, trump: int) -> int:
    if c >= N_SUITED + 4:
        return K.KIND_JESTER
    if c >= N_SUITED:
        return K.KIND_WIZARD
    return canon_suit(c // N_RANKS, trump) * N_RANKS + c % N_RANKS


def _cards(mask: int) -> list[int]:
    return [c for c in range(60) if (int(mask) >> c) & 1]


def card_features(obs) -> np.ndarray:
    x = np.zeros(K.D_CARD)
    t, p, seat, r, n = int(obs.trump), int(obs.players), int(obs.seat), int(obs.r), int(obs.n_in_trick)
    for c in _cards(obs.hand):
        x[K.C_HAND + card_kind(c, t)] += 1
    for c in _cards(obs.played):
        x[K.C_PLAYED + card_kind(c, t)] += 1
    for c in obs.trick_cards[:n]:
        x[K.C_TRICK + card_kind(int(c), t)] += 1
    if n > 0 and obs.winning_pos >= 0:
        x[K.C_WIN + card_kind(int(obs.trick_cards[obs.winning_pos]), t)] = 1
        x[K.C_WINNER + (p - (n - int(obs.winning_pos))) % p] = 1
    else:
        x[K.C_WIN + K.N_KINDS] = 1
    x[K.C_TURN + (card_kind(int(obs.turn_up), t) if obs.turn_up >= 0 else K.N_KINDS)] = 1
    led = int(obs.led)
    x[K.C_LED + (0 if led == LED_NONE else 1 if led == LED_WIZARD else 2 + canon_suit(led, t))] = 1
    x[K.C_POS + n] = 1
    x[K.C_PLAYERS + p - 3] = 1
    bids, tricks = [int(b) for b in obs.bids], [int(k) for k in obs.tricks]
    need = bids[seat] - tricks[seat]
    x[K.C_NEED + min(max(need, -1), 5) + 1] = 1
    x[K.C_SCAL] = need / r
    x[K.C_SCAL + 1] = bin(int(obs.hand)).count("1") / 20.0
    for k in range(1, p):
        s = (seat + k) % p
        at = K.C_SEATS + (k - 1) * K.SEAT_BLOCK
        x[at + min(max(bids[s] - tricks[s], -1), 3) + 1] = 1
        x[at + 5] = 1.0 if k < p - n else 0.0
        for q in range(4):
            if (int(obs.voids[s]) >> q) & 1:
                x[at + 6 + canon_suit(q, t)] = 1
    total = sum(bids[:p])
    x[K.C_MISC] = 1.0 if t < 0 else 0.0
    x[K.C_MISC + 1] = r / 20.0
    x[K.C_MISC + 2] = (total - r) / r
    x[K.C_MISC + 3] = bin(int(obs.played)).count("1") / 60.0
    x[K.C_OVER + min(max(total - r, -3), 3) + 3] = 1
    return x


def bid_features(obs) -> np.ndarray:
    x = np.zeros(K.D_BID)
    t, p, seat, r = int(obs.trump), int(obs.players), int(obs.seat), int(obs.r)
    for c in _cards(obs.hand):
        x[K.B_HAND + card_kind(c, t)] += 1
    if obs.turn_up >= 0:
        x[K.B_TURN + card_kind(int(obs.turn_up), t)] = 1
        x[K.B_NAMED] = 1.0 if N_SUITED <= obs.turn_up < N_SUITED + 4 else 0.0
    else:
        x[K.B_TURN + K.N_KINDS] = 1
    x[K.B_NOTRUMP] = 1.0 if t < 0 else 0.0
    x[K.B_PLAYERS + p - 3] = 1
    x[K.B_R + r - 1] = 1
    x[K.B_SEAT + seat] = 1
    for k in range(1, min(seat, 5) + 1):
        x[K.B_EARLIER + (k - 1) * 6 + min(int(obs.bids[seat - k]), 5)] = 1
    x[K.B_EXCESS] = (sum(int(b) for b in obs.bids[:seat]) - seat * r / p) / r
    x[K.B_HOOK] = 1.0 if obs.hook else 0.0
    return x


def trump_features(hand: int, players: int, r: int, s: int) -> np.ndarray:
    x = np.zeros(K.D_TRUMP)
    for c in _cards(hand):
        x[K.T_HAND + card_kind(c, s)] += 1
    x[K.T_PLAYERS + players - 3] = 1
    x[K.T_R + r - 1] = 1
    return x


def layers(weights: np.ndarray, name: str) -> list[tuple[np.ndarray, np.ndarray]]:
    """Network ``name``'s layers as (W (inputs, outputs), b) from the flat weights (N_WEIGHTS,)."""
    _, d_in, hidden, d_out = next(n for n in K.NETS if n[0] == name)
    sizes = (d_in, *hidden, d_out)
    out = []
    for i, ((w, b), a, o) in enumerate(zip(K.LAYOUT[name], sizes[:-1], sizes[1:], strict=True)):
        if i == len(sizes) - 2:  # the last layer is stored transposed
            W = weights[w:w + a * o].reshape(o, a).T
        else:
            W = weights[w:w + a * o].reshape(a, o)
        out.append((W, weights[b:b + o]))
    return out


def forward(weights: np.ndarray, name: str, x: np.ndarray) -> np.ndarray:
    """The network's outputs for inputs ``x`` (..., inputs): two ReLU layers, then a linear one."""
    h = np.asarray(x, dtype=np.float64)
    ls = layers(weights, name)
    for i, (W, b) in enumerate(ls):
        h = h @ W + b
        if i < len(ls) - 1:
            h = np.maximum(h, 0.0)
    return h


def net_card(weights: np.ndarray, obs) -> int:
    legal = _cards(obs.legal)
    if len(legal) == 1:
        return legal[0]
    z = forward(weights, "card", card_features(obs))
    best, choice = -np.inf, -1
    for c in legal:  # ascending ids: the first card of a kind speaks for it, the first best wins
        v = z[card_kind(c, int(obs.trump))]
        if v > best:
            best, choice = v, c
    return choice


def net_bid(weights: np.ndarray, obs) -> int:
    z = forward(weights, "bid", bid_features(obs))
    allowed = [b for b in range(int(obs.r) + 1) if b != obs.forbidden]
    return max(allowed, key=lambda b: (z[b], -b))


def net_trump(weights: np.ndarray, obs) -> int:
    scores = [forward(weights, "trump", trump_features(int(obs.hand), int(obs.players), int(obs.r), s))[0]
              for s in range(4)]
    return max(range(4), key=lambda s: (scores[s], -s))


def gumbel(stream) -> float:
    """A standard Gumbel draw from ``stream`` (``deal.reference.Stream``), as ``policies.net.gumbel``."""
    u = ((stream.next_u64() >> 11) + 0.5) * 2.0 ** -53
    return float(-np.log(-np.log(u)))


def net_card_drawn(weights: np.ndarray, obs, t: float, stream) -> int:
    """``net:temperature=t``'s card: the first card of each legal kind, in ascending ids, scored by its
    kind's output over ``t`` plus one Gumbel draw; the best scored wins."""
    legal = _cards(obs.legal)
    if len(legal) == 1:
        return legal[0]
    z = forward(weights, "card", card_features(obs))
    best, choice, seen = -np.inf, -1, set()
    for c in legal:
        k = card_kind(c, int(obs.trump))
        if k in seen:
            continue
        seen.add(k)
        v = z[k] / t + gumbel(stream)
        if v > best:
            best, choice = v, c
    return choice


def net_bid_drawn(weights: np.ndarray, obs, t: float, stream) -> int:
    """``net:temperature=t``'s bid: each allowed bid, 0 up, scored by its output over ``t`` plus one Gumbel
    draw; the best scored wins."""
    z = forward(weights, "bid", bid_features(obs))
    best, choice = -np.inf, 0
    for b in range(int(obs.r) + 1):
        if b == obs.forbidden:
            continue
        v = z[b] / t + gumbel(stream)
        if v > best:
            best, choice = v, b
    return choice


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max())
    return e / e.sum()


def bid_softmax(weights: np.ndarray, obs) -> np.ndarray:
    """(r + 1,) the bid network's softmax over the allowed bids (0 for the hook's forbidden bid)."""
    z = forward(weights, "bid", bid_features(obs))[:int(obs.r) + 1]
    allowed = np.array([b != obs.forbidden for b in range(int(obs.r) + 1)])
    out = np.zeros(int(obs.r) + 1)
    out[allowed] = _softmax(z[allowed])
    return out


def trump_softmax(weights: np.ndarray, hand: int, players: int, r: int) -> np.ndarray:
    """(4,) the trump network's softmax over the suits a dealer holding ``hand`` may name."""
    return _softmax(np.array([forward(weights, "trump", trump_features(hand, players, r, s))[0] for s in range(4)]))


def card_softmax(weights: np.ndarray, obs) -> np.ndarray:
    """(N_KINDS,) the card network's softmax over the kinds of the legal cards (0 for the others)."""
    z = forward(weights, "card", card_features(obs))
    kinds = sorted({card_kind(c, int(obs.trump)) for c in _cards(obs.legal)})
    out = np.zeros(len(z))
    out[kinds] = _softmax(z[kinds])
    return out


def card_probability(weights: np.ndarray, obs, card: int) -> float:
    """P(a net seat plays ``card``): its kind's softmax shared among the legal cards of that kind."""
    kind = card_kind(card, int(obs.trump))
    same = [c for c in _cards(obs.legal) if card_kind(c, int(obs.trump)) == kind]
    return float(card_softmax(weights, obs)[kind]) / len(same)
