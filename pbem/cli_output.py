"""What the command line prints: never a control character from the database.

Names, table talk, subjects and mail come from players; printed as they are, a
terminal would run their escape sequences (clear the screen, set the window title,
ring the bell), piped or not. Every command prints through ``echo``, which shows
them as visible pictures (pbem.safe_text).
"""

from __future__ import annotations

import sys
from typing import NoReturn

import click

from .safe_text import visible


def echo(message: object = "", err: bool = False, nl: bool = True) -> None:
    click.echo(visible(str(message)), err=err, nl=nl)


def fail(message: str, code: int = 1) -> NoReturn:
    echo(message, err=True)
    sys.exit(code)
