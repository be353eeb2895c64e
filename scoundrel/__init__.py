"""The deterministic engine for the Scoundrel ruleset ``scoundrel-1``.

Pure Python: no I/O and no third-party imports, so game bots, notebooks, the
CLI and the referee service all judge a game with the very same code.

    >>> import scoundrel
    >>> scoundrel.deal("abc")[:4]
    ['S8', 'C5', 'H6', 'S3']
    >>> scoundrel.replay("abc", ["flee"]).to_dict()["error"]["code"]
    'incomplete'

The heavier tools of the package, ``scoundrel.par`` (a deal's best score),
``scoundrel.strategies`` (bots) and ``scoundrel.wording``, are its
submodules, loaded the first time they are named.
"""

from importlib import import_module
from types import ModuleType

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

SUBMODULES = ("par", "strategies", "wording")


def __getattr__(name: str) -> ModuleType:
    """``scoundrel.par`` and the other submodules after a bare ``import scoundrel``, loaded on first use so
    a caller that only replays does not pay for the par search's tables (PEP 562)."""
    if name in SUBMODULES:
        return import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
