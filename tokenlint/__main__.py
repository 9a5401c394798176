"""``python -m tokenlint``."""

from tokenlint.cli import main

main()
