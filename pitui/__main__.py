import sys

from pitui.cli import main

sys.exit(main())
