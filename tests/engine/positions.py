"""Helpers for hand-built positions: apply a move by its notation, expect a rejection."""

import pytest

import scoundrel


def play(state: scoundrel.State, notation: str, variant: str = "classic") -> scoundrel.Effect:
    """Apply one move, named in the notation of RULES.md, to ``state`` in place."""
    return scoundrel.apply(state, scoundrel.MOVES[notation], variant)


def apply_until_illegal(state: scoundrel.State, notations, variant: str = "classic"):
    """``check`` then ``apply`` each move in turn, as the traced replay does: None when every
    move was applied, else ``(index, violation)`` of the first illegal one (the state as before it)."""
    for index, notation in enumerate(notations):
        violation = scoundrel.check(state, scoundrel.MOVES[notation], variant)
        if violation is not None:
            return index, violation
        play(state, notation, variant)
    return None


def snapshot(state: scoundrel.State) -> tuple:
    """Every field of a state, to show that a rejected move changed nothing."""
    return (
        tuple(state.room),
        tuple(state.dungeon),
        state.health,
        state.weapon,
        tuple(state.kills),
        state.played_in_room,
        state.potion_drunk,
        state.avoided_last,
        state.bonus,
    )


def rejected(state: scoundrel.State, notation: str, variant: str = "classic") -> scoundrel.Violation:
    """The violation ``apply`` raises for an illegal move; also checks the state is untouched."""
    before = snapshot(state)
    with pytest.raises(scoundrel.IllegalMove) as raised:
        play(state, notation, variant)
    assert snapshot(state) == before
    violation = raised.value.violation
    assert violation == scoundrel.check(state, scoundrel.MOVES[notation], variant)
    assert f"({violation.ruling})" in violation.message
    return violation


def game_state(seed: str, moves, variant: str = "classic") -> scoundrel.State:
    """The position after ``moves`` of the game dealt from ``seed``."""
    game = scoundrel.Game(seed, variant)
    for notation in moves:
        game.play(notation)
    return game.state
