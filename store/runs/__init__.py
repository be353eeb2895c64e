"""A run's life in Redis: accepting a submission (``accepting``), recording its verdict with its board
places (``verdicts``), its stored form (``records``), its audit log (``audit``), reading it from
Redis or the archive (``history``), recomputing a player's places from all their runs
(``places``), and leaving for the archive and coming back (``removal``, ``archived_filter``)."""
