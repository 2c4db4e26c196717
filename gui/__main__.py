"""Start the Pebblebox application: `python -m gui` (what `make run` does)."""

from __future__ import annotations

import multiprocessing
import sys


def main() -> int:
    multiprocessing.freeze_support()  # worker processes of a PyInstaller build start here
    from PySide6.QtWidgets import QApplication

    from gui.main_window import MainWindow

    app = QApplication(sys.argv)
    app.setApplicationName("Pebblebox")
    app.setOrganizationName("Pebblebox")
    window = MainWindow()
    window.show()
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
