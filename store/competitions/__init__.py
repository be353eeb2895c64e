"""Competitions settled: each kind's final ranks turned into rewards (``settlement``), above the inboxes
(``store.rewards``), the tournaments and the leagues."""

from store.competitions.settlement import settle_closed_seasons, settle_revised, settle_tournament

__all__ = ["settle_closed_seasons", "settle_revised", "settle_tournament"]
