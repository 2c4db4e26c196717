"""Every test runs headless, and the property tests draw the same examples on every run.

Fixed examples keep `make test` (and so CI) from failing one day on an old, rare bug that
a new draw happens to find; `make explore` runs the property tests with fresh examples to
look for such bugs on purpose. A bug found that way becomes an `@example` of its test.
"""

import os

from hypothesis import settings

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

settings.register_profile("fixed", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("PEBBLEBOX_HYPOTHESIS", "fixed"))
