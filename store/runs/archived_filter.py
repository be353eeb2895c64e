"""Which runs the archive may hold, asked in Redis: so a new submission needs no archive lookup.

A game its player sent before is the run they already have, in Redis or in
the archive (``store.runs.accepting``). Asking the archive costs a query per new
submission; a Bloom filter of the archived run ids in Redis
(``lua/_archived_filter.lua``) answers inside the accept script instead:
"not archived" for certain, or "may be" (the archive is then asked, and
the accept tried again with its answer).

It holds because every run is noted before it leaves Redis
(``store.runs.remove_runs`` notes, then removes, in one pipeline), and
because the filter counts only once it is whole (its bit ``WHOLE``, past
a run's bits, which the accept script reads with them in one command;
setting it makes the bitmap its full 4 MiB at once): ``make_whole``
notes every run the archive holds already, once, when an API or worker
process starts (a run archived meanwhile is noted by its own removal). A
run brought back from the archive stays noted: a note too many costs a
lookup, never a wrong answer.
"""

from store.base import keys
from store.base.database import Database
from store.runs import scripts

WHOLE = 2**25  # the filter's bit set once it is whole, after a run's last (``lua/_archived_filter.lua``)


def make_whole(db: Database) -> int:
    """Note every run the archive holds, unless the filter is whole already; how many were noted."""
    if db.redis.getbit(keys.archived_filter(), WHOLE):
        return 0
    noted = 0
    for run_ids in db.archive.run_ids():
        scripts.note_archived(db.redis, run_ids=run_ids)
        noted += len(run_ids)
    db.redis.setbit(keys.archived_filter(), WHOLE, 1)
    return noted
