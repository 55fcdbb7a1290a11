"""The learned player ``net`` (issue 35) as an opponent in every environment wizsim ships: the PettingZoo
AEC environment and the OpenSpiel game (``wizsim.player("net")`` deciding on the open table's observation
of its seat, as ``scripts/openspiel_ismcts.py`` seats the heuristic), the Gymnasium ``WizardSeatEnv``
(``opponents="net"``: the kernels; a ``net`` player object: the open table) and the batched ``VectorEnv`` /
``WizardVectorEnv`` (against their plain-Python twin). Only legal actions, and the same seed gives the same
play."""

import numpy as np
import pytest

import wizsim
from wizsim.envs.encoding import action_of
from wizsim.envs.reference import ReferenceVectorEnv
from wizsim.envs.vector import VectorEnv


def _net_action(rd, net) -> int:
    """``net``'s decision at the open table ``rd`` for the seat to act, as the environments' flat action."""
    return action_of(rd.phase, getattr(net, rd.phase)(rd.observation(rd.current_player)))


def _pettingzoo_game(seed: int) -> tuple[list[int], dict]:
    """A whole 3-player game (trump decisions included): player_0 plays its lowest legal action, ``net`` the
    others; every action checked against the agent's mask. The actions taken and the returns."""
    pytest.importorskip("pettingzoo")
    from wizsim.envs.pettingzoo import env as make_env

    env = make_env(players=3, r=None)
    env.reset(seed=seed)
    net = wizsim.player("net")
    actions, returns = [], {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        returns[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        mask = obs["action_mask"]
        a = int(np.flatnonzero(mask)[0]) if agent == "player_0" else _net_action(env.round, net)
        assert mask[a] == 1, (agent, a)
        actions.append(a)
        env.step(a)
    return actions, returns


def test_net_is_an_opponent_in_the_pettingzoo_env():
    first, returns = _pettingzoo_game(7)
    again, returns_again = _pettingzoo_game(7)
    assert first == again and returns == returns_again  # same seed, same play
    assert len(first) > 200
    assert _pettingzoo_game(8)[0] != first


def _openspiel_round(game, deal_seed: int) -> tuple[list[int], list[float]]:
    """One round: chance from ``deal_seed``, player 0 random legal (its own seeded stream), ``net`` the others."""
    rng = np.random.default_rng(deal_seed)
    net = wizsim.player("net")
    state = game.new_initial_state()
    actions = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            state.apply_action(int(outcomes[rng.integers(len(outcomes))]))
            continue
        legal = state.legal_actions()
        a = int(rng.choice(legal)) if state.current_player() == 0 else _net_action(state.round, net)
        assert a in legal
        actions.append(a)
        state.apply_action(a)
    return actions, state.returns()


def test_net_is_an_opponent_in_the_openspiel_game():
    pyspiel = pytest.importorskip("pyspiel")
    import wizsim.envs.openspiel  # noqa: F401  (registers python_wizard)

    game = pyspiel.load_game("python_wizard", {"players": 4, "r": 6})
    runs = [_openspiel_round(game, s) for s in range(6)]
    assert runs == [_openspiel_round(game, s) for s in range(6)]  # same seed, same play
    for actions, returns in runs:
        assert len(actions) == 4 + 4 * 6 or len(actions) == 5 + 4 * 6  # bids, cards (and a named trump)
        assert all(x % 10 == 0 and -60 <= x <= 80 for x in returns)


@pytest.mark.parametrize("players, r, seat", [(4, 5, None), (3, 7, 2), (5, 1, 5)])
def test_net_opponents_in_the_seat_env_play_on_the_kernels_as_on_the_open_table(players, r, seat):
    """``opponents="net"`` steps in the kernels, ``wizsim.player("net")`` on the open table, which refuses an
    illegal decision: the same seed gives the same episodes, observation for observation."""
    pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import data_equivalence

    from wizsim.envs.gym import WizardSeatEnv

    def play(env, seed):
        out = []
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(3)
        for _ in range(10):
            done = False
            while not done:
                a = int(rng.choice(np.flatnonzero(info["action_mask"])))
                obs, reward, done, _, info = env.step(a)
                out.append((obs, reward, done, info["action_mask"]))
            obs, info = env.reset()
        return out

    fast = WizardSeatEnv(players, seat, "net", r)
    table = WizardSeatEnv(players, seat, wizsim.player("net"), r)
    assert fast._kernels is not None and table._kernels is None
    a = play(fast, 11)
    assert data_equivalence(a, play(table, 11), exact=True)
    assert data_equivalence(a, play(WizardSeatEnv(players, seat, "net", r), 11), exact=True)


def test_net_opponents_in_a_whole_game_of_the_seat_env():
    pytest.importorskip("gymnasium")
    from wizsim.envs.gym import WizardSeatEnv

    env = WizardSeatEnv(4, seat=2, opponents="net", r=None)
    obs, info = env.reset(seed=5)
    total, done = 0.0, False
    while not done:
        obs, reward, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        total += reward
    assert env.table.is_over and total == env.table.scores()[1]


@pytest.mark.parametrize("players, r, hook, seat", [(4, 5, False, 1), (3, 8, True, None), (6, 3, False, 4)])
def test_net_opponents_in_the_vector_env_play_as_its_twin(players, r, hook, seat):
    """The kernels' ``net`` opponents against the twin's ``wizsim.player("net")`` on the open table."""
    kw = dict(hook=hook, seed=21, opponents="net", seat=seat)
    env, twin = VectorEnv(6, players, r, **kw), ReferenceVectorEnv(6, players, r, **kw)
    obs, masks = env.reset()
    t_obs, t_masks = twin.reset()
    assert np.array_equal(obs, t_obs) and np.array_equal(masks, t_masks)
    ended = 0
    for _ in range(3 * r + 4):
        actions = np.array([np.flatnonzero(m)[-1] for m in masks])  # the learner's highest legal action
        obs, masks, rewards, dones = env.step(actions)
        t_obs, t_masks, t_rewards, t_dones = twin.step(actions)
        assert np.array_equal(obs, t_obs) and np.array_equal(masks, t_masks)
        assert np.array_equal(rewards, t_rewards) and np.array_equal(dones, t_dones)
        ended += int(dones.sum())
    assert ended >= 6


def test_net_opponents_in_the_gymnasium_vector_env_same_seed_same_play():
    pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import data_equivalence

    from wizsim.envs.gym import WizardVectorEnv

    def run(seed):  # the learner's random legal actions (the env's own stream); net in the other seats
        env = WizardVectorEnv(8, 4, 3, opponents="net", copy=True)
        out = [env.reset(seed=seed)[0]]
        for _ in range(20):
            out.extend(env.step(env.sample_actions())[:3])
        return out

    first = run(4)
    assert data_equivalence(first, run(4), exact=True)
    assert not data_equivalence(first, run(5))
