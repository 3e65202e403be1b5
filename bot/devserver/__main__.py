"""python -m bot.devserver: see bot.devserver.play."""

import sys

from bot.devserver.play import main

sys.exit(main())
