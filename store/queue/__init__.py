"""RQ, and nothing else of the store imports it: the queues and the jobs put on them (``queues``), the
intake where single submissions wait to share a job and the dispatchers that queue it (``intake``),
the sweeper that queues again a run whose job nothing will run (``pending``), and the workers'
registry (``workers``)."""
