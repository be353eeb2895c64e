"""Moderators' sanctions of players: bans and hidings (``sanctions``), the places they withhold
(``places``), and players' reports for moderators (``reports``). What others use is named here."""

from store.sanctions import reports
from store.sanctions.places import WithheldPlace, boards_played, keep_withheld, sanctioned, withheld_places
from store.sanctions.sanctions import (
    Sanction,
    ban,
    ban_of,
    hide,
    hiding_of,
    lift_ended_bans,
    moderation_log,
    unban,
    unhide,
)

__all__ = ["Sanction", "WithheldPlace", "ban", "ban_of", "boards_played", "hide", "hiding_of", "keep_withheld",
           "lift_ended_bans", "moderation_log", "reports", "sanctioned", "unban", "unhide", "withheld_places"]
