"""The boards: which keys a run's boards are (``placements``), their pages and positions (``pages``),
standings and spreads (``standings``), seasons and their close (``seasons``), and cold boards
moving to the archive and back (``cooling``)."""
