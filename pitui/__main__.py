import sys

from pitui.cli import main

# Guarded: the catalog's worker processes (forkserver/spawn) import the main module again.
if __name__ == "__main__":
    sys.exit(main())
