"""Dealt games: dealing, moving and ending one, each a script (``dealt``), the sealed daily's close,
streaks (``streaks``) and the secrets the daily seeds come from (``day_secrets``)."""
