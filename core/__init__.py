"""Table Companion's rules core: pure Python, no I/O, no browser.

The browser reaches it only through :mod:`core.api`.
"""

__version__ = "0.1.0"
