"""A deal's par as the service keeps it: what searches proved, and whether a worker searches now (``results``)."""
