"""Tournaments in the store: created, listed, joined, played, closed (``domain.tournaments``)."""
