"""Every test runs headless; user folders are redirected so tests never touch real ones."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
