"""Judging a dealt game's choices for the clairvoyant flag (``verification.clairvoyance``): a player who takes,
room after room, the way only the unseen cards show is pointed out; a fair strong player is not.

Pure: positions and games in, tallies and findings out, with the module's own limits. The bots are the
bench's (``bench/clairvoyance.py``), which measures the rates these few games only sample.
"""

import random

import pytest

from bench.clairvoyance import FairBot, Peeker, play
from scoundrel.moves import MOVES
from scoundrel.rules import CLASSIC, apply
from scoundrel.state import State
from scoundrel.strategies import outlook, play_game, room_plans
from store.moderation.flags import CLAIRVOYANT
from verification.clairvoyance import (
    FAIR_RATE,
    MIN_TELLING,
    THRESHOLD,
    Decision,
    Tally,
    choice_value,
    clairvoyance_finding,
    game_tally,
    next_room_value,
    room_choices,
    rooms,
    tail,
)

# Health 12, the room S14 C4 H7 S8; unseen below it, D9 first. Facing the room and carrying S14 over (R4)
# at 7 health is the best way only for whoever knows that the weapon D9 comes next (R9, R11: 14 - 9);
# of the unseen cards no other saves that health, so on average over what might come (D9 among the next
# three in three deals of seven) a fair player avoids the room (R6).
ROOM = ["S14", "C4", "H7", "S8"]
DUNGEON = ["D9", "C2", "S9", "S3", "H5", "H3", "S4"]


def crafted() -> Decision:
    state = State(room=ROOM, dungeon=DUNGEON, health=12)
    return Decision(state, CLASSIC, len(DUNGEON), room_choices(state, CLASSIC))


def moves_of(decision: Decision, key: tuple[object, ...]) -> tuple[str, ...]:
    [choice] = [choice for choice in decision.choices if choice.key == key]
    return choice.moves


def test_r4_r9_carrying_a_monster_over_is_perfect_only_with_the_unseen_weapon_in_view():
    decision = crafted()
    [perfect] = decision.seen_next()
    assert moves_of(decision, perfect) == ("S8b", "H7", "C4b")  # S14 stays, for D9
    for seed in range(10):  # whatever orderings the fair reference draws, it avoids: a telling decision
        assert moves_of(decision, decision.fair(random.Random(seed))) == ("flee",)


def test_r7_avoided_cards_seen_before_are_known_and_stay_at_the_bottom():
    state = State(room=ROOM, dungeon=DUNGEON, health=12)
    decision = Decision(state, CLASSIC, 3, room_choices(state, CLASSIC))  # the last four were seen, then avoided
    for ordering in decision.orderings(random.Random(1), 20):
        assert sorted(ordering[:3]) == sorted(DUNGEON[:3]) and ordering[3:] == DUNGEON[3:]


def test_the_fast_value_of_the_next_room_is_the_engine_s_best_outlook():
    state = State(room=["S9", "D4", "H6", "C12"], dungeon=["S3", "C7", "H2"], health=15, weapon="D7",
                  kills=["S10"])
    engine = max(outlook(after) for moves, after in room_plans(state, CLASSIC) if moves != ["flee"])
    assert next_room_value(("S9",), ["D4", "H6", "C12", "S3", "C7", "H2"], 15, 7, 10) == engine


def test_every_choice_of_random_games_is_valued_as_the_engine_plays_the_next_room():
    for number in range(3):
        seed = f"valued-{number}"
        for decision, _ in rooms(seed, play_game(seed, strategy="random", rng=random.Random(number)), CLASSIC):
            for choice in decision.choices:
                after = decision.state.copy()
                for move in choice.moves:
                    apply(after, MOVES[move], CLASSIC)
                engine = choice.ended if after.over else max(
                    outlook(state) for moves, state in room_plans(after, CLASSIC) if moves != ["flee"])
                assert choice_value(decision.state, choice, list(decision.state.dungeon)) == pytest.approx(engine)


def test_r18_a_room_left_unfinished_is_no_decision():
    moves = ["S3b", "S8b", "H6", "flee", "D2", "C13w"]  # the greedy player's start on "abc", then a forfeit
    assert [chosen for _, chosen in rooms("abc", moves[:2], CLASSIC)] == []
    [(first, chosen), (second, avoided)] = rooms("abc", moves, CLASSIC)
    assert first.state.room == ["S8", "C5", "H6", "S3"] and chosen == first.key_of(moves[:3])
    assert avoided == ("flee",) and second.unseen == len(second.state.dungeon)


def test_the_tail_is_the_binomial_chance_of_so_many_perfect_choices():
    assert tail(0, 10, 0.4) == 1.0
    assert abs(tail(10, 10, 0.4) - 0.4**10) < 1e-15
    assert abs(tail(1, 2, 0.5) - 0.75) < 1e-15


def test_too_few_telling_decisions_are_not_judged():
    assert clairvoyance_finding([("r1", Tally(MIN_TELLING - 1, MIN_TELLING - 1))]) is None


def test_perfect_choices_at_a_fair_rate_are_not_flagged():
    games = [(f"r{number}", Tally(5, 2)) for number in range(40)]  # 40 %: what fair play may reach
    assert clairvoyance_finding(games) is None


def test_perfect_choices_far_above_chance_are_flagged_with_their_evidence():
    games = [(f"r{number}", Tally(4, 3)) for number in range(10)]
    finding = clairvoyance_finding(games)
    assert finding is not None and finding.reason == CLAIRVOYANT
    assert finding.detail == {"runs": [f"r{number}" for number in range(10)], "telling": 40, "perfect": 30,
                              "fair_rate": FAIR_RATE, "tail": float(f"{tail(30, 40, FAIR_RATE):.3g}"),
                              "threshold": THRESHOLD}
    assert finding.detail["tail"] < THRESHOLD


def judged(choose, label: str, games: int) -> list[tuple[str, Tally]]:
    seeds = [f"{label}-{number}" for number in range(games)]
    return [(seed, game_tally(seed, play(seed, choose), CLASSIC)) for seed in seeds]


def test_a_fair_strong_bot_is_not_flagged():
    games = judged(FairBot("fair", samples=16, slack=0.0), "test-fair", 8)
    assert sum(tally.n for _, tally in games) >= MIN_TELLING
    assert clairvoyance_finding(games) is None


def test_a_bot_that_reads_the_next_cards_is_flagged_and_a_game_is_judged_alike_twice():
    games = judged(Peeker("peeker", 1.0, FairBot("peeker", samples=16, slack=0.0)), "test-peeker", 8)
    finding = clairvoyance_finding(games)
    assert finding is not None and finding.detail["perfect"] == finding.detail["telling"]
    seed, tally = games[0]
    assert game_tally(seed, play(seed, Peeker("peeker", 1.0, FairBot("peeker", 16, 0.0))), CLASSIC) == tally
