"""The weekly leagues' cohorts: who joined which, in which tier (``membership``), and their standings."""
