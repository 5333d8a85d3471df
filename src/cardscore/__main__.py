import sys

from cardscore.cli import main

sys.exit(main())
