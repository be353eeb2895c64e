"""The deterministic engine for the Scoundrel ruleset ``scoundrel-1``.

Pure Python: no I/O and no third-party imports, so game bots, notebooks, the
CLI and the referee service all judge a game with the very same code.

    >>> import scoundrel
    >>> scoundrel.deal("abc")[:4]
    ['S8', 'C5', 'H6', 'S3']
    >>> scoundrel.replay("abc", ["flee"]).to_dict()["error"]["code"]
    'incomplete'
"""

from .cards import CANONICAL_ORDER, KIND, VALUE
from .deal import DEAL_VERSION, SEED_MESSAGE, SEED_PATTERN, SEED_RULE, deal, is_valid_seed
from .moves import MOVES, Drink, Equip, FightBarehanded, FightWithWeapon, Flee, Move, parse_move
from .replay import MAX_MOVES, Game, InvalidSubmission, replay, submission_errors
from .rules import (
    CLASSIC,
    EASY,
    HARD,
    REJECTION_CODES,
    VARIANTS,
    IllegalMove,
    Violation,
    apply,
    check,
    legal_moves,
    start,
)
from .state import Effect, State
from .verdict import ENGINE_VERSION, RULESET, RuleError, Step, Verdict

__version__ = ENGINE_VERSION

__all__ = [
    "CANONICAL_ORDER", "KIND", "VALUE",
    "DEAL_VERSION", "SEED_MESSAGE", "SEED_PATTERN", "SEED_RULE", "deal", "is_valid_seed",
    "MOVES", "Drink", "Equip", "FightBarehanded", "FightWithWeapon", "Flee", "Move", "parse_move",
    "MAX_MOVES", "Game", "InvalidSubmission", "replay", "submission_errors",
    "CLASSIC", "EASY", "HARD", "REJECTION_CODES", "VARIANTS", "IllegalMove", "Violation",
    "apply", "check", "legal_moves", "start", "Effect", "State",
    "ENGINE_VERSION", "RULESET", "RuleError", "Step", "Verdict",
]
