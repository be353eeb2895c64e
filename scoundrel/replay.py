"""Replaying a submission: a seed and a move list in, one verdict out.

This is what the referee runs for every submitted game, so the loop is kept
tight; the step trace is only built when asked for.
"""

from collections.abc import Sequence
from typing import cast

from .deal import SEED_MESSAGE, deal, is_valid_seed
from .moves import MOVES, Move, parse_move
from .rules import CLASSIC, INCOMPLETE, VARIANTS, IllegalMove, apply, legal_moves, play_out, start
from .state import Effect, State
from .verdict import FORFEIT, LOST, REJECTED, VERIFIED, WON, RuleError, Step, Verdict

MAX_MOVES = 200  # RULES.md: a longer list is invalid input

# field name → its messages; ``moves`` may instead map a move's index to its messages
FieldErrors = dict[str, list[str] | dict[int, list[str]]]


class InvalidSubmission(ValueError):
    """Malformed input (bad seed, unknown variant, a move outside the notation, too many moves).

    ``errors`` maps each field to its messages, as an ``invalid`` verdict does.
    """

    def __init__(self, errors: FieldErrors):
        super().__init__("; ".join(f"{name}: {messages}" for name, messages in errors.items()))
        self.errors = errors


def submission_errors(seed: object, moves: object, variant: object) -> FieldErrors:
    """Field-level errors of a submission, empty when it is well-formed.

    The marshmallow schema in ``schemas/`` gives the messages users see;
    this is the engine's own guard for callers that skip the schema.
    """
    errors: FieldErrors = {}
    if not is_valid_seed(seed):
        errors["seed"] = [SEED_MESSAGE]
    if variant not in VARIANTS:
        errors["variant"] = [f"Variant must be one of: {', '.join(VARIANTS)}."]
    if not isinstance(moves, list | tuple):
        errors["moves"] = ["Moves must be a list of move strings."]
    elif len(moves) > MAX_MOVES:
        errors["moves"] = [f"At most {MAX_MOVES} moves are allowed."]
    else:
        bad = {i: ["Not a move in the notation."] for i, m in enumerate(moves) if parse_move(m) is None}
        if bad:
            errors["moves"] = bad
    return errors


def _incomplete(count: int) -> RuleError:
    return RuleError(
        INCOMPLETE,
        count,
        f"The move list ends after {count} move{'' if count == 1 else 's'} but the game is not over; "
        "an unfinished game is never scored (R17).",
        "R17",
    )


def _finished(state: State, count: int, steps: tuple[Step, ...], forfeit: bool = False) -> Verdict:
    if state.lost:
        return Verdict(VERIFIED, LOST, state.score(), state.health, count, steps=steps)
    if state.won:
        return Verdict(VERIFIED, WON, state.score(), state.health, count, steps=steps)
    if forfeit:  # R18: only a game not yet over can be forfeited; a finished one keeps its outcome
        return Verdict(VERIFIED, FORFEIT, state.forfeit_score(), state.health, count, steps=steps)
    return Verdict(REJECTED, error=_incomplete(count), steps=steps)


def replay(seed: str, moves: Sequence[str], variant: str = CLASSIC, *, trace: bool = False,
           forfeit: bool = False) -> Verdict:
    """Replay ``moves`` on the dungeon dealt from ``seed`` and judge the game.

    Returns a ``verified`` or ``rejected`` verdict; with ``trace=True`` the
    verdict carries one ``Step`` per applied move. ``forfeit`` says the
    player gave the game up after ``moves`` (a dealt game, R18): an
    unfinished game is then verified with outcome ``forfeit`` instead of
    rejected as incomplete. Raises ``InvalidSubmission`` for malformed input.
    """
    parsed = _parsed(seed, moves, variant)
    state = start(deal(seed))
    if trace:
        return _traced(state, moves, parsed, variant, forfeit)
    rejection = play_out(state, parsed, variant)
    if rejection is not None:
        index, violation = rejection
        return Verdict(REJECTED, error=RuleError.from_violation(violation, index))
    return _finished(state, len(moves), (), forfeit)


def _parsed(seed: object, moves: object, variant: object) -> list[Move]:
    """The moves of a well-formed submission, each parsed once; else ``InvalidSubmission``.

    The common case (everything well-formed) costs one dictionary lookup per
    move; only a malformed submission pays for ``submission_errors``.
    """
    if is_valid_seed(seed) and variant in VARIANTS and isinstance(moves, list | tuple) and len(moves) <= MAX_MOVES:
        try:
            parsed = list(map(MOVES.get, moves))
        except TypeError:  # an unhashable item: not a move
            parsed = None
        if parsed is not None and all(parsed):  # every move object is truthy; a miss is None
            return cast(list[Move], parsed)
    raise InvalidSubmission(submission_errors(seed, moves, variant))


def _traced(state: State, moves: Sequence[str], parsed: list[Move], variant: str, forfeit: bool) -> Verdict:
    steps: list[Step] = []
    for index, (notation, move) in enumerate(zip(moves, parsed, strict=True)):
        room = tuple(state.room)
        try:
            effect = apply(state, move, variant)
        except IllegalMove as illegal:
            error = RuleError.from_violation(illegal.violation, index)
            return Verdict(REJECTED, error=error, steps=tuple(steps))
        steps.append(
            Step(
                index=index,
                move=notation,
                room=room,
                effect=effect,
                health=state.health,
                weapon=state.weapon,
                kills=tuple(state.kills),
                room_after=tuple(state.room),
                dungeon=len(state.dungeon),
            )
        )
    return _finished(state, len(moves), tuple(steps), forfeit)


class Game:
    """A game in progress, for bots and clients that play move by move.

    ``play`` raises ``IllegalMove`` (state untouched) for an illegal move and
    ``ValueError`` for a string outside the notation.
    """

    def __init__(self, seed: str, variant: str = CLASSIC):
        if variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r}; one of {', '.join(VARIANTS)}")
        self.seed = seed
        self.variant = variant
        self.state = start(deal(seed))
        self.moves: list[str] = []

    def play(self, notation: str) -> Effect:
        move = parse_move(notation)
        if move is None:
            raise ValueError(f"{notation!r} is not a move in the notation")
        effect = apply(self.state, move, self.variant)
        self.moves.append(notation)
        return effect

    def legal_moves(self) -> list[str]:
        return legal_moves(self.state, self.variant)

    @property
    def over(self) -> bool:
        return self.state.over

    def verdict(self) -> Verdict:
        """The verdict the referee would give for the moves played so far."""
        return _finished(self.state, len(self.moves), ())
