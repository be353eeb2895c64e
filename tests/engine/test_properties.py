"""Properties of the engine over many games (hypothesis).

Games come from the strategies in ``scoundrel.strategies``; illegal moves are
built on purpose, one per rejection code, and must be rejected at exactly
the index they were put at. A small reference model, written straight from
RULES.md, cross-checks every verdict of the engine.
"""

import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st

import scoundrel
from scoundrel import strategies
from tests.engine.positions import apply_until_illegal, game_state, snapshot

SEED_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
seeds = st.text(alphabet=SEED_ALPHABET, min_size=1, max_size=64)
variants = st.sampled_from(scoundrel.VARIANTS)
players = st.sampled_from(["random", "random", "random", "greedy"])
NOTATIONS = sorted(scoundrel.MOVES)
FAST = settings(max_examples=120, deadline=None)


@st.composite
def games(draw, player=players):
    """(seed, variant, moves) of a finished legal game."""
    seed, variant = draw(seeds), draw(variants)
    rng = random.Random(draw(st.integers(0, 2**32)))
    return seed, variant, strategies.play_game(seed, variant, rng=rng, strategy=draw(player))


def reference_verdict(seed: str, moves: list[str], variant: str) -> dict:
    """RULES.md read literally, without the engine's rules: the verdict as a dict, no messages."""
    dungeon = scoundrel.deal(seed)
    room, dungeon = dungeon[:4], dungeon[4:]
    dealt, played, health, weapon, last_kill = len(room), 0, 20, None, None
    potion_drunk = avoided_last = False
    bonus = 0

    def rejected(code, index):
        return {"status": "rejected", "code": code, "move_index": index}

    for index, move in enumerate(moves):
        if health <= 0 or not (room or dungeon):  # R12, R13
            return rejected("move_after_game_over", index)
        if move == "flee":  # R6, R14
            if variant == "hard" or played or len(room) != 4 or (variant == "classic" and avoided_last):
                return rejected("flee_not_allowed", index)
            dungeon = dungeon + room  # R7
            room, dungeon = dungeon[:4], dungeon[4:]
            dealt, played, potion_drunk, avoided_last = len(room), 0, False, True
            continue
        card = move[:-1] if move[-1] in "wb" else move
        if card not in room:  # R4
            return rejected("card_not_in_room", index)
        value = int(card[1:])
        if move.endswith("w"):  # R10, R11
            if weapon is None or (last_kill is not None and value >= last_kill):
                return rejected("weapon_not_usable", index)
            health -= max(0, value - weapon)
            last_kill, bonus = value, 0
        elif move.endswith("b"):  # R11
            health -= value
            bonus = 0
        elif card[0] == "D":  # R9
            weapon, last_kill, bonus = value, None, 0
        else:  # R8, R15
            bonus = value if health == 20 else 0
            if not potion_drunk:
                health = min(20, health + value)
                potion_drunk = True
        room.remove(card)
        played += 1
        avoided_last = False
        if health > 0 and ((dealt == 4 and played == 3) or not room):  # R4, R5
            drawn = 4 - len(room)
            room, dungeon = room + dungeon[:drawn], dungeon[drawn:]
            dealt, played, potion_drunk = len(room), 0, False
    if health <= 0:  # R16
        penalty = sum(int(c[1:]) for c in dungeon if c[0] in "SC")
        return {"status": "verified", "outcome": "lost", "score": health - penalty, "health": health}
    if not (room or dungeon):  # R13, R15
        return {"status": "verified", "outcome": "won", "score": health + bonus, "health": health}
    return rejected("incomplete", len(moves))  # R17


def summary(verdict: scoundrel.Verdict) -> dict:
    if verdict.status == "rejected":
        return {"status": "rejected", "code": verdict.error.code, "move_index": verdict.error.move_index}
    return {"status": "verified", "outcome": verdict.outcome, "score": verdict.score, "health": verdict.health}


@FAST
@given(games())
def test_random_legal_play_always_verifies(game):
    seed, variant, moves = game
    verdict = scoundrel.replay(seed, moves, variant)
    assert verdict.status == "verified"
    assert verdict.moves == len(moves)


@FAST
@given(games())
def test_scores_stay_in_bounds_r15_r16(game):
    seed, variant, moves = game
    verdict = scoundrel.replay(seed, moves, variant)
    if verdict.outcome == "won":
        assert 1 <= verdict.health <= verdict.score <= 30
    else:
        assert verdict.health <= 0 and verdict.score <= verdict.health


@FAST
@given(games())
def test_replays_are_deterministic(game):
    seed, variant, moves = game
    first = scoundrel.replay(seed, moves, variant, trace=True)
    second = scoundrel.replay(seed, list(moves), variant, trace=True)
    assert first == second
    assert [s.to_dict() for s in first.steps] == [s.to_dict() for s in second.steps]


@FAST
@given(games())
def test_the_trace_ends_where_the_verdict_does(game):
    seed, variant, moves = game
    verdict = scoundrel.replay(seed, moves, variant, trace=True)
    assert [step.index for step in verdict.steps] == list(range(len(moves)))
    assert [step.move for step in verdict.steps] == moves
    last = verdict.steps[-1]
    assert last.health == verdict.health
    if verdict.outcome == "won":
        assert last.room_after == () and last.dungeon == 0
    for before, after in zip(verdict.steps, verdict.steps[1:]):
        assert after.room == before.room_after


@FAST
@given(games(), st.data())
def test_a_card_not_in_the_room_is_rejected_at_its_index(game, data):
    seed, variant, moves = game
    index = data.draw(st.integers(0, len(moves) - 1))
    room = game_state(seed, moves[:index], variant).room
    card = data.draw(st.sampled_from([c for c in scoundrel.CANONICAL_ORDER if c not in room]))
    suffix = data.draw(st.sampled_from("wb")) if card[0] in "SC" else ""
    error = scoundrel.replay(seed, [*moves[:index], card + suffix, *moves[index + 1 :]], variant).error
    assert (error.code, error.move_index, error.ruling) == ("card_not_in_room", index, "R4")


@FAST
@given(games(), st.data())
def test_an_unusable_weapon_is_rejected_at_its_index(game, data):
    seed, variant, moves = game
    candidates = []
    for index in range(len(moves)):
        state = game_state(seed, moves[:index], variant)
        limit = scoundrel.VALUE[state.kills[-1]] if state.kills else 15
        for card in state.room:
            if card[0] in "SC" and (state.weapon is None or scoundrel.VALUE[card] >= limit):
                candidates.append((index, card + "w"))
    assume(candidates)
    index, illegal = data.draw(st.sampled_from(candidates))
    error = scoundrel.replay(seed, [*moves[:index], illegal, *moves[index + 1 :]], variant).error
    assert (error.code, error.move_index) == ("weapon_not_usable", index)
    assert error.ruling in ("R10", "R11")


@FAST
@given(games(), st.data())
def test_a_disallowed_flee_is_rejected_at_its_index(game, data):
    seed, variant, moves = game
    candidates = [
        index
        for index in range(len(moves))
        if scoundrel.check(game_state(seed, moves[:index], variant), scoundrel.MOVES["flee"], variant) is not None
    ]
    assume(candidates)
    index = data.draw(st.sampled_from(candidates))
    error = scoundrel.replay(seed, [*moves[:index], "flee", *moves[index + 1 :]], variant).error
    assert (error.code, error.move_index) == ("flee_not_allowed", index)
    assert error.ruling == ("R14" if variant == "hard" else "R6")


@FAST
@given(games(), st.sampled_from(NOTATIONS))
def test_a_move_after_the_end_is_rejected_at_its_index(game, extra):
    seed, variant, moves = game
    verdict = scoundrel.replay(seed, [*moves, extra], variant)
    assert (verdict.error.code, verdict.error.move_index) == ("move_after_game_over", len(moves))
    assert verdict.error.ruling == ("R12" if verdict.error.message.find("lost") >= 0 else "R13")


@FAST
@given(games(), st.data())
def test_a_truncated_game_is_incomplete_at_its_length_r17(game, data):
    seed, variant, moves = game
    cut = data.draw(st.integers(0, len(moves) - 1))
    error = scoundrel.replay(seed, moves[:cut], variant).error
    assert (error.code, error.move_index, error.ruling) == ("incomplete", cut, "R17")


def edited(moves: list[str], data) -> list[str]:
    """A legal game's moves as they are, or with one move replaced, cut short or one appended."""
    edit = data.draw(st.sampled_from(["none", "replace", "truncate", "append"]))
    if edit == "replace":
        index = data.draw(st.integers(0, len(moves) - 1))
        return [*moves[:index], data.draw(st.sampled_from(NOTATIONS)), *moves[index + 1 :]]
    if edit == "truncate":
        return moves[: data.draw(st.integers(0, len(moves)))]
    if edit == "append":
        return [*moves, data.draw(st.sampled_from(NOTATIONS))]
    return moves


@settings(max_examples=300, deadline=None)
@given(games(), st.data())
def test_the_engine_agrees_with_a_literal_reading_of_the_rules(game, data):
    seed, variant, moves = game
    moves = edited(moves, data)
    assert summary(scoundrel.replay(seed, moves, variant)) == reference_verdict(seed, moves, variant)
    assert summary(scoundrel.replay(seed, moves, variant, trace=True)) == reference_verdict(seed, moves, variant)


@settings(max_examples=300, deadline=None)
@given(games(), st.data())
def test_play_out_reaches_the_state_and_first_violation_apply_reaches_r4_to_r15(game, data):
    """The untraced replay's lean path (``rules.play_out``) is ``check`` and ``apply`` move by move."""
    seed, variant, moves = game
    moves = edited(moves, data)
    by_apply, by_play_out = scoundrel.start(scoundrel.deal(seed)), scoundrel.start(scoundrel.deal(seed))
    expected = apply_until_illegal(by_apply, moves, variant)
    assert scoundrel.rules.play_out(by_play_out, [scoundrel.MOVES[n] for n in moves], variant) == expected
    assert snapshot(by_play_out) == snapshot(by_apply)


@settings(max_examples=60, deadline=None)
@given(games(), st.data())
def test_legal_moves_are_exactly_the_moves_apply_accepts(game, data):
    seed, variant, moves = game
    index = data.draw(st.integers(0, len(moves) - 1))
    state = game_state(seed, moves[:index], variant)
    legal = set(scoundrel.legal_moves(state, variant))
    assert moves[index] in legal
    for notation in NOTATIONS:
        attempt = state.copy()
        try:
            scoundrel.apply(attempt, scoundrel.MOVES[notation], variant)
        except scoundrel.IllegalMove:
            assert notation not in legal
        else:
            assert notation in legal


@settings(max_examples=20, deadline=None)
@given(seeds, st.integers(0, 2**32))
def test_without_avoids_the_variants_give_the_same_verdict_r14(seed, number):
    moves = strategies.play_game(seed, "hard", rng=random.Random(number), strategy="random")
    verdicts = {v: summary(scoundrel.replay(seed, moves, v)) for v in scoundrel.VARIANTS}
    assert verdicts["classic"] == verdicts["easy"] == verdicts["hard"]


@settings(max_examples=5, deadline=None)
@given(seeds, variants)
def test_the_search_player_returns_wins_or_nothing(seed, variant):
    moves = strategies.find_win(seed, variant, budget=60)
    if moves is not None:
        assert scoundrel.replay(seed, moves, variant).outcome == "won"
