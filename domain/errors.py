"""Everything the service refuses by its rules, in one module with one base class.

Each error says what happened in the service's own terms: the sentence to
show whoever asked (the API's ``message``, a command's error line), nothing
secret, and the data it is about as attributes (the moves a game has, the
game in play, the ruling). The store raises most of them, since its scripts
find them atomically (a game moved meanwhile, a name taken); the dealer
raises ``MovesRefused``. None knows HTTP: ``service.errors`` maps each class
to its status and its JSON in one table, so no view translates one by hand.
"""

from typing import Any

from scoundrel.wording import plural


class Refusal(Exception):
    """A request the service refused by its rules; ``message`` says why in the player's words."""

    message = "The request was refused."

    def __init__(self, message: str | None = None):
        if message is not None:
            self.message = message
        super().__init__(self.message)


class NoSuchRun(Refusal):
    """The run does not exist."""

    def __init__(self, run_id: str):
        super().__init__(f"No run {run_id!r}.")


class NoSuchDispute(Refusal):
    """The dispute does not exist."""

    def __init__(self, dispute_id: str):
        super().__init__(f"No dispute {dispute_id!r}.")


class NoSuchWebhook(Refusal):
    """The webhook does not exist (or was deleted)."""

    def __init__(self, hook_id: str):
        super().__init__(f"No webhook {hook_id!r}.")


class NoSuchDelivery(Refusal):
    """The webhook has no delivery of that event among those it keeps."""

    def __init__(self, hook_id: str, event_id: str):
        super().__init__(f"Webhook {hook_id!r} keeps no delivery of event {event_id!r}.")


class DeliveryNotKept(Refusal):
    """A delivery whose body was not kept cannot be sent again (``reason``)."""

    reason = "body_not_kept"
    message = ("The delivery's body was not kept (too large, an erasure's, or naming a player since erased), "
               "so it cannot be sent again.")


class NameTaken(Refusal):
    """The player (or moderator) name is already registered: ``registered`` is its spelling there
    (names ignore case, so it may differ from ``name``, the one asked for)."""

    def __init__(self, name: str, registered: str | None = None):
        self.name = name
        self.registered = registered or name
        super().__init__(f"The name {name!r} is taken.")


class NameResting(NameTaken):
    """The name was erased (``DELETE /v1/players/<name>``) or a moderator renamed its player, and rests until
    ``until_ms``: no one may register it before then, so no one takes over a name others still know as
    another player's."""

    def __init__(self, name: str, until_ms: int):
        super().__init__(name)
        self.until_ms = until_ms
        self.message = (f"The name {name!r} was erased or renamed recently; it may be registered again after its "
                        "cool-off.")
        self.args = (self.message,)


class AccountBusy(Refusal):
    """Another request is signing the same studio account in for the first time: this one may try again."""

    message = "This account is being signed in by another request; try again."


class IdempotencyConflict(Refusal):
    """An Idempotency-Key was reused with a different submission; nothing of it was stored."""

    message = "This Idempotency-Key was used for a different submission."


class RunPending(Refusal):
    """The run has no verdict yet: its worker judges it first."""

    message = "The run is still pending; its worker judges it first."


class NotVoid(Refusal):
    """Only a void run can be restored."""

    message = "Only a void run can be restored."


class AlreadyVoid(Refusal):
    """The run is void already: voiding it again changes nothing."""

    message = "This run is void already."


class NotInError(Refusal):
    """Only a run whose verification failed (status ``error``) can be re-queued."""

    message = "Only a run in error can be re-queued."


class AlreadyResolved(Refusal):
    """The dispute was resolved before; a decision is final."""

    message = "This dispute is resolved already; a decision is final."


class NoSuchFlag(Refusal):
    """The flag does not exist (or was forgotten: only the newest are kept)."""

    def __init__(self, flag_id: str):
        super().__init__(f"No flag {flag_id!r}.")


class FlagDismissed(Refusal):
    """The flag was dismissed before; a dismissal is final."""

    message = "This flag is dismissed already."


class NoSuchGame(Refusal):
    """The dealt game does not exist, or is not the asker's to see (the one answer for both)."""

    def __init__(self, game_id: str):
        super().__init__(f"No game {game_id!r}.")


class GameMoved(Refusal):
    """The game has another number of moves than the request expected (or judged it at)."""

    def __init__(self, count: int):
        self.count = count
        super().__init__(f"The game has {count} {plural('move', count)} played; read it and send the next moves again.")


class GameOver(Refusal):
    """The game has ended (won, lost or forfeit); no move may follow."""

    def __init__(self, status: str):
        self.status = status
        super().__init__(f"The game is over ({status}); no move may follow.")


class SealedDailyStarted(Refusal):
    """The player already started today's sealed daily game: one a day."""

    def __init__(self, game_id: str):
        self.game_id = game_id
        super().__init__("You have already started today's sealed daily game.")


class GameInPlay(Refusal):
    """The player has a dealt game of that variant in play: one at a time, finished or forfeited first."""

    def __init__(self, game_id: str, variant: str):
        self.game_id = game_id
        self.variant = variant
        super().__init__(f"You have a {variant} game in play; finish or forfeit it first.")


class DealTaken(Refusal):
    """Another game of the player's started from the same next deal at the same moment."""

    message = "Another of your games started from this deal at the same moment; read next-deal and try again."


class SealedDayOver(Refusal):
    """The sealed daily of that day is closed (its UTC day is over): no move, no new game (R18)."""

    reason = "sealed_day_over"
    ruling = "R18"

    def __init__(self, day: str):
        self.day = day
        super().__init__(f"The sealed daily of {day} closed at the end of its UTC day: a game of it still in "
                         "play is forfeited (R18), and no move or new game of it is taken.")


class FollowingFull(Refusal):
    """The player follows the most players one may (a friends view reads each one's place)."""

    def __init__(self, most: int):
        self.most = most
        super().__init__(f"You follow {most:,} players, the most one may; unfollow one first.")


class MovesRefused(Exception):
    """A batch of moves the game does not take; ``error`` is the first refused move's, in a rule error's shape."""

    def __init__(self, error: dict[str, Any]):
        super().__init__(error["message"])
        self.error = error


class PlayerBanned(Refusal):
    """The player is banned by a moderator: no new run or game is taken from them (``store.sanctions``)."""

    reason = "banned"

    def __init__(self, until_ms: int | None):
        self.until_ms = until_ms
        super().__init__("You are banned by a moderator: no new run or game is taken from you"
                         + (" until the ban ends." if until_ms is not None else "."))


class NotSanctioned(Refusal):
    """Lifting a sanction the player does not have (``how``: banned or hidden)."""

    def __init__(self, player: str, how: str):
        super().__init__(f"{player!r} is not {how}.")


class NameNotAllowed(Refusal):
    """A name the service's name policy refuses (``SCOUNDREL_NAME_BLOCKLIST``)."""

    reason = "name_not_allowed"

    def __init__(self, name: str):
        super().__init__(f"The name {name!r} is not allowed here; choose another.")


class NoSuchReport(Refusal):
    """The report does not exist."""

    def __init__(self, report_id: str):
        super().__init__(f"No report {report_id!r}.")


class ReportOpen(Refusal):
    """The reporter has an open report of that target already (``report_id``): one at a time."""

    def __init__(self, report_id: str):
        self.report_id = report_id
        super().__init__("You reported this already; a moderator will read that report.")


class ReportsLimited(Refusal):
    """The reporter filed the most reports one may in an hour; another is taken from ``retry_ms`` on."""

    def __init__(self, most: int, retry_ms: int):
        self.retry_ms = retry_ms
        super().__init__(f"You filed {most} reports within the hour, the most one may; try again later.")


class ReportClosed(Refusal):
    """The report is closed already."""

    message = "The report is closed already."
