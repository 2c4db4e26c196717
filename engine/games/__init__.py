"""One module per game; importing this package registers them all."""

from engine.games import ahayuta, ayu, bug  # noqa: F401
