"""One run of ``tokenlint check``: read and prefilter the files (``inputs``), split the candidates
into import-connected groups (``grouping``), analyse each group (``analyse``) in this process or
in a pool through the cache (``pipeline``, ``cache``), merge the groups' results (``results``)."""
