"""Par (``scoundrel.par``): exact where it says so, bounds that never cross, lines that replay.

Exactness is checked against searches written here without the solver's
ideas: every line tried (small positions, all variants), and for ``hard``
a plain memoised dynamic programme through the engine's own ``apply``.
"""

import random
from functools import cache

import pytest

import scoundrel
from scoundrel.par import Par, _bits, _held, _Search, par, solve
from tests.engine.positions import play, snapshot


def best_by_brute_force(state: scoundrel.State, variant: str) -> int | None:
    """The best score of every line from ``state``, through the engine's rules. A line that comes back
    to a position already on it (avoiding in a circle, R14's easy) is never better than without the
    circle, so it is cut: None when every line from here does. A position's best found with no line cut
    below it is every line's from there, whatever led to it: it is kept, and a position that several orders
    of the same plays reach is searched once."""
    known: dict = {}

    def best(state: scoundrel.State, path: frozenset) -> tuple[int | None, bool]:
        """The best score from ``state`` off ``path``, and whether a line was cut for coming back on it."""
        if state.over:
            return state.score(), False
        here = snapshot(state)
        if here in known:
            return known[here], False
        if here in path:
            return None, True
        scores, cut = [], False
        for notation in scoundrel.legal_moves(state, variant):
            after = state.copy()
            play(after, notation, variant)
            score, cut_below = best(after, path | {here})
            cut = cut or cut_below
            if score is not None:
                scores.append(score)
        found = max(scores, default=None)
        if not cut:
            known[here] = found
        return found, cut

    return best(state, frozenset())[0]


def hard_par_by_dynamic_programme(dungeon: list[str]) -> int:
    """``hard``'s par by the simplest dynamic programme: the best over every legal move, memoised on
    the whole position (the dungeon by its length: without avoiding its order never changes, R14)."""

    @cache
    def best(room: tuple, left: int, health: int, weapon, kills: tuple, played: int, drunk: bool) -> int:
        state = scoundrel.State(room=list(room), dungeon=dungeon[len(dungeon) - left:], health=health, weapon=weapon,
                                kills=list(kills), played_in_room=played, potion_drunk=drunk)
        scores = []
        for notation in scoundrel.legal_moves(state, "hard"):
            after = state.copy()
            play(after, notation, "hard")
            if after.over:
                scores.append(after.score())
            else:
                scores.append(best(tuple(after.room), len(after.dungeon), after.health, after.weapon,
                                   tuple(after.kills[-1:]), after.played_in_room, after.potion_drunk))
        return max(scores)

    opening = scoundrel.start(dungeon)
    return best(tuple(opening.room), len(opening.dungeon), opening.health, None, (), 0, False)


def small_position(rng: random.Random, cards: int) -> scoundrel.State:
    """A room of four and a short dungeon drawn from the 44 cards, at a random health, sometimes armed."""
    deck = rng.sample(scoundrel.CANONICAL_ORDER, cards + 1)
    weapon = deck.pop() if rng.random() < 0.5 and deck[-1][0] == "D" else None
    kills = [rng.choice(["S5", "C9", "S13"])] if weapon and rng.random() < 0.5 else []
    kills = [kill for kill in kills if kill not in deck]
    return scoundrel.State(room=deck[:4], dungeon=deck[4:cards], health=rng.randint(3, 20), weapon=weapon, kills=kills)


def partly_played(rng: random.Random, state: scoundrel.State, variant: str) -> scoundrel.State:
    """``state``, or after one or two random cards of its room (R4: played ones count, R8: a potion drunk)."""
    for _ in range(rng.randint(0, 2)):
        cards = [move for move in scoundrel.legal_moves(state, variant) if move != "flee"]
        after = state.copy()
        play(after, rng.choice(cards), variant)
        if after.over or not after.played_in_room:
            break
        state = after
    return state


def relaxed_bound(state: scoundrel.State, variant: str) -> int:
    """The bound the search starts from at ``state``: its relaxation, before any move is tried."""
    search = _Search(variant, None, None)
    room, dungeon, weapon, limit = _held(state)
    relaxed = search.relaxation(room, dungeon, _bits(room + dungeon), weapon, limit, state.played_in_room,
                                state.potion_drunk)
    return search.bound(state.health, relaxed)


def replayed_score(state: scoundrel.State, line, variant: str) -> int:
    """The score ``line`` reaches from ``state``; it must be legal and finish the game."""
    state = state.copy()
    for notation in line:
        play(state, notation, variant)
    assert state.over, line
    return state.score()


@pytest.mark.parametrize("variant", scoundrel.VARIANTS)
def test_par_of_small_positions_is_what_every_line_tried_finds(variant):
    rng = random.Random(f"par/{variant}")
    for _ in range(40):
        state = small_position(rng, rng.randint(6, 7 if variant == "easy" else 9))
        found = solve(state, variant)
        assert found.exact and found.score == found.upper
        assert found.score == best_by_brute_force(state, variant), (state, found)
        assert replayed_score(state, found.line, variant) == found.score


@pytest.mark.parametrize("variant", [scoundrel.CLASSIC, scoundrel.EASY])
def test_the_relaxed_bound_is_never_below_any_line(variant):
    """Wear (R10), R8's one potion a room and R15's bonus in the bound of classic and easy: never below what
    every line tried finds, from whole rooms and from rooms partly played."""
    rng = random.Random(f"par/bound/{variant}")
    tight = 0
    for _ in range(80):
        state = partly_played(rng, small_position(rng, rng.randint(4, 6 if variant == "easy" else 7)), variant)
        best = best_by_brute_force(state, variant)
        bound = relaxed_bound(state, variant)
        assert best is not None and bound >= best, (state, bound, best)
        tight += bound == best
    assert tight > 20, "the bound meets par on many small positions"


@pytest.mark.parametrize("variant", [scoundrel.CLASSIC, scoundrel.EASY])
def test_par_of_partly_played_rooms_is_what_every_line_tried_finds(variant):
    rng = random.Random(f"par/partly/{variant}")
    for _ in range(20):
        state = partly_played(rng, small_position(rng, rng.randint(6, 7 if variant == "easy" else 8)), variant)
        found = solve(state, variant)
        assert found.exact and found.score == best_by_brute_force(state, variant), (state, found)
        assert replayed_score(state, found.line, variant) == found.score


@pytest.mark.parametrize("variant", scoundrel.VARIANTS)
def test_a_room_with_both_monsters_of_a_value_is_what_every_line_tried_finds(variant):
    """R1: the spade and the club of a value in one room; the search plays only the first of them, which
    must lose nothing, from whole rooms and partly played ones, armed or not, worn or not."""
    rng = random.Random(f"par/twins/{variant}")
    for _ in range(30):
        value = rng.randint(2, 14)
        state = small_position(rng, rng.randint(6, 7 if variant == "easy" else 8))
        others = [card for card in [*state.room, *state.dungeon] if card[1:] != str(value)][:len(state.dungeon) + 2]
        if state.kills and state.kills[0][1:] == str(value):
            state.kills = []
        twins = [f"S{value}", f"C{value}"]
        rng.shuffle(twins)
        room = others[:2] + twins
        rng.shuffle(room)
        state = partly_played(rng, scoundrel.State(room=room, dungeon=others[2:], health=state.health,
                                                   weapon=state.weapon, kills=state.kills), variant)
        found = solve(state, variant)
        assert found.exact and found.score == best_by_brute_force(state, variant), (state, found)
        assert replayed_score(state, found.line, variant) == found.score


def test_one_weapon_kills_one_monster_of_a_value_and_the_bound_knows_it():
    """R10: after S14, D10 may not fight C14, which costs 14 barehanded; R15's bonus is out of reach.
    Carrying the potion to the last room scores 2 + 5; the bound is that, not 20 + 5 - 8."""
    state = scoundrel.State(room=["S14", "C14", "D10", "H5"], dungeon=[], health=20)
    assert solve(state, "classic").score == 7
    assert relaxed_bound(state, "classic") == 7


@pytest.mark.parametrize("cards", [13, 16, 19])
@pytest.mark.parametrize("seed", ["par-0", "par-2", "par-7", "par-9", "par-12"])
def test_hard_par_of_truncated_deals_is_the_dynamic_programmes(seed, cards):
    dungeon = scoundrel.deal(seed)[:cards]
    found = solve(scoundrel.start(dungeon), "hard")
    assert found.exact
    assert found.score == hard_par_by_dynamic_programme(dungeon)
    assert replayed_score(scoundrel.start(dungeon), found.line, "hard") == found.score


@pytest.mark.parametrize("seed", ["par-0", "par-1", "par-4", "par-11"])
def test_hard_par_of_whole_deals_is_the_dynamic_programmes(seed):
    found = par(seed, "hard")
    assert found.exact
    assert found.score == hard_par_by_dynamic_programme(scoundrel.deal(seed))


@pytest.mark.parametrize("variant", scoundrel.VARIANTS)
def test_every_line_replays_from_its_seed_to_its_score(variant):
    for number in range(3):
        seed = f"par-{number}"
        found = par(seed, variant, positions=3000)
        verdict = scoundrel.replay(seed, list(found.line), variant)
        assert verdict.status == "verified"
        assert verdict.score == found.score


@pytest.mark.parametrize("variant", [scoundrel.CLASSIC, scoundrel.EASY])
def test_a_stopped_search_brackets_par_and_never_calls_a_bound_exact(variant):
    rng = random.Random(f"par/stopped/{variant}")
    bracketed = 0
    for _ in range(30):
        state = small_position(rng, 9)
        exact = solve(state, variant)
        stopped = solve(state, variant, positions=3)
        assert stopped.score <= exact.score <= stopped.upper
        assert stopped.exact == (stopped.score == stopped.upper)
        assert replayed_score(state, stopped.line, variant) == stopped.score
        bracketed += not stopped.exact
    assert bracketed, "a budget of 3 positions stops some searches short"


def test_a_deal_too_big_for_its_budget_is_an_interval():
    found = par("par-1", "classic", positions=2000)
    assert not found.exact
    assert found.score < found.upper <= 30  # R15: no score above 30


@pytest.mark.parametrize("variant", [scoundrel.CLASSIC, scoundrel.EASY])
def test_seconds_are_measured_on_the_clock_given(variant):
    """A clock that runs 100 s a reading: the search stops at its first look at it past the 150 s budget
    (every 1,024 positions), where the wall clock would have let it run on to a proof."""
    readings = iter(range(0, 10**9, 100))
    found = par("par-1", variant, seconds=150, clock=lambda: next(readings))
    assert not found.exact
    assert found.positions < 4 * 1024
    assert found.score == scoundrel.replay("par-1", list(found.line), variant).score


def test_par_is_a_typed_value_whose_bounds_cannot_cross():
    with pytest.raises(AssertionError):
        Par(score=5, exact=False, upper=4, line=(), positions=0)
    with pytest.raises(AssertionError):
        Par(score=4, exact=True, upper=5, line=(), positions=0)


def test_hard_par_of_a_short_room_before_a_whole_one_is_every_line_tried():
    """R5: a room of fewer than four is played out, then four cards are dealt, not three."""
    state = scoundrel.State(room=["S9", "H2"], dungeon=["C12", "S10", "S11", "D10", "C3", "H9"], health=20)
    assert solve(state, "hard").score == best_by_brute_force(state, "hard")


@pytest.mark.parametrize("variant", [scoundrel.CLASSIC, scoundrel.EASY])
def test_a_short_room_before_a_whole_one_is_bounded_and_solved(variant):
    """R5 then R4: the rooms left to heal in (R8) count the short room and those dealt after it."""
    state = scoundrel.State(room=["H9", "H2"], dungeon=["C12", "H10", "S11", "D10", "C3", "H8"], health=5)
    best = best_by_brute_force(state, variant)
    assert relaxed_bound(state, variant) >= best
    assert solve(state, variant).score == best


def test_a_finished_position_is_its_own_par():
    won = scoundrel.State(room=[], dungeon=[], health=17)
    assert solve(won, "classic") == Par(17, True, 17, (), 0)


def test_an_unknown_variant_is_refused():
    with pytest.raises(ValueError):
        par("abc", "sideways")
