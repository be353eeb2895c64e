"""The moderators' desk: its sessions (``sessions``), who is on which case (``cases``) and the runs waiting
for re-verification (``errored``), and how much waits (``counts``). What others use is named here."""

from store.desk.cases import CASE_HELD, Taken, cases_taken, release_case, take_case
from store.desk.counts import FLAG_OPEN, Waiting, waiting
from store.desk.errored import errored_page
from store.desk.sessions import STUDIO, TOKEN, DeskSession, end_session, open_session, session_of

__all__ = [
    "CASE_HELD", "Taken", "cases_taken", "release_case", "take_case", "errored_page", "FLAG_OPEN", "Waiting", "waiting",
    "STUDIO", "TOKEN", "DeskSession", "end_session", "open_session", "session_of",
]
