"""The data layer: every read and write of Redis goes through this package, grouped by subject.

Key names live in ``store.base.keys`` alone, the Lua scripts in ``store/lua``
(each called through its wrapper in its subject's ``scripts`` module); what
it refuses is in ``domain.errors`` and Redis refusing writes in
``store.base.errors``. Each operation is one script (or one MULTI) on one
Redis. The subjects offer named operations (``submit_run``,
``record_verdicts``, ``board_page``…), the most used gathered here, so that
views and jobs never touch Redis directly.
"""

from store.accounts.moderators import create_moderator, list_moderators, moderator_for_token, revoke_moderator
from store.accounts.players import create_player, find_player, player_for_token, replace_token
from store.base.database import Database
from store.base.packing import LADDER_GAMES
from store.boards.pages import Board, board_page, board_position, ladder_page, ladder_position, ranking
from store.games.day_secrets import daily_secret
from store.moderation.restoring import requeue_run
from store.runs.accepting import Submission, accept_runs, submit_run
from store.runs.history import get_run, player_runs
from store.runs.records import load_run, load_runs
from store.runs.verdicts import record_verdicts

__all__ = [
    "daily_secret", "LADDER_GAMES", "Board", "board_page", "board_position", "ladder_page", "ladder_position",
    "ranking", "Database",
    "create_moderator", "list_moderators", "moderator_for_token", "revoke_moderator",
    "create_player", "find_player", "player_for_token", "replace_token", "requeue_run",
    "Submission", "accept_runs", "get_run", "load_run", "load_runs", "player_runs",
    "record_verdicts", "submit_run",
]
