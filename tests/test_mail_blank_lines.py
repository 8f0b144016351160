"""templates._collapse_blank_lines: the mail's lines without trailing blanks (but the
signature's ``-- ``), one blank line where there were several, none at the end."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pbem.mail.outbound.templates import _collapse_blank_lines

LINES = st.lists(st.sampled_from(["", " ", "  \t", "-- ", "--", "a", " a ", "b\t", "\u00a0",
                                  "\u3000x", "x  y "]), max_size=10)


def reference(lines: list[str]) -> str:
    """The rule as the code said it first, line by line."""
    out: list[str] = []
    for line in lines:
        if not line.strip() and out and not out[-1].strip():
            continue
        out.append(line.rstrip() if line != "-- " else line)
    while out and not out[-1].strip():
        out.pop()
    return "\n".join(out) + "\n"


@given(LINES)
def test_blank_lines_collapse_as_the_rule_says(lines: list[str]) -> None:
    assert _collapse_blank_lines(lines) == reference(lines)


def test_the_signature_keeps_its_blank() -> None:
    assert _collapse_blank_lines(["", "Hi", "", " ", "-- ", "pbem", "", ""]) == \
        "\nHi\n\n-- \npbem\n"
