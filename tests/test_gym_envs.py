"""Gymnasium environments (issue 34 item 4, ``wizsim.envs.gym``): one seat against chosen opponents passes
``gymnasium.utils.env_checker.check_env``, plays through the kernels the very episodes it plays on the open
table, and pays the seat's scores; the vector environment over ``VectorEnv``'s kernels passes the checks
Gymnasium's own vector environments are held to (Gymnasium ships no vector checker): its spaces, the
shapes and dtypes of reset and step, same-step autoreset, seeding, and fresh arrays at each step."""

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env, data_equivalence  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402

import wizsim  # noqa: E402
from wizsim.envs import encoding  # noqa: E402
from wizsim.envs.encoding import N_ACTIONS, OBS_DIM  # noqa: E402
from wizsim.envs.gym import ENV_ID, WizardSeatEnv, WizardVectorEnv, illegal_reward  # noqa: E402
from wizsim.envs.vector import VectorEnv  # noqa: E402

OVER = encoding.PHASE + encoding.PHASE_CODE["over"]


def _play(env, seed, episodes, rng):
    """Random legal actions for ``episodes`` episodes; the transcript of what the env returned."""
    out = []
    obs, info = env.reset(seed=seed)
    out.append((obs, info["action_mask"]))
    for _ in range(episodes):
        done = False
        while not done:
            a = int(rng.choice(np.flatnonzero(info["action_mask"])))
            assert env.action_masks()[a] and env.action_masks().sum() == info["action_mask"].sum()
            obs, reward, done, truncated, info = env.step(a)
            assert obs in env.observation_space and not truncated
            out.append((obs, reward, done, info["action_mask"]))
        obs, info = env.reset()
        out.append((obs, info["action_mask"]))
    return out


# -- one seat --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kw", [
    dict(),  # 4 players, a round of 5 cards, a seat drawn at each reset, heuristic opponents (the kernels)
    dict(players=3, seat=3, r=1, hook=True, opponents="random"),
    dict(players=5, seat=2, r=None, opponents="heuristic"),  # whole games on the open table
    dict(players=4, seat=1, r=3, opponents=["heuristic", "random", wizsim.player("heuristic")]),
])
def test_the_seat_env_passes_gymnasiums_env_checker(kw):
    check_env(WizardSeatEnv(**kw), skip_render_check=True)


def test_the_registered_id_makes_it_and_passes_with_its_render_modes():
    env = gymnasium.make(ENV_ID, players=4, r=2, render_mode="ansi")
    check_env(env.unwrapped)
    env.reset(seed=1)
    assert "phase" in env.render()


@pytest.mark.parametrize("players, r, hook, seat", [(4, 5, False, None), (3, 7, True, 3), (6, 2, False, 1)])
def test_the_kernels_play_the_episodes_the_open_table_plays(players, r, hook, seat):
    """Opponents by name step in ``VectorEnv``'s kernels; a player object steps the open table (``Round``):
    the same seed gives the same episodes, observation for observation."""
    fast = WizardSeatEnv(players, seat, "heuristic", r, hook=hook)
    table = WizardSeatEnv(players, seat, wizsim.player("heuristic"), r, hook=hook)
    assert fast._kernels is not None and table._kernels is None
    a = _play(fast, 17, 12, np.random.default_rng(3))
    b = _play(table, 17, 12, np.random.default_rng(3))
    assert data_equivalence(a, b, exact=True)


def test_over_a_whole_game_the_rewards_add_up_to_the_seats_total():
    env = WizardSeatEnv(4, seat=2, opponents="heuristic", r=None)
    obs, info = env.reset(seed=5)
    total, done, rng, rounds = 0.0, False, np.random.default_rng(0), 0
    while not done:
        obs, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        total += reward
        rounds += reward != 0
    assert env.table.is_over and total == env.table.scores()[1] and rounds > 5
    assert not info["action_mask"].any() and obs[OVER] == 1


def test_an_illegal_action_ends_the_episode_or_raises():
    env = WizardSeatEnv(4, seat=1, r=3, seed=2)
    obs, info = env.reset()
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, done, _, info = env.step(bad)
    assert done and reward == illegal_reward(3) and info["illegal_action"] and not info["action_mask"].any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    strict = WizardSeatEnv(4, seat=1, r=3, seed=2, illegal="raise")
    strict.reset()
    with pytest.raises(ValueError, match="not legal for the learner now: legal are bid 0, bid 1"):
        strict.step(bad)


@pytest.mark.parametrize("kw, match", [
    (dict(players=7), "players"), (dict(r=16), "r"), (dict(seat=5), "seat"), (dict(opponents="clever"), "clever"),
    (dict(opponents=["heuristic"]), "give 3"), (dict(opponents=3), "opponents"), (dict(illegal="skip"), "illegal"),
    (dict(render_mode="rgb_array"), "render_mode"),
])
def test_bad_arguments_are_named(kw, match):
    with pytest.raises(ValueError, match=match):
        WizardSeatEnv(**kw)


# -- the vector environment ------------------------------------------------------------------------------
def test_the_vector_env_spaces_shapes_and_dtypes():
    env = WizardVectorEnv(16, 4, 5, seed=1)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert env.single_observation_space == WizardSeatEnv().observation_space
    assert env.single_action_space == gymnasium.spaces.Discrete(N_ACTIONS)
    assert env.observation_space.shape == (16, OBS_DIM) and env.action_space.shape == (16,)
    obs, info = env.reset(seed=3)
    assert obs in env.observation_space and obs.dtype == np.int8
    assert info["action_mask"].shape == (16, N_ACTIONS) and np.array_equal(info["action_mask"] == 1,
                                                                           env.action_masks())
    for _ in range(30):
        actions = env.action_space.sample(mask=tuple(m.astype(np.int8) for m in env.action_masks()))
        assert actions in env.action_space
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert obs in env.observation_space
        assert rewards.shape == terminated.shape == truncated.shape == (16,)
        assert rewards.dtype == np.float64 and terminated.dtype == truncated.dtype == np.bool_
        assert not truncated.any() and (rewards[~terminated] == 0).all()


def test_the_vector_env_autoresets_in_the_same_step_as_vector_env_does():
    """Row for row what ``VectorEnv`` (which deals the next round in the step that ends one) returns, and
    the round that ended in ``info["final_obs"]``."""
    env = WizardVectorEnv(32, 5, 3, seed=9, seat=None, hook=True)
    twin = VectorEnv(32, 5, 3, seed=9, opponents="heuristic", hook=True)
    obs, info = env.reset()
    t_obs, t_masks = twin.reset()
    assert np.array_equal(obs, t_obs) and np.array_equal(info["action_mask"], t_masks)
    ended = 0
    for _ in range(40):
        actions = twin.sample_actions()
        obs, rewards, terminated, _, info = env.step(actions)
        t_obs, t_masks, t_rewards, t_dones = twin.step(actions)
        assert np.array_equal(obs, t_obs) and np.array_equal(info["action_mask"], t_masks)
        assert np.array_equal(rewards, t_rewards) and np.array_equal(terminated, t_dones)
        rows = np.flatnonzero(terminated)
        assert np.array_equal(info.get("_final_obs", np.zeros(32, bool)), terminated)
        for i in rows:  # the round that ended, seen from the learner's seat; the row holds a new one
            final = info["final_obs"][i]
            assert final[OVER] == 1 and final[encoding.PLAYED:encoding.PLAYED + 60].sum() == 15
            assert obs[i, encoding.PLAYED:encoding.PLAYED + 60].sum() == 0
        if rows.size:
            assert info["final_obs"].shape == obs.shape and not info["final_obs"][~terminated].any()
        ended += rows.size
    assert ended > 50


def test_the_vector_env_is_seeded_and_hands_out_fresh_arrays():
    def run(env, seed):
        obs, info = env.reset(seed=seed)
        out = [obs]
        for _ in range(12):
            obs, rewards, terminated, _, info = env.step(env.sample_actions())
            out += [obs, rewards, terminated, info["action_mask"]]
        return out

    a, b = WizardVectorEnv(8, 4, 2, copy=True), WizardVectorEnv(8, 4, 2, copy=True)
    first, again = run(a, 4), run(b, 4)
    assert data_equivalence(first, again, exact=True)
    assert data_equivalence(run(a, 4), first, exact=True)  # reset(seed=) restarts the run
    assert not data_equivalence(run(a, 5), first)
    obs1, *_ = a.step(a.sample_actions())
    obs2, *_ = a.step(a.sample_actions())
    assert obs1 is not obs2 and not np.shares_memory(obs1, obs2)  # Gymnasium's check_returned_data_not_reused


def test_the_vector_env_ends_an_illegal_rows_episode_or_raises():
    env = WizardVectorEnv(4, 4, 3, seed=2, seat=1)
    obs, info = env.reset()
    actions = env.sample_actions()
    actions[2] = int(np.flatnonzero(info["action_mask"][2] == 0)[0])
    before = obs[2].copy()
    obs, rewards, terminated, _, info = env.step(actions)
    assert terminated[2] and rewards[2] == illegal_reward(3) and info["illegal_action"][2]
    assert not info["illegal_action"][[0, 1, 3]].any() and not terminated[[0, 1, 3]].any()
    assert np.array_equal(info["final_obs"][2], before) and obs[2, encoding.PLAYED:encoding.PLAYED + 60].sum() == 0
    strict = WizardVectorEnv(4, 4, 3, seed=2, seat=1, illegal="raise")
    strict.reset()
    with pytest.raises(ValueError, match="not legal in row 2"):
        strict.step(actions)


def test_gymnasiums_make_vec_and_its_episode_statistics_take_it():
    envs = gymnasium.make_vec(ENV_ID, num_envs=6, vectorization_mode="vector_entry_point", players=3, r=2)
    assert isinstance(envs, WizardVectorEnv)
    envs = gymnasium.wrappers.vector.RecordEpisodeStatistics(envs)
    envs.reset(seed=0)
    returns, seen = np.zeros(6), []
    for _ in range(20):
        _, rewards, terminated, _, info = envs.step(envs.unwrapped.sample_actions())
        returns += rewards
        if terminated.any():
            assert np.array_equal(info["episode"]["r"][terminated], returns[terminated])
            seen += list(returns[terminated])
            returns[terminated] = 0
    assert len(seen) >= 6


@pytest.mark.parametrize("kw, match", [(dict(opponents=None), "policy name"), (dict(r=None), "round size"),
                                       (dict(illegal=1), "illegal"), (dict(seat=0), "seat")])
def test_bad_vector_arguments_are_named(kw, match):
    with pytest.raises(ValueError, match=match):
        WizardVectorEnv(4, **kw)
    with pytest.raises(ValueError, match="seed"):
        WizardVectorEnv(4).reset(seed=[1, 2, 3, 4])


def test_without_copies_the_arrays_are_reused_and_changing_them_changes_no_rule():
    env, twin = WizardVectorEnv(64, 4, 3, seed=5), WizardVectorEnv(64, 4, 3, seed=5, copy=True)
    obs, info = env.reset()
    t_obs, t_info = twin.reset()
    for _ in range(10):
        legal = info["action_mask"].copy()
        actions = twin.sample_actions()
        info["action_mask"][:] = 0  # a caller masking for its network
        obs[:] = 0
        obs2, _, terminated, _, info = env.step(actions)
        t_obs, _, t_terminated, _, t_info = twin.step(actions)
        assert obs2 is obs  # the env's own buffer, as VectorEnv's
        assert np.array_equal(obs2, t_obs) and np.array_equal(info["action_mask"], t_info["action_mask"])
        assert np.array_equal(terminated, t_terminated) and legal.any(axis=1).all()
        if terminated.any():
            assert np.array_equal(info["final_obs"], t_info["final_obs"])
