"""Arbitrary JSON at the entry points: the submission schema and the engine
never crash, they only answer in their documented ways."""

from hypothesis import given, settings
from hypothesis import strategies as st

import scoundrel
from schemas.submission import load_submission

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=40),
    lambda children: st.lists(children, max_size=8) | st.dictionaries(st.text(max_size=10), children, max_size=6),
    max_leaves=30,
)
NOTATION = st.sampled_from(["flee", "S3b", "H6", "C7b", "D5", "S10", "Hx", "", "flee "]) | st.text(max_size=6)
MOVES = st.lists(NOTATION, max_size=60) | JSON
SEEDS = st.text(max_size=40) | st.from_regex(scoundrel.SEED_PATTERN, fullmatch=True) | JSON
VARIANTS = st.sampled_from(scoundrel.VARIANTS) | JSON
BODIES = JSON | st.fixed_dictionaries({"seed": SEEDS, "moves": MOVES}, optional={"variant": VARIANTS})


@settings(max_examples=150, deadline=None)
@given(BODIES)
def test_the_submission_schema_loads_or_lists_errors_for_any_json(payload):
    submission, errors = load_submission(payload)
    assert (submission is None) != (errors is None)
    if errors is not None:
        assert isinstance(errors, dict) and errors


@settings(max_examples=150, deadline=None)
@given(SEEDS, MOVES, VARIANTS)
def test_replay_gives_a_verdict_or_invalid_submission(seed, moves, variant):
    try:
        verdict = scoundrel.replay(seed, moves, variant)
    except scoundrel.InvalidSubmission as invalid:
        assert invalid.errors
        return
    assert verdict.to_dict()["status"] in ("verified", "rejected")


@settings(max_examples=150, deadline=None)
@given(SEEDS)
def test_deal_deals_a_valid_seed_and_refuses_anything_else(seed):
    if scoundrel.is_valid_seed(seed):
        assert len(scoundrel.deal(seed)) == 44
    else:
        try:
            scoundrel.deal(seed)
        except ValueError:
            return
        raise AssertionError(f"deal accepted {seed!r}")


@settings(max_examples=60, deadline=None)
@given(st.from_regex(scoundrel.SEED_PATTERN, fullmatch=True), VARIANTS, st.lists(NOTATION | JSON, max_size=40))
def test_a_game_plays_legal_moves_and_refuses_the_rest_cleanly(seed, variant, moves):
    try:
        game = scoundrel.Game(seed, variant)
    except ValueError:
        assert variant not in scoundrel.VARIANTS
        return
    for notation in moves:
        if game.over:
            break
        before = game.state
        try:
            game.play(notation)
        except (scoundrel.IllegalMove, ValueError):
            assert game.state == before
    assert game.verdict().to_dict()["status"] in ("verified", "rejected")
