"""Moderators' sanctions of players: bans and hidings (``sanctions``), the places they withhold
(``places``), and players' reports for moderators (``reports``). What others use is named here."""

from store.sanctions.places import WithheldPlace, boards_played, keep_withheld, sanctioned, withheld_places
from store.sanctions.reports import (
    DECISIONS as REPORT_DECISIONS,
)
from store.sanctions.reports import (
    OPEN as REPORT_OPEN,
)
from store.sanctions.reports import (
    PLAYER as REPORTED_PLAYER,
)
from store.sanctions.reports import (
    REASONS as REPORT_REASONS,
)
from store.sanctions.reports import (
    RUN as REPORTED_RUN,
)
from store.sanctions.reports import (
    STATUSES as REPORT_STATUSES,
)
from store.sanctions.reports import (
    Target as ReportTarget,
)
from store.sanctions.reports import (
    close_report,
    file_report,
    get_report,
    list_reports,
    reports_filed,
)
from store.sanctions.sanctions import (
    ACTIONS as LOG_ACTIONS,
)
from store.sanctions.sanctions import (
    LogFilter,
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

__all__ = [
    "REPORTED_PLAYER", "REPORTED_RUN", "REPORT_DECISIONS", "REPORT_OPEN", "REPORT_REASONS", "REPORT_STATUSES",
    "ReportTarget", "close_report", "file_report", "get_report", "list_reports", "reports_filed",
    "LOG_ACTIONS", "LogFilter", "Sanction", "WithheldPlace", "ban", "ban_of", "boards_played", "hide", "hiding_of",
    "keep_withheld", "lift_ended_bans", "moderation_log", "sanctioned", "unban", "unhide", "withheld_places",
]
