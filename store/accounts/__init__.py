"""Who may act: players and their tokens (``players``, ``tokens``), moderators (``moderators``), and
who follows whom (``following``)."""
