"""The data layer: every read and write of Redis goes through this package, grouped by subject.

Key names live in ``store.base.keys`` alone, the Lua scripts in ``store/lua``
(each called through its wrapper in its subject's ``scripts`` module); what
it refuses is in ``domain.errors`` and Redis refusing writes in
``store.base.errors``. Each operation is one script (or one MULTI) on one
Redis. Each subject's ``__init__`` is its front door, naming the operations
it offers (``submit_run``, ``record_verdicts``, ``board_page``…), so that
views and jobs never touch Redis directly; the connection and the most used
of them are gathered here, from those doors.
"""

from store.accounts import (
    create_moderator,
    create_player,
    find_player,
    list_moderators,
    moderator_for_token,
    player_for_token,
    replace_token,
    revoke_moderator,
)
from store.base import LADDER_GAMES, Database
from store.boards import Board, board_page, board_position, ladder_page, ladder_position, ranking
from store.games import daily_secret
from store.moderation import requeue_run
from store.runs import (
    Submission,
    accept_runs,
    find_runs,
    get_run,
    load_run,
    load_runs,
    player_runs,
    record_verdicts,
    submit_run,
)

__all__ = [
    "daily_secret", "LADDER_GAMES", "Board", "board_page", "board_position", "ladder_page", "ladder_position",
    "ranking", "Database",
    "create_moderator", "list_moderators", "moderator_for_token", "revoke_moderator",
    "create_player", "find_player", "player_for_token", "replace_token", "requeue_run",
    "Submission", "accept_runs", "find_runs", "get_run", "load_run", "load_runs", "player_runs",
    "record_verdicts", "submit_run",
]
