"""The game's options as players read them (the welcome mail, `pbem show`): every option
that differs from its default, with the rule it comes from and what it does; the rest
named as the defaults (docs/options.md)."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping

from pbem.engine.title import load_title

WIDTH = 78


def options_text(title: str, options: Mapping[str, str]) -> str:
    """"Options: ..." in lines of at most 78 columns."""
    rules = load_title(title)
    chosen = rules.non_default(options)
    if not chosen:
        return (f"Options: none; the {title} rules as pbem plays them by default "
                "(docs/options.md).")
    lines = ["Options (the others are the defaults; docs/options.md):"]
    for key, value in chosen.items():
        opt = rules.options[key]
        rule = f" ({opt.rule})" if opt.rule else ""
        lines += textwrap.wrap(f"{key}={value}{rule}: {opt.help}.", WIDTH,
                               initial_indent="- ", subsequent_indent="  ",
                               break_on_hyphens=False)
    return "\n".join(lines)
