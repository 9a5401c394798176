"""Reading Python source: which files (``files``), their text (``decoding``), the LibCST tree
(``parsing``), walking it (``walk``), positions of nodes (``positions``), import tables
(``imports``), a function's named parameters (``functions``) and the modules of a run
(``project``)."""
