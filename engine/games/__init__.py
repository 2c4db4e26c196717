"""One module per game; importing this package registers them all."""

from engine.games import ahayuta  # noqa: F401
from engine.games import ayu  # noqa: F401
from engine.games import bug  # noqa: F401
