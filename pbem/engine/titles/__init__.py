"""The built-in titles, each a package holding its Rulebook (titles/base.py): 1830 and
1870.  Importing this package registers them (pbem.engine.registry)."""

from __future__ import annotations

from . import t1830, t1870

__all__ = ["t1830", "t1870"]
