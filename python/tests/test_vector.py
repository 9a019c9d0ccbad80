"""kanaszta.VectorGame: batched stepping equals single stepping."""

import numpy as np
import pytest

import kanaszta


def random_ids(masks, rng):
    """One legal id a row, chosen at random from each mask."""
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks], dtype=np.int64)


@pytest.mark.parametrize("rules,players,steps", [("classic-002", 2, 700), ("classic-003", 4, 500), ("decorated-2003-02", 2, 400)])
def test_vector_stepping_equals_single_stepping(rules, players, steps):
    n, seed = 3, 40
    v = kanaszta.VectorGame(n, rules=rules, players=players, seed=seed)
    assert len(v) == n and v.family == kanaszta.Game(rules, players=players).family
    obs, masks, seats = v.reset()
    deals = [0] * n
    singles = [kanaszta.Game(rules, players=players, seed=seed + i) for i in range(n)]
    rng = np.random.default_rng(1)
    ended = 0

    def check(obs, masks, seats):
        assert obs.shape == (n, v.observation_size) and obs.dtype == np.float32
        assert masks.shape == (n, v.num_actions) and masks.dtype == np.bool_
        for i, g in enumerate(singles):
            assert seats[i] == g.current_player
            assert np.array_equal(obs[i], g.observation(g.current_player))
            assert np.array_equal(masks[i], g.legal_mask())

    check(obs, masks, seats)
    for _ in range(steps):
        ids = random_ids(masks, rng)
        obs, masks, rewards, done, seats = v.step(ids)
        assert rewards.shape == (n, v.sides) and rewards.dtype == np.float32
        for i, g in enumerate(singles):
            g.apply(int(ids[i]))
            assert done[i] == g.is_terminal
            if g.is_terminal:
                ended += 1
                assert rewards[i].tolist() == [s["total"] for s in g.scores()]
                deals[i] += 1
                singles[i] = kanaszta.Game(rules, players=players, seed=seed + i + n * deals[i])
            else:
                assert not rewards[i].any()
        check(obs, masks, seats)
    assert ended > 0, "no hand ended: the auto-reset was not exercised"


def test_first_step_without_reset_and_reset_redeals():
    v = kanaszta.VectorGame(2, rules="classic-002", seed=9)
    g0 = v.game(0)
    obs, masks, rewards, done, seats = v.step([g0.legal_ids()[0], v.game(1).legal_ids()[0]])
    assert not done.any()
    obs2, _, _ = v.reset()
    fresh = kanaszta.Game("classic-002", seed=9)
    assert np.array_equal(obs2[0], fresh.observation(fresh.current_player))


def test_step_accepts_int32_arrays_and_lists():
    v = kanaszta.VectorGame(2, rules="classic-002", seed=1)
    _, masks, _ = v.reset()
    ids = [int(np.flatnonzero(m)[0]) for m in masks]
    v.step(np.array(ids, dtype=np.int32))


def test_a_bad_step_moves_no_game():
    v = kanaszta.VectorGame(3, rules="classic-002", seed=2)
    obs, masks, seats = v.reset()
    good = [int(np.flatnonzero(m)[0]) for m in masks]
    illegal = int(np.flatnonzero(~masks[2])[0])
    with pytest.raises(ValueError, match="game 2") as e:
        v.step(good[:2] + [illegal])
    if isinstance(e.value, kanaszta.IllegalAction):
        assert e.value.rule
    with pytest.raises(ValueError, match="game 1"):
        v.step([good[0], -3, good[2]])
    with pytest.raises(ValueError, match="2 given for 3"):
        v.step(good[:2])
    for i in range(3):
        g = v.game(i)
        assert np.array_equal(g.observation(g.current_player), obs[i])
    with pytest.raises(ValueError):
        v.game(3)


def test_bad_construction():
    with pytest.raises(ValueError, match="at least one"):
        kanaszta.VectorGame(0)
    with pytest.raises(ValueError, match="unknown preset"):
        kanaszta.VectorGame(2, rules="bridge")


def trajectory(rules, steps, **options):
    """Every array `step` returns, copied, for random legal play."""
    v = kanaszta.VectorGame(5, rules=rules, seed=11, **options)
    obs, masks, seats = v.reset()
    out = [(obs.copy(), masks.copy(), seats.copy())]
    rng = np.random.default_rng(3)
    for _ in range(steps):
        got = v.step(random_ids(masks, rng))
        out.append(tuple(a.copy() for a in got))
        masks = got[1]
    return out


@pytest.mark.parametrize("rules,steps", [("classic-002", 400), ("decorated-2003-02", 250)])
def test_threads_and_copy_give_the_same_trajectories(rules, steps):
    want = trajectory(rules, steps)
    assert any(t[3].any() for t in want[1:]), "no hand ended: the auto-reset was not exercised"
    for options in ({"threads": 2}, {"threads": 3}, {"copy": False}, {"threads": 2, "copy": False}):
        got = trajectory(rules, steps, **options)
        assert len(got) == len(want)
        for a, b in zip(got, want):
            for x, y in zip(a, b):
                assert x.dtype == y.dtype and x.shape == y.shape
                assert np.array_equal(x, y), options


def test_copy_false_returns_its_own_read_only_arrays():
    v = kanaszta.VectorGame(2, rules="classic-002", seed=5, copy=False, threads=2)
    assert not v.copy and v.threads == 2
    obs, masks, seats = v.reset()
    assert not obs.flags.writeable and not masks.flags.writeable
    with pytest.raises(ValueError):
        masks[0, 0] = True
    first = obs.copy()
    ids = [int(np.flatnonzero(m)[0]) for m in masks]
    obs2, masks2, _, _, _ = v.step(ids)
    assert obs2 is obs or np.shares_memory(obs2, obs)
    assert not np.array_equal(obs, first), "the step wrote into the same array"
    for i in range(2):
        g = v.game(i)
        assert np.array_equal(obs2[i], g.observation(g.current_player))
        assert np.array_equal(masks2[i], g.legal_mask())


def test_copy_true_returns_new_arrays():
    v = kanaszta.VectorGame(2, rules="classic-002", seed=5)
    assert v.copy and v.threads == 1
    obs, masks, _ = v.reset()
    first = obs.copy()
    v.step([int(np.flatnonzero(m)[0]) for m in masks])
    assert np.array_equal(obs, first)
    assert kanaszta.VectorGame(2, rules="classic-002", threads=0).threads >= 1


def test_a_bad_step_on_threads_leaves_its_own_arrays_unchanged():
    v = kanaszta.VectorGame(3, rules="decorated-2003-02", seed=4, copy=False, threads=2)
    obs, masks, seats = v.reset()
    before = (obs.copy(), masks.copy(), seats.copy())
    good = [int(np.flatnonzero(m)[0]) for m in masks]
    illegal = int(np.flatnonzero(~masks[1])[0])
    with pytest.raises(ValueError, match="game 1"):
        v.step([good[0], illegal, good[2]])
    for a, b in zip((obs, masks, seats), before):
        assert np.array_equal(a, b)
    obs2, masks2, _, _, _ = v.step(good)
    for i in range(3):
        g = v.game(i)
        assert np.array_equal(obs2[i], g.observation(g.current_player))
        assert np.array_equal(masks2[i], g.legal_mask())


@pytest.mark.parametrize(
    "rules,players,steps",
    [
        ("decorated-2003-02", 2, 1500),
        ("decorated-2003-01", 3, 1000),
        ("decorated-2003-02", 4, 1000),
        ("decorated-2003-02", 6, 700),
        ("classic-003", 4, 1200),
    ],
)
@pytest.mark.parametrize("copy", [False, True])
def test_rows_equal_a_fresh_encoding_bit_for_bit(rules, players, steps, copy):
    # A row is written over the last one (copy=False) or into new zeros
    # (copy=True), only where either observation is not zero: every row
    # must hold exactly the bits of the slot's hand encoded into a new
    # zeroed array, through hands whose tables grow, are undone and are
    # dealt anew.
    n = 4
    v = kanaszta.VectorGame(n, rules=rules, players=players, seed=21, copy=copy)
    obs, masks, _ = v.reset()
    rng = np.random.default_rng(8)
    ended = groups = 0
    for step in range(steps + 1):
        for i in range(n):
            g = v.game(i)
            want = g.observation(g.current_player)
            assert np.array_equal(obs[i].view(np.uint32), want.view(np.uint32)), (step, i)
        if v.family == "decorated":
            groups = max(groups, int(obs[:, kanaszta.DECORATED_OBS_LEN - 6300 :].sum()))
        if step < steps:
            obs, masks, _, done, _ = v.step(random_ids(masks, rng))
            ended += int(done.sum())
    assert ended > 0, "no hand ended: rows of a new deal over an old one were not checked"
    assert v.family == "classic" or groups > 0, "no group was laid"


# Decorated action ids (docs/ENCODING.md): the steps that set the turn's
# anchor (draw, free pickup, taking the pile, taking the rest), the ♥A
# take-back, the reset, and the take-back of a group (825 + 115 g + 114).
ANCHORING = (8, 9, 10, 11)
TAKE_BACK_HEART, RESET = 13, 14


def is_take_back(i):
    return i == TAKE_BACK_HEART or (i >= 825 and (i - 825) % 115 == 114)


def undoing_ids(masks, rng):
    """A legal id a row, biased towards the pile, the rest of it, the
    reset and the take-backs, and away from the discard while a meld step
    is left: meld phases with many undos."""
    out = []
    for m in masks:
        legal = np.flatnonzero(m)
        take = [i for i in legal if i in (10, 11)]
        undo = [i for i in legal if i == RESET or is_take_back(i)]
        steps = [i for i in legal if not 15 <= i < 68 and i != RESET and not is_take_back(i)]
        if take:
            out.append(take[0])
        elif undo and rng.random() < 0.5:
            out.append(rng.choice(undo))
        elif steps and rng.random() < 0.9:
            out.append(rng.choice(steps))
        else:
            out.append(rng.choice(legal))
    return np.array(out, dtype=np.int64)


@pytest.mark.parametrize("players,seed", [(2, 31), (4, 32)])
def test_the_anchors_listing_after_a_reset_equals_a_fresh_listing(players, seed):
    # I-25: a reset puts back the anchor's hand, known cards, table and
    # turn with one undo more, and the VectorGame then reuses the listing
    # it kept at the anchor instead of listing anew, unless the undos
    # spent since bar take-backs that listing holds (D-11.5; at an anchor
    # nothing laid this turn is left to take back, so none is listed).
    # Every mask and row must be those of a fresh listing and encoding of
    # the slot's hand, over meld phases that reset and take back until
    # the undos run out.
    n = 4
    v = kanaszta.VectorGame(n, rules="decorated-2003-02", players=players, seed=seed, copy=False)
    obs, masks, _ = v.reset()
    rng = np.random.default_rng(seed)
    anchor = [None] * n
    undos = [0] * n
    resets = most = 0
    for _ in range(1500):
        ids = undoing_ids(masks, rng)
        obs, masks, _, done, _ = v.step(ids)
        for i in range(n):
            g = v.game(i)
            assert np.array_equal(masks[i], g.legal_mask())
            assert np.array_equal(obs[i].view(np.uint32), g.observation(g.current_player).view(np.uint32))
            if done[i]:
                anchor[i] = None
            elif ids[i] in ANCHORING:
                anchor[i] = masks[i].copy()
                undos[i] = 0
                assert not any(is_take_back(j) for j in np.flatnonzero(masks[i]))
            elif ids[i] == RESET or is_take_back(ids[i]):
                undos[i] += 1
                most = max(most, undos[i])
                if ids[i] == RESET:
                    resets += 1
                    assert np.array_equal(masks[i], anchor[i])
    assert resets > 100, "too few resets"
    assert most == 8, "no meld phase spent its undos"
