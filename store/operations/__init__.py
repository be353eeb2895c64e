"""The operator's passes over the whole store: moving old runs and cold boards to the archive
(``retention``), ``scoundrel check`` (``consistency``) and ``scoundrel migrate`` (``migration``)."""
