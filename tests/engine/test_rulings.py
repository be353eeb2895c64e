"""Every ruling of RULES.md (scoundrel-1), on hand-built positions.

Each test builds the position a ruling talks about, applies one move and
checks what the ruling says happens, including the edges RULES.md names.
"""

import pytest

import scoundrel
from scoundrel import State
from tests.engine.positions import apply_until_illegal, game_state, play, rejected, snapshot

ALL_CARDS = set(scoundrel.CANONICAL_ORDER)


# R1 Deck ----------------------------------------------------------------------


def test_r1_deck_has_44_cards():
    assert len(scoundrel.CANONICAL_ORDER) == 44
    assert len(ALL_CARDS) == 44


def test_r1_monsters_are_spades_and_clubs_2_to_14():
    monsters = {c for c in ALL_CARDS if scoundrel.KIND[c] == "monster"}
    assert monsters == {f"{s}{v}" for s in "SC" for v in range(2, 15)}
    assert len(monsters) == 26


def test_r1_weapons_are_diamonds_2_to_10():
    weapons = {c for c in ALL_CARDS if scoundrel.KIND[c] == "weapon"}
    assert weapons == {f"D{v}" for v in range(2, 11)}


def test_r1_potions_are_hearts_2_to_10():
    potions = {c for c in ALL_CARDS if scoundrel.KIND[c] == "potion"}
    assert potions == {f"H{v}" for v in range(2, 11)}


def test_r1_no_red_face_cards_or_red_aces():
    for card in ("D11", "D12", "D13", "D14", "H11", "H12", "H13", "H14"):
        assert card not in ALL_CARDS


def test_r1_card_values_are_face_values_jack_to_ace_11_to_14():
    assert scoundrel.VALUE["S11"] == 11 and scoundrel.VALUE["C14"] == 14 and scoundrel.VALUE["H2"] == 2


def test_r1_a_dealt_dungeon_holds_every_card_once():
    assert sorted(scoundrel.deal("abc")) == sorted(ALL_CARDS)


# R2 Notation ------------------------------------------------------------------


def test_r2_notation_has_71_moves():
    # flee + 26 monsters × (w, b) + 9 weapons + 9 potions
    assert len(scoundrel.MOVES) == 1 + 52 + 9 + 9


@pytest.mark.parametrize(
    "notation, kind",
    [
        ("flee", scoundrel.Flee),
        ("H7", scoundrel.Drink),
        ("D10", scoundrel.Equip),
        ("S14w", scoundrel.FightWithWeapon),
        ("C2b", scoundrel.FightBarehanded),
    ],
)
def test_r2_each_notation_parses_into_its_move(notation, kind):
    move = scoundrel.parse_move(notation)
    assert type(move) is kind
    assert move.notation == notation
    assert scoundrel.parse_move(notation) is move  # parsed once, shared


@pytest.mark.parametrize(
    "notation",
    ["S5", "C14", "H5w", "H5b", "D5w", "D5b", "S1w", "S15b", "D11", "H1", "s5w", "Flee", "FLEE", "S5 w", "", "S05w"],
)
def test_r2_fight_mode_must_be_explicit_and_only_on_monsters(notation):
    assert scoundrel.parse_move(notation) is None


@pytest.mark.parametrize("notation", [None, 5, ["S5w"], {"m": 1}, b"flee"])
def test_r2_a_move_that_is_not_a_string_is_not_in_the_notation(notation):
    assert scoundrel.parse_move(notation) is None


def test_r2_a_move_outside_the_notation_makes_the_submission_invalid():
    errors = scoundrel.submission_errors("abc", ["S8b", "S5", "H6w"], "classic")
    assert set(errors) == {"moves"}
    assert set(errors["moves"]) == {1, 2}
    with pytest.raises(scoundrel.InvalidSubmission) as raised:
        scoundrel.replay("abc", ["S8b", "S5"])
    assert raised.value.errors["moves"] == {1: ["Not a move in the notation."]}


# R3 Health --------------------------------------------------------------------


def test_r3_a_game_starts_at_20_health_without_a_weapon():
    state = scoundrel.start(scoundrel.deal("abc"))
    assert state.health == 20
    assert state.weapon is None and state.kills == []


def test_r3_health_never_rises_above_20():
    state = State(room=["H9", "S2", "S3", "S4"], dungeon=["C5", "C6", "C7"], health=15)
    effect = play(state, "H9")
    assert state.health == 20
    assert effect.healed == 5 and effect.wasted == 4


# R4 Rooms ---------------------------------------------------------------------


def test_r4_the_first_room_is_the_top_four_cards_in_order():
    dungeon = scoundrel.deal("abc")
    state = scoundrel.start(dungeon)
    assert state.room == dungeon[:4]
    assert list(state.dungeon) == dungeon[4:]


def test_r4_after_three_plays_the_last_card_stays_first_and_three_are_drawn_in_order():
    state = State(room=["S2", "C3", "H4", "D5"], dungeon=["S6", "C7", "H8", "D9", "S10"])
    play(state, "S2b")
    play(state, "D5")
    assert state.room == ["C3", "H4"]  # two played: no new room yet
    effect = play(state, "H4")
    assert state.room == ["C3", "S6", "C7", "H8"]
    assert list(state.dungeon) == ["D9", "S10"]
    assert effect.dealt == ("S6", "C7", "H8")
    assert state.played_in_room == 0


def test_r4_cards_of_a_room_may_be_played_in_any_order():
    state = State(room=["S2", "C3", "H4", "D5"], dungeon=["S6", "C7", "H8"])
    play(state, "D5")
    play(state, "C3w")
    play(state, "S2w")
    assert state.room == ["H4", "S6", "C7", "H8"]


def test_r4_a_card_still_in_the_dungeon_is_not_in_the_room():
    state = State(room=["S2", "C3", "H4", "D5"], dungeon=["S6", "C7", "H8"])
    violation = rejected(state, "S6b")
    assert violation.code == "card_not_in_room" and violation.ruling == "R4"
    assert "S2, C3, H4, D5" in violation.message


def test_r4_a_card_already_played_is_not_in_the_room():
    state = State(room=["S2", "C3", "H4", "D5"], dungeon=["S6", "C7", "H8"])
    play(state, "H4")
    assert rejected(state, "H4").code == "card_not_in_room"


@pytest.mark.parametrize("notation", ["S9w", "S9b", "H9", "D9"])
def test_r4_every_kind_of_card_move_needs_its_card_in_the_room(notation):
    state = State(room=["S2", "C3", "H4", "D5"], dungeon=["S9", "H9", "D9"], weapon="D2")
    assert rejected(state, notation).code == "card_not_in_room"


# R5 The end of the dungeon ----------------------------------------------------


def test_r5_fewer_than_four_cards_form_a_short_room():
    state = State(room=["S2", "C3", "H4", "D5"], dungeon=["S6"])
    for notation in ("S2b", "C3b", "D5"):
        play(state, notation)
    assert state.room == ["H4", "S6"]
    assert not state.dungeon
    assert state.short_room


def test_r5_every_card_of_the_final_two_card_room_must_be_played():
    state = State(room=["S2", "H3"], dungeon=[], health=10)
    assert state.short_room
    play(state, "S2b")
    assert state.room == ["H3"] and not state.over  # the last card is not carried over
    play(state, "H3")
    assert state.won


def test_r5_a_short_room_of_three_is_played_out_completely():
    state = State(room=["S2", "C3", "H4"], dungeon=[], health=10)
    play(state, "S2b")
    play(state, "C3b")
    assert state.room == ["H4"]
    assert not state.over
    play(state, "H4")
    assert state.won


def test_r5_a_surviving_game_ends_with_a_room_of_exactly_two_cards(won_game):
    seed, moves, variant = won_game
    steps = scoundrel.replay(seed, moves, variant, trace=True).steps
    last_deal = [step for step in steps if step.effect.dealt][-1]
    assert len(last_deal.room_after) == 2
    assert last_deal.dungeon == 0


def test_r5_the_short_room_is_a_new_room_for_potions():
    state = State(room=["H2", "S2", "C3", "H4"], dungeon=["H5"], health=10)
    play(state, "H2")
    assert state.health == 12 and state.potion_drunk
    play(state, "S2b")
    play(state, "C3b")
    assert state.room == ["H4", "H5"] and not state.potion_drunk
    effect = play(state, "H5")
    assert effect.healed == 5 and state.health == 12


def test_r5_a_short_room_cannot_be_avoided():
    state = State(room=["S2", "H3"], dungeon=[], health=10)
    for variant in ("classic", "easy"):
        violation = rejected(state, "flee", variant)
        assert violation.code == "flee_not_allowed" and violation.ruling == "R6"


# R6 Avoiding ------------------------------------------------------------------


def four_card_room(**fields) -> State:
    return State(room=["S10", "C11", "S12", "C13"], dungeon=["H2", "H3", "H4", "H5", "D6"], **fields)


@pytest.mark.parametrize("variant", ["classic", "easy"])
def test_r6_a_full_room_may_be_avoided_before_any_card_is_played(variant):
    state = four_card_room()
    play(state, "flee", variant)
    assert state.room == ["H2", "H3", "H4", "H5"]
    assert state.avoided_last


@pytest.mark.parametrize("variant", ["classic", "easy"])
def test_r6_a_room_cannot_be_avoided_after_a_card_was_played(variant):
    state = four_card_room(health=20)
    play(state, "S10b", variant)
    violation = rejected(state, "flee", variant)
    assert violation.code == "flee_not_allowed" and violation.ruling == "R6"
    assert "before any" in violation.message


def test_r6_classic_no_two_avoids_in_a_row():
    state = State(room=["S10", "C11", "S12", "C13"], dungeon=["S2", "S3", "S4", "S5", "D6"])
    play(state, "flee")
    violation = rejected(state, "flee")
    assert violation.code == "flee_not_allowed" and violation.ruling == "R6"
    assert "in a row" in violation.message


def test_r6_classic_playing_a_card_clears_the_restriction():
    state = State(
        room=["S2", "S3", "S4", "S5"],
        dungeon=["H2", "H3", "H4", "S10", "C11", "S12"],
        avoided_last=True,
    )
    assert rejected(state, "flee").code == "flee_not_allowed"
    play(state, "S2b")
    assert not state.avoided_last
    play(state, "S3b")
    play(state, "S4b")
    # the next room: S5 carried plus three new cards, and it may be avoided
    assert state.room == ["S5", "H2", "H3", "H4"]
    play(state, "flee")
    assert state.room == ["S10", "C11", "S12", "S5"]


def test_r6_classic_an_avoid_flag_from_an_earlier_room_does_not_reach_across_a_played_room():
    moves = ["flee", "D2", "C7w", "S11b"]  # seed "abc": avoid, then face the next room
    state = game_state("abc", moves)
    assert not state.avoided_last
    assert scoundrel.check(state, scoundrel.MOVES["flee"]) is None


# R7 Where avoided cards go ----------------------------------------------------


def test_r7_avoided_cards_go_to_the_bottom_in_room_order():
    state = State(room=["S2", "C3", "H4", "D5"], dungeon=["S6", "C7", "H8", "D9", "S10"])
    effect = play(state, "flee")
    assert state.room == ["S6", "C7", "H8", "D9"]
    assert list(state.dungeon) == ["S10", "S2", "C3", "H4", "D5"]
    assert effect.avoided == ("S2", "C3", "H4", "D5")
    assert effect.dealt == ("S6", "C7", "H8", "D9")


def test_r7_the_carried_over_card_goes_down_first():
    state = State(room=["S2", "C3", "H4", "D5"], dungeon=["S6", "C7", "H8", "S9", "C10"])
    play(state, "C3b")
    play(state, "H4")
    play(state, "D5")
    assert state.room == ["S2", "S6", "C7", "H8"]  # S2 carried over, first in R4 order
    effect = play(state, "flee")
    assert effect.avoided == ("S2", "S6", "C7", "H8")
    assert state.room == ["S9", "C10", "S2", "S6"]
    assert list(state.dungeon) == ["C7", "H8"]


def test_r7_with_only_four_cards_below_the_same_cards_come_back_in_order_easy():
    state = State(room=["S2", "C3", "H4", "D5"], dungeon=["S6", "C7", "H8", "D9"])
    play(state, "flee", "easy")
    play(state, "flee", "easy")
    assert state.room == ["S2", "C3", "H4", "D5"]
    assert list(state.dungeon) == ["S6", "C7", "H8", "D9"]


# R8 Potions -------------------------------------------------------------------


def test_r8_the_first_potion_restores_its_value():
    state = State(room=["H7", "S2", "S3", "S4"], dungeon=["S5", "S6", "S7"], health=10)
    effect = play(state, "H7")
    assert state.health == 17
    assert effect.healed == 7 and effect.wasted == 0


def test_r8_the_first_potion_is_capped_at_20():
    state = State(room=["H7", "S2", "S3", "S4"], dungeon=["S5", "S6", "S7"], health=18)
    effect = play(state, "H7")
    assert state.health == 20
    assert effect.healed == 2 and effect.wasted == 5


def test_r8_the_second_potion_in_a_room_is_legal_and_has_no_effect():
    state = State(room=["H2", "H9", "S3", "S4"], dungeon=["S5", "S6", "S7"], health=5)
    play(state, "H2")
    assert state.health == 7
    effect = play(state, "H9")
    assert state.health == 7
    assert effect.healed == 0 and effect.wasted == 9


def test_r8_the_second_potion_counts_as_one_of_the_rooms_plays():
    state = State(room=["H2", "H9", "H3", "S4"], dungeon=["S5", "S6", "S7"], health=5)
    play(state, "H2")
    play(state, "H9")
    effect = play(state, "H3")  # the third play ends the room
    assert effect.dealt == ("S5", "S6", "S7")
    assert state.room == ["S4", "S5", "S6", "S7"]
    assert state.health == 7


def test_r8_the_allowance_resets_with_every_new_room():
    state = State(room=["H2", "S2", "S3", "S4"], dungeon=["H5", "S6", "S7", "S8"], health=5)
    play(state, "H2")
    play(state, "S2b")
    play(state, "S3b")
    assert state.room == ["S4", "H5", "S6", "S7"]
    assert state.health == 2
    play(state, "H5")
    assert state.health == 7


def test_r8_the_carried_over_potion_belongs_to_the_new_room():
    state = State(room=["H2", "H3", "S2", "S3"], dungeon=["S4", "S5", "S6"], health=10)
    play(state, "H2")
    play(state, "S2b")
    play(state, "S3b")
    assert state.room == ["H3", "S4", "S5", "S6"]
    effect = play(state, "H3")
    assert effect.healed == 3 and state.health == 10


# R9 Weapons -------------------------------------------------------------------


def test_r9_equipping_a_weapon_replaces_the_old_one_and_its_kills():
    state = State(room=["D5", "S2", "S3", "S4"], dungeon=["S5", "S6", "S7"], weapon="D8", kills=["S10", "C6"])
    effect = play(state, "D5")
    assert state.weapon == "D5" and state.kills == []
    assert effect.equipped == "D5"
    assert effect.discarded == ("D8", "S10", "C6")


def test_r9_a_weaker_weapon_still_replaces_a_stronger_one():
    state = State(room=["D2", "S12", "S3", "S4"], dungeon=["S5", "S6", "S7"], weapon="D10")
    play(state, "D2")
    assert state.weapon == "D2"
    play(state, "S12w")
    assert state.health == 10  # 12 − 2, the old D10 is gone


def test_r9_a_freshly_equipped_weapon_may_fight_any_monster():
    state = State(room=["D3", "S14", "S3", "S4"], dungeon=["S5", "S6", "S7"], weapon="D9", kills=["S2"])
    assert rejected(state, "S14w").code == "weapon_not_usable"  # the worn D9 could not
    play(state, "D3")
    play(state, "S14w")
    assert state.kills == ["S14"]
    assert state.health == 20 - 11


def test_r9_equipping_with_no_weapon_discards_nothing():
    state = State(room=["D4", "S2", "S3", "S4"], dungeon=["S5", "S6", "S7"])
    assert play(state, "D4").discarded == ()


# R10 Weapon wear --------------------------------------------------------------


def worn(last_kill: str, *monsters: str) -> State:
    return State(room=[*monsters, "H2", "H3"], dungeon=["S2", "S3", "S4"], weapon="D7", kills=["S13", last_kill])


def test_r10_worn_weapon_cannot_fight_equal_monster():
    state = worn("S6", "C6", "S5")
    violation = rejected(state, "C6w")
    assert violation.code == "weapon_not_usable" and violation.ruling == "R10"
    assert "S6" in violation.message and "C6" in violation.message


def test_r10_worn_weapon_cannot_fight_stronger_monster():
    assert rejected(worn("S6", "S9", "S5"), "S9w").code == "weapon_not_usable"


def test_r10_worn_weapon_fights_strictly_weaker_monster():
    state = worn("S6", "C6", "S5")
    play(state, "S5w")
    assert state.kills == ["S13", "S6", "S5"]
    assert state.health == 20


def test_r10_only_the_last_kill_counts():
    # S13 was killed first, then S6: S9 < 13 but not < 6
    assert rejected(worn("S6", "S9", "C2"), "S9w").ruling == "R10"


def test_r10_the_weapon_stays_equipped_after_the_illegal_attempt():
    state = worn("S6", "C6", "S5")
    rejected(state, "C6w")
    assert state.weapon == "D7"
    play(state, "C6b")
    assert state.weapon == "D7" and state.health == 14


def test_r10_each_kill_lowers_the_limit():
    state = State(room=["S9", "S8", "S7", "H2"], dungeon=["S2", "S3", "S4"], weapon="D5")
    play(state, "S8w")
    assert rejected(state, "S9w").code == "weapon_not_usable"
    play(state, "S7w")
    assert state.kills == ["S8", "S7"]


# R11 Fighting -----------------------------------------------------------------


def test_r11_barehanded_costs_the_full_value():
    state = State(room=["C9", "S2", "S3", "S4"], dungeon=["S5", "S6", "S7"], weapon="D8")
    effect = play(state, "C9b")
    assert state.health == 11 and effect.damage == 9
    assert state.kills == []  # a barehanded kill is not the weapon's


def test_r11_barehanded_is_legal_even_with_a_worn_weapon():
    state = worn("S3", "S12", "C3")
    play(state, "S12b")
    assert state.health == 8


def test_r11_the_weapon_absorbs_its_value():
    state = State(room=["C9", "S2", "S3", "S4"], dungeon=["S5", "S6", "S7"], weapon="D5")
    effect = play(state, "C9w")
    assert state.health == 16 and effect.damage == 4
    assert effect.killed == "C9" and state.kills == ["C9"]


def test_r11_a_weapon_stronger_than_the_monster_takes_no_damage():
    state = State(room=["C3", "S2", "S9", "S4"], dungeon=["S5", "S6", "S7"], weapon="D10")
    assert play(state, "C3w").damage == 0
    assert state.health == 20


def test_r11_without_a_weapon_only_barehanded():
    state = State(room=["C3", "S2", "S9", "S4"], dungeon=["S5", "S6", "S7"])
    violation = rejected(state, "C3w")
    assert violation.code == "weapon_not_usable" and violation.ruling == "R11"


# R12 Death --------------------------------------------------------------------


def test_r12_death_at_exactly_zero():
    state = State(room=["S5", "S2", "S3", "S4"], dungeon=["S6", "S7", "S8"], health=5)
    play(state, "S5b")
    assert state.health == 0
    assert state.lost and state.over and not state.won


def test_r12_one_health_left_is_alive():
    state = State(room=["S5", "S2", "S3", "S4"], dungeon=["S6", "S7", "S8"], health=6)
    play(state, "S5b")
    assert state.health == 1 and not state.over


def test_r12_death_ends_the_game_without_dealing_a_new_room():
    state = State(room=["S5", "S2", "S3", "S4"], dungeon=["S6", "S7", "S8"], health=7)
    play(state, "S2b")
    play(state, "S3b")
    effect = play(state, "S5b")  # the third play, and death
    assert state.health == -3
    assert effect.dealt == ()
    assert state.room == ["S4"] and list(state.dungeon) == ["S6", "S7", "S8"]


@pytest.mark.parametrize("notation", ["S2b", "S2w", "H3", "flee"])
def test_r12_any_move_after_death_is_illegal(notation):
    state = State(room=["S2", "H3", "S4", "S5"], dungeon=["S6", "S7", "S8"], health=0, weapon="D2")
    violation = rejected(state, notation)
    assert violation.code == "move_after_game_over" and violation.ruling == "R12"


# R13 Winning ------------------------------------------------------------------


def test_r13_the_game_is_won_when_dungeon_and_room_are_empty():
    state = State(room=["S2"], dungeon=[], health=3, played_in_room=1)
    play(state, "S2b")
    assert state.won and state.over and state.health == 1


def test_r13_the_last_fight_must_leave_health_above_zero():
    state = State(room=["S3"], dungeon=[], health=3, played_in_room=1)
    play(state, "S3b")
    assert state.lost and not state.won


@pytest.mark.parametrize("notation", ["S2b", "H3", "flee"])
def test_r13_any_move_after_a_win_is_illegal(notation):
    state = State(room=[], dungeon=[], health=12)
    violation = rejected(state, notation)
    assert violation.code == "move_after_game_over" and violation.ruling == "R13"


# R14 Variants -----------------------------------------------------------------


def test_r14_the_three_variants():
    assert scoundrel.VARIANTS == ("classic", "easy", "hard")


def test_r14_easy_allows_two_avoids_in_a_row():
    state = State(room=["S10", "C11", "S12", "C13"], dungeon=["S2", "S3", "S4", "S5", "D6"])
    play(state, "flee", "easy")
    play(state, "flee", "easy")
    assert state.room == ["D6", "S10", "C11", "S12"]


def test_r14_easy_still_needs_four_cards_and_no_card_played():
    state = four_card_room(health=20)
    play(state, "S10b", "easy")
    assert rejected(state, "flee", "easy").ruling == "R6"


@pytest.mark.parametrize("avoided_last", [False, True])
def test_r14_hard_never_allows_avoiding(avoided_last):
    state = four_card_room(avoided_last=avoided_last)
    violation = rejected(state, "flee", "hard")
    assert violation.code == "flee_not_allowed" and violation.ruling == "R14"


@pytest.mark.parametrize("variant", scoundrel.VARIANTS)
def test_r14_the_variants_differ_only_in_avoiding(variant):
    state = State(room=["D5", "C9", "H4", "S2"], dungeon=["S6", "C7", "H8"], health=12)
    for notation in ("D5", "C9w", "H4"):
        play(state, notation, variant)
    assert snapshot(state) == (("S2", "S6", "C7", "H8"), (), 12, "D5", ("C9",), 0, False, False, 0)


# R15 Score, won ---------------------------------------------------------------


def test_r15_a_win_scores_the_remaining_health():
    state = State(room=["S2"], dungeon=[], health=9, played_in_room=1)
    play(state, "S2b")
    assert state.score() == 7


def test_r15_bonus_for_the_last_potion_drunk_at_20():
    state = State(room=["H7"], dungeon=[], health=20, played_in_room=1)
    play(state, "H7")
    assert state.won and state.score() == 27


def test_r15_no_bonus_when_the_potion_heals_up_to_20():
    state = State(room=["H7"], dungeon=[], health=19, played_in_room=1)
    play(state, "H7")
    assert state.health == 20 and state.score() == 20


def test_r15_no_bonus_when_the_potion_is_not_the_last_card():
    state = State(room=["H7", "S2"], dungeon=[], health=20)
    play(state, "H7")
    play(state, "S2b")
    assert state.score() == 18


@pytest.mark.parametrize("last", ["D3", "S2w"])
def test_r15_no_bonus_after_a_weapon_or_a_fight(last):
    state = State(room=["H7", last[:2]], dungeon=[], health=20, weapon="D9")
    play(state, "H7")
    play(state, last)
    assert state.score() == 20


def test_r15_a_second_potion_drunk_at_20_as_the_last_card_earns_the_bonus():
    # R8 gives a second potion in a room no effect on health; R15 asks only
    # that the last card played be a potion and that health was already 20
    # when it was played. The engine follows R15's words.
    # the final short room (R5): H4 was drunk first, H6 is the last card
    state = State(room=["H6"], dungeon=[], health=20, played_in_room=1, potion_drunk=True)
    play(state, "H6")
    assert state.won and state.health == 20 and state.score() == 26


def test_r15_the_maximum_is_30():
    state = State(room=["H10"], dungeon=[], health=20, played_in_room=1)
    play(state, "H10")
    assert state.score() == 30


def test_r15_a_won_verdict_carries_the_score(won_game):
    seed, moves, variant = won_game
    verdict = scoundrel.replay(seed, moves, variant)
    assert verdict.outcome == "won"
    assert verdict.score >= verdict.health >= 1


# R16 Score, lost --------------------------------------------------------------


def test_r16_loss_score_subtracts_the_monsters_left_in_the_dungeon():
    state = State(room=["S9", "S2", "H3", "S4"], dungeon=["S6", "C7", "H8", "D10"], health=5)
    play(state, "S9b")
    assert state.health == -4
    assert state.score() == -4 - (6 + 7)  # potions and weapons below don't count


def test_r16_unplayed_room_cards_do_not_count():
    state = State(room=["S5", "C14", "S13", "C12"], dungeon=["S2"], health=5)
    play(state, "S5b")
    assert state.score() == 0 - 2


def test_r16_health_at_death_is_not_clamped():
    state = State(room=["C14", "S2", "S3", "S4"], dungeon=["H2"], health=1)
    play(state, "C14b")
    assert state.score() == -13


def test_r16_a_lost_verdict_carries_the_score():
    dungeon = scoundrel.deal("abc")
    moves = ["S8b", "C5b", "S3b", "C7b"]  # 20 − 8 − 5 − 3 − 7 = −3
    verdict = scoundrel.replay("abc", moves)
    assert verdict.outcome == "lost" and verdict.health == -3
    left = dungeon[7:]  # the first room (4) plus 3 drawn are out of the dungeon
    assert verdict.score == -3 - sum(scoundrel.VALUE[c] for c in left if c[0] in "SC")


# R17 Unfinished ---------------------------------------------------------------


def test_r17_an_unfinished_game_is_incomplete_at_the_length_of_the_list():
    verdict = scoundrel.replay("abc", ["S8b", "C5b"])
    assert verdict.status == "rejected"
    assert verdict.error.code == "incomplete"
    assert verdict.error.move_index == 2
    assert verdict.error.ruling == "R17" and "(R17)" in verdict.error.message
    assert verdict.score is None


def test_r17_an_empty_move_list_is_incomplete_at_zero():
    verdict = scoundrel.replay("abc", [])
    assert verdict.error.code == "incomplete" and verdict.error.move_index == 0


def test_r17_a_won_game_cut_short_by_one_move_is_incomplete(won_game):
    seed, moves, variant = won_game
    verdict = scoundrel.replay(seed, moves[:-1], variant)
    assert verdict.error.code == "incomplete" and verdict.error.move_index == len(moves) - 1


# R18 Forfeit -------------------------------------------------------------------


def test_r18_a_forfeit_before_any_move_scores_0_minus_every_monster():
    verdict = scoundrel.replay("abc", [], forfeit=True)
    assert verdict.status == "verified" and verdict.outcome == "forfeit"
    assert verdict.score == -sum(scoundrel.VALUE[c] for c in scoundrel.CANONICAL_ORDER if c[0] in "SC") == -208
    assert verdict.health == 20 and verdict.moves == 0


def test_r18_a_forfeit_counts_the_room_and_the_dungeon_but_not_defeated_monsters():
    verdict = scoundrel.replay("abc", ["S8b", "C5b"], forfeit=True)  # S8 and C5 defeated; S3 still in the room
    assert verdict.outcome == "forfeit" and verdict.health == 7 and verdict.moves == 2
    assert verdict.score == -(208 - 8 - 5)
    assert verdict.to_dict()["outcome"] == "forfeit"


def test_r18_a_finished_game_keeps_its_outcome_when_forfeited(won_game):
    seed, moves, variant = won_game
    assert scoundrel.replay(seed, moves, variant, forfeit=True) == scoundrel.replay(seed, moves, variant)
    lost = scoundrel.replay("abc", ["S8b", "C5b", "S3b", "C7b"], forfeit=True)
    assert lost.outcome == "lost"


def test_r18_an_illegal_move_is_rejected_even_in_a_forfeited_game():
    verdict = scoundrel.replay("abc", ["S8b", "S9b"], forfeit=True)
    assert verdict.status == "rejected" and verdict.error.code == "card_not_in_room"


def test_r18_the_traced_replay_gives_the_same_forfeit():
    traced = scoundrel.replay("abc", ["S8b"], trace=True, forfeit=True)
    assert traced == scoundrel.replay("abc", ["S8b"], forfeit=True) and len(traced.steps) == 1


def test_r17_without_a_forfeit_the_same_moves_stay_incomplete():
    assert scoundrel.replay("abc", ["S8b"]).error.code == "incomplete"


# Moves after the end, through a replay (R12, R13) ------------------------------


def test_r12_a_replay_rejects_a_move_after_death_at_its_index():
    verdict = scoundrel.replay("abc", ["S8b", "C5b", "S3b", "C7b", "H6"])
    assert verdict.error.code == "move_after_game_over"
    assert verdict.error.move_index == 4 and verdict.error.ruling == "R12"
    assert verdict.error.message.startswith("Move 5: ")


def test_r13_a_replay_rejects_a_move_after_a_win_at_its_index(won_game):
    seed, moves, variant = won_game
    verdict = scoundrel.replay(seed, [*moves, "flee"], variant)
    assert verdict.error.code == "move_after_game_over"
    assert verdict.error.move_index == len(moves) and verdict.error.ruling == "R13"


# The referee's lean path (play_out) on the hand-built edges above ---------------


@pytest.mark.parametrize(
    "fields, moves, variant",
    [
        ({"room": ["S2"], "dungeon": ["S3", "H4"], "health": 9}, ["S2b", "S3b", "H4"], "classic"),
        ({"room": ["S2", "C3", "H4", "D5"], "dungeon": ["S6"]}, ["S2b", "C3b", "D5", "H4", "S6w"], "classic"),
        ({"room": ["S2", "C3", "H4", "D5"], "dungeon": ["S6", "C7", "H8", "D9"]}, ["flee", "flee", "D5"], "easy"),
        ({"room": [], "dungeon": ["S6", "C7"]}, ["S6b"], "classic"),
        ({"room": ["S9", "S8"], "dungeon": [], "weapon": "D5", "kills": ["S8"]}, ["S9w"], "classic"),
        ({"room": ["H2", "H3", "S2", "S3"], "dungeon": ["S4"], "health": 20}, ["H2", "H3", "S2b", "S4b", "S3b"], "hard"),
    ],
)
def test_play_out_reaches_the_state_apply_reaches(fields, moves, variant):
    by_apply, by_play_out = State(**fields), State(**fields)
    expected = apply_until_illegal(by_apply, moves, variant)
    assert scoundrel.rules.play_out(by_play_out, [scoundrel.MOVES[m] for m in moves], variant) == expected
    assert snapshot(by_play_out) == snapshot(by_apply)
