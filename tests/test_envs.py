"""wizsim in the research ecosystem (issue 18 item 3, ``wizsim[rl]``): the PettingZoo environment passes
PettingZoo's API test, the OpenSpiel game passes OpenSpiel's random simulation test and IS-MCTS finishes
games of it, the batched environment's kernels agree with their plain-Python twins on the open table, and
the observation tensor shows a seat nothing it may not see."""

import numpy as np
import pytest
from helpers import midway
from hypothesis import given, settings
from hypothesis import strategies as st

from wizsim.envs import encoding
from wizsim.envs.encoding import N_ACTIONS, OBS_DIM, encode_observation, round_action_mask
from wizsim.envs.reference import ReferenceVectorEnv, sample_actions
from wizsim.envs.vector import VectorEnv


# -- the encoding --------------------------------------------------------------------------------------
def test_the_action_space_maps_cards_bids_and_trump_suits_both_ways():
    assert N_ACTIONS == 85 and encoding.BID_ACTION == 60 and encoding.TRUMP_ACTION == 81
    for phase, values in (("card", range(60)), ("bid", range(21)), ("trump", range(4))):
        for v in values:
            assert encoding.value_of(encoding.action_of(phase, v)) == (phase, v)
    assert [encoding.action_name(a) for a in (12, 52, 56, 62, 83)] == ["AS", "W52", "J56", "bid 2", "trump D"]
    with pytest.raises(ValueError, match="outside"):
        encoding.value_of(85)


@settings(deadline=None, max_examples=25)
@given(seed=st.integers(0, 2**32), r=st.integers(1, 15), cards=st.integers(0, 40), world=st.integers(0, 2**32))
def test_the_observation_tensor_does_not_change_with_the_hidden_cards(seed, r, cards, world):
    rd = midway(seed, r, min(cards, 4 * r - 1))
    for seat in range(1, 5):
        other = rd.resample(seat, world)  # other hidden cards, the same public facts
        a = encode_observation(rd.observation(seat))
        b = encode_observation(other.observation(seat))
        assert np.array_equal(a, b)
        hidden = {c for s, h in enumerate(rd.hands, start=1) if s != seat for c in h} - {c for _, c in rd.played}
        f = encoding.fields(a)
        assert not any(f["hand"][c] for c in hidden)
        if rd.current_player == seat:  # the legal actions are the seat's to know too
            assert np.array_equal(round_action_mask(rd), round_action_mask(other))


def test_the_tensor_fields_hold_what_the_round_shows():
    rd = midway(7, 5, 6)
    obs = rd.observation(rd.current_player)
    f = encoding.fields(encode_observation(obs))
    assert sorted(np.flatnonzero(f["hand"])) == sorted(obs.hand)
    assert sorted(np.flatnonzero(f["played"])) == sorted(c for _, c in obs.played)
    assert f["round"][0] == 5 and f["players"][1] == 1 and f["phase"][2] == 1
    assert int(f["bid"].sum()) == sum(obs.bids) and int(f["tricks"].sum()) == sum(obs.tricks)
    assert f["trick"].reshape(6, 60).sum() == len(obs.trick)


# -- PettingZoo ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("players, r, hook", [(4, 3, False), (3, None, True), (6, 2, True), (5, 12, False)])
def test_pettingzoo_api_test_passes(players, r, hook):
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from wizsim.envs.pettingzoo import env

    api_test(env(players, r=r, hook=hook), num_cycles=300, verbose_progress=False)


def test_a_pettingzoo_game_returns_the_game_totals():
    pytest.importorskip("pettingzoo")
    from wizsim.envs.pettingzoo import env

    e = env(3, r=None, render_mode="ansi")
    e.reset(seed=4)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(e.possible_agents, 0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert tuple(totals.values()) == e.table.scores() and e.table.is_over
    assert "scores" in e.render()


# -- OpenSpiel -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("params", [{}, {"players": 3, "r": 1, "hook": True}, {"players": 6, "r": 10},
                                    {"players": 5, "r": 12}])
def test_openspiel_random_sim_test_passes(params):
    pyspiel = pytest.importorskip("pyspiel")
    import wizsim.envs.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_wizard", params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_openspiel_deals_uniformly_and_resamples_within_the_information_state():
    pyspiel = pytest.importorskip("pyspiel")
    import wizsim.envs.openspiel  # noqa: F401

    game = pyspiel.load_game("python_wizard", {"players": 4, "r": 3})
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 60 and all(abs(p - 1 / 60) < 1e-12 for _, p in outcomes)
    rng = np.random.default_rng(1)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
            continue
        me = state.current_player()
        other = state.resample_from_infostate(me, rng=rng)
        assert other.information_state_string(me) == state.information_state_string(me)
        assert np.array_equal(other.information_state_tensor(me), state.information_state_tensor(me))
        assert other.legal_actions() == state.legal_actions()
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert state.returns() == [float(s) for s in state.round.scores()]


def test_openspiel_ismcts_finishes_games():
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import ismcts, mcts

    import wizsim.envs.openspiel  # noqa: F401

    game = pyspiel.load_game("python_wizard", {"players": 3, "r": 2})
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 30, random_state=rs)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rs.choice(actions, p=probs)))
            elif state.current_player() == 0:
                state.apply_action(int(bot.step(state)))
            else:
                state.apply_action(int(rs.choice(state.legal_actions())))
        returns = state.returns()
        assert len(returns) == 3 and all(-20 <= x <= 40 and x % 10 == 0 for x in returns)


# -- the batched environment against its twins ---------------------------------------------------------
@settings(deadline=None, max_examples=30)
@given(players=st.integers(3, 6), r=st.integers(1, 6), hook=st.booleans(), seed=st.integers(0, 2**40),
       n=st.integers(1, 3), opponents=st.sampled_from([None, "heuristic", "random"]),
       fixed=st.booleans(), auto_reset=st.booleans(), steps=st.integers(1, 40))
def test_the_vector_env_steps_as_the_open_table_does(players, r, hook, seed, n, opponents, fixed, auto_reset, steps):
    seat = (seed % players) + 1 if fixed and opponents else None
    kw = dict(hook=hook, seed=seed, opponents=opponents, seat=seat, auto_reset=auto_reset)
    env = VectorEnv(n, players, r, **kw)
    twin = ReferenceVectorEnv(n, players, r, **kw)
    obs, masks = env.reset()
    t_obs, t_masks = twin.reset()
    assert np.array_equal(obs, t_obs) and np.array_equal(masks, t_masks)
    rng_twin = env._action_rng.copy()
    for _ in range(steps):
        actions = env.sample_actions()
        assert np.array_equal(actions, sample_actions(masks, rng_twin))
        actions = np.where(actions < 0, 0, actions)
        obs, masks, rewards, dones = env.step(actions)
        t_obs, t_masks, t_rewards, t_dones = twin.step(actions)
        assert np.array_equal(obs, t_obs)
        assert np.array_equal(masks, t_masks)
        assert np.array_equal(rewards, t_rewards)
        assert np.array_equal(dones, t_dones)
        assert np.array_equal(env.seat, twin.observe()[2])
        if not auto_reset and dones.any():  # deal the finished rows again, the others play on
            rows = np.flatnonzero(dones)
            obs, masks = env.reset(rows=rows)
            t_obs, t_masks = twin.reset(rows)
            assert np.array_equal(obs, t_obs) and np.array_equal(masks, t_masks)
            assert [env.round_index(i) for i in rows] == [twin.episode[i] * n + i for i in rows]


def test_the_vector_env_refuses_an_illegal_action_naming_the_row():
    env = VectorEnv(3, 4, 2, seed=1)
    obs, masks = env.reset()
    before = obs.copy()
    actions = env.sample_actions()
    actions[1] = 59 if not masks[1, 59] else 0
    with pytest.raises(ValueError, match="row 1 .*no row was stepped"):
        env.step(actions)
    assert np.array_equal(env.obs, before)  # all or nothing
    with pytest.raises(RuntimeError, match="reset"):
        VectorEnv(2, 4, 2).step([0, 0])


def test_the_vector_env_shapes_and_the_learner_seat():
    env = VectorEnv(8, 5, 3, seed=2, opponents="heuristic", seat=2)
    obs, masks = env.reset()
    assert obs.shape == (8, OBS_DIM) and obs.dtype == np.int8 and masks.shape == (8, N_ACTIONS)
    assert (env.seat == 2).all() and masks.any(axis=1).all()
    total, rounds = 0.0, 0
    for _ in range(60):
        _, _, rewards, dones = env.step(env.sample_actions())
        assert rewards.shape == (8,)
        total += rewards.sum()
        rounds += dones.sum()
    assert rounds > 0 and total != 0


def test_vector_env_legality_is_its_own_whatever_the_caller_does_to_the_masks():
    """The step checks, and ``sample_actions`` draws from, the env's own legal bits: masks handed out may
    be changed by the caller (masking for a network) without moving the rules."""
    env = VectorEnv(64, 4, 3, seed=5)
    _, masks = env.reset()
    legal = masks.copy()
    first = np.array([np.flatnonzero(m)[0] for m in legal])
    illegal = np.array([np.flatnonzero(m == 0)[0] for m in legal])
    masks[:] = 0
    masks[np.arange(64), illegal] = 1  # the caller's own marks, on actions the rules forbid
    twin = VectorEnv(64, 4, 3, seed=5)
    twin.reset()
    assert np.array_equal(env.sample_actions(), twin.sample_actions())
    with pytest.raises(ValueError, match="is not legal in row 0"):
        env.step(illegal)
    env.step(first)  # legal by the rules, though the caller zeroed it


def test_the_encoding_names_its_layout():
    """Learned weights record ``ENCODING_VERSION``: the layout it names (every block's offset and size, the
    actions) is pinned here, so a change of the tensor without a new version fails."""
    from wizsim.envs import encoding

    layout = {name: getattr(encoding, name) for name in ("HAND", "TRICK", "PLAYED", "TURN_UP", "TRUMP", "BID_MADE",
                                                         "BID", "TRICKS", "VOIDS", "ROUND", "PLAYERS", "HOOK", "SEAT",
                                                         "LEADER", "PHASE", "OBS_DIM", "N_ACTIONS", "BID_ACTION",
                                                         "TRUMP_ACTION")}
    pinned = {1: {"HAND": 0, "TRICK": 60, "PLAYED": 420, "TURN_UP": 480, "TRUMP": 541, "BID_MADE": 547, "BID": 553,
                  "TRICKS": 559, "VOIDS": 565, "ROUND": 589, "PLAYERS": 590, "HOOK": 594, "SEAT": 595, "LEADER": 601,
                  "PHASE": 607, "OBS_DIM": 611, "N_ACTIONS": 85, "BID_ACTION": 60, "TRUMP_ACTION": 81}}
    assert layout == pinned[encoding.ENCODING_VERSION], "the encoding changed: bump ENCODING_VERSION and pin it here"
