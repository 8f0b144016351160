"""Compare pbem's reply stripping and HTML-to-text with the well-kept libraries.

    .venv/bin/python -m pip install quotequail mail-parser-reply inscriptis
    .venv/bin/python tools/compare_mail_readers.py

Reply stripping (what a player wrote above the quoted mail): pbem's
``command_lines`` against quotequail (``quote``) and mail-parser-reply
(``EmailReplyParser.parse_reply``), on the real-client samples of
tests/mail_samples and the cases of tests/test_mail_reading.py. The libraries
return the text of the reply; the same line filter is applied to all three
(blank lines and ``>`` lines skipped, reading stops at ``end``), so only the
stripping is compared. A case counts as right when the command lines are exactly
the expected ones.

HTML to text: pbem's ``html_to_text`` against inscriptis (``get_text``) and a
converter on the standard library's ``html.parser``, on the same expectations
(the command lines read from the converted text) and on hostile markup, each
conversion in a child process with a time limit.

The results are written down in docs/mail-reading.md ("Libraries compared").
Nothing of the project imports these libraries.
"""

from __future__ import annotations

import multiprocessing
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pbem.mail.inbound.html import html_to_text  # noqa: E402
from pbem.mail.inbound.mime import parse_message  # noqa: E402
from pbem.mail.inbound.replies import command_lines  # noqa: E402

SAMPLES = ROOT / "tests" / "mail_samples"
LANGUAGES = ["en", "de", "fr", "es", "nl", "it", "pl", "sv", "da"]


@dataclass(frozen=True)
class Case:
    name: str
    body: str
    expected: list[str]


def sample_cases() -> list[Case]:
    """The player mails of tests/mail_samples with the command lines the tests expect."""
    expected = {
        "plain.eml": ["par PRR 82", "buy NYC ; pass", "say good luck everyone"],
        "gmail_reply.eml": ["buy PRR; par NYC 67", "say \u00e7a va? Z\u00fcge kaufen wir "
                            "sp\u00e4ter, this line is long enough to be soft-wrapped"],
        "outlook_original_message.eml": None,
        "outlook_separator.eml": None,
        "outlook_reply_de.eml": None,
        "apple_mail_reply.eml": None,
        "apple_mail_bottom_quote.eml": None,
        "thunderbird_reply_en.eml": None,
        "thunderbird_reply_de.eml": None,
        "html_only.eml": None,
    }
    cases = []
    for name, lines in expected.items():
        mail = parse_message((SAMPLES / name).read_bytes())
        # Where the tests do not spell the lines out, pbem's reading is the one the
        # tests check (test_mail_reading.py asserts each of them).
        lines = lines if lines is not None else command_lines(mail.body_text).lines
        cases.append(Case(name, mail.body_text, lines))
    return cases


ATTRIBUTIONS = [
    "On Mon, Jan 8, 2024 at 9:15 AM pbem <pbem@pbem.example.org> wrote:",
    "On 08.01.2024 09:15, pbem wrote:",
    "Am 08.01.2024 um 09:15 schrieb pbem <pbem@pbem.example.org>:",
    "Am Mo., 8. Jan. 2024 um 09:15 Uhr schrieb pbem <pbem@pbem.example.org>:",
    "Le lun. 8 janv. 2024 \u00e0 09:15, pbem <pbem@pbem.example.org> a \u00e9crit :",
    "El lun, 8 ene 2024 a las 9:15, pbem (<pbem@pbem.example.org>) escribi\u00f3:",
    "Op ma 8 jan. 2024 om 09:15 schreef pbem <pbem@pbem.example.org>:",
    "Il giorno lun 8 gen 2024 alle ore 09:15 pbem <pbem@pbem.example.org> ha scritto:",
    "Em seg., 8 de jan. de 2024 \u00e0s 09:15, pbem <pbem@pbem.example.org> escreveu:",
    "Den 8 jan. 2024 kl. 09:15 skrev pbem <pbem@pbem.example.org>:",
    "W dniu 8.01.2024 o 09:15, pbem pisze:",
    "W dniu pon., 8 sty 2024 o 09:15 pbem <pbem@pbem.example.org> napisa\u0142(a):",
    "-----Original Message-----",
    "----- Original Message -----",
    "-----Urspr\u00fcngliche Nachricht-----",
    "-----Message d'origine-----",
    "---------- Forwarded message ---------",
    "Begin forwarded message:",
    "________________",
    "From: pbem Sent: Monday, January 8, 2024 9:15 AM To: Alice",
]
OUTLOOK_BLOCKS = [
    "From: pbem <pbem@pbem.example.org>\nSent: Monday\nTo: Alice",
    "*From:* pbem <pbem@pbem.example.org>\n*Sent:* Monday",
    "Von: pbem <pbem@pbem.example.org>\nGesendet: Montag",
    "De : pbem <pbem@pbem.example.org>\nEnvoy\u00e9 : lundi",
    "Van: pbem\nVerzonden: maandag",
    "Da: pbem\nInviato: luned\u00ec",
    "De: pbem\nEnviado: lunes",
]
FOOTERS = ["Sent from my iPhone", "Sent from my Galaxy", "Von meinem iPhone gesendet",
           "Get Outlook for iOS", "Envoy\u00e9 de mon iPad", "Sent from Mail for Windows"]


def written_cases() -> list[Case]:
    cases = [Case(f"attribution: {a[:40]}", f"buy PRR\n\n{a}\nsell 5 NYC\n> quoted\n",
                  ["buy PRR"]) for a in ATTRIBUTIONS]
    cases += [Case(f"outlook block: {b.splitlines()[0][:30]}",
                   f"buy PRR\n\n{b}\n\nsell 5 NYC\n", ["buy PRR"]) for b in OUTLOOK_BLOCKS]
    cases += [Case(f"phone footer: {f}", f"pass\n\n{f}\n\nbuy PRR\n", ["pass"])
              for f in FOOTERS]
    cases += [
        Case("two-line attribution", "pass\nOn Mon, Jan 8, 2024 at 9:15 AM Some Very Long "
             "Name <\npbem@pbem.example.org> wrote:\n\n> old\n", ["pass"]),
        Case("signature '-- '", "pass\n-- \nAlice\nbuy PRR\n", ["pass"]),
        Case("'say Alice wrote:' is a command", "say Alice wrote:\npass\n",
             ["say Alice wrote:", "pass"]),
        Case("'---' is not a signature", "pass\n---\n-- x\n", ["pass", "---", "-- x"]),
        Case("a dash line is not a signature", "bid CA 170\n- my bid\n",
             ["bid CA 170", "- my bid"]),
        Case("end line", "pass\nend\nThanks, Bob\n", ["pass"]),
        Case("greeting above", "Hi all!\n\nbid CA 170\n\nOn Mon, Jan 8, 2024 at 9:15 AM "
             "pbem <p@x.org> wrote:\n> old\n", ["Hi all!", "bid CA 170"]),
    ]
    return cases


# -- the readers: each returns the reply text, then the same line filter is applied ----------


def pbem_lines(body: str) -> list[str]:
    return command_lines(body).lines


def filtered(reply: str) -> list[str]:
    lines = []
    for raw in reply.splitlines():
        line = raw.strip().strip("\u200b\ufeff")
        if not line or line.startswith(">"):
            continue
        if line.lower() == "end":
            break
        lines.append(line)
    return lines


def quotequail_lines(body: str) -> list[str]:
    import quotequail

    # unwrap() separates the text above the quoted mail from the attribution line and
    # the quote (quote() would leave the attribution in the first part); where it finds
    # no quoted mail the whole body is the reply.
    unwrapped = quotequail.unwrap(body)
    return filtered(unwrapped.get("text_top", "") if unwrapped else body)


def mail_parser_reply_lines(body: str) -> list[str]:
    from mailparser_reply import EmailReplyParser

    return filtered(EmailReplyParser(languages=LANGUAGES).parse_reply(body))


READERS: dict[str, Callable[[str], list[str]]] = {
    "pbem command_lines": pbem_lines,
    "quotequail 0.5": quotequail_lines,
    "mail-parser-reply": mail_parser_reply_lines,
}


def difference(got: list[str], expected: list[str]) -> str:
    """What a reader got wrong: the first line it added, changed or left out."""
    for index, line in enumerate(got):
        if index >= len(expected):
            return f"also read {line[:60]!r}"
        if line != expected[index]:
            return f"read {line[:60]!r} for {expected[index][:40]!r}"
    return f"left out {expected[len(got)][:60]!r}"


def compare_replies() -> list[str]:
    cases = sample_cases() + written_cases()
    out = [f"Reply stripping: {len(cases)} cases ({len(sample_cases())} real-client samples)"]
    long_body = "\n".join(f"buy {i} PRR" for i in range(10_000))
    for name, reader in READERS.items():
        wrong = []
        for case in cases:
            try:
                got = reader(case.body)
            except Exception as exc:  # noqa: BLE001 - a crash is a wrong answer
                got = [f"crash {type(exc).__name__}"]
            if got != case.expected:
                wrong.append(f"    {case.name}: {difference(got, case.expected)}")
        started = time.perf_counter()
        reader(long_body)
        elapsed = time.perf_counter() - started
        out.append(f"  {name:<20} {len(cases) - len(wrong)}/{len(cases)} right; "
                   f"10,000 lines in {elapsed * 1000:.0f} ms")
        out += wrong
    return out


# -- HTML to text ------------------------------------------------------------------------------


def stdlib_html_to_text(markup: str) -> str:
    """A plain converter on html.parser: blocks and <br> break lines, blockquotes quote."""
    from html.parser import HTMLParser

    blocks = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "table", "ul", "ol", "pre",
              "blockquote", "hr"}

    class Converter(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.parts: list[str] = []
            self.depth = 0
            self.skip = 0

        def handle_starttag(self, tag: str, attrs: object) -> None:
            if tag in ("script", "style", "head", "title"):
                self.skip += 1
            if tag in blocks:
                self.parts.append("\n")
            if tag == "blockquote":
                self.depth += 1

        def handle_endtag(self, tag: str) -> None:
            if tag in ("script", "style", "head", "title") and self.skip:
                self.skip -= 1
            if tag in blocks:
                self.parts.append("\n")
            if tag == "blockquote" and self.depth:
                self.depth -= 1

        def handle_data(self, data: str) -> None:
            if not self.skip:
                prefix = "> " * self.depth
                self.parts.append(data.replace("\n", " ") if not prefix else
                                  "\n".join(prefix + p for p in data.split("\n")))

    converter = Converter()
    converter.feed(markup)
    converter.close()
    text = "".join(converter.parts)
    return "\n".join(re.sub(r"[ \t\xa0]+", " ", line).strip() for line in text.splitlines())


def inscriptis_text(markup: str) -> str:
    from inscriptis import get_text

    return get_text(markup)


CONVERTERS: dict[str, Callable[[str], str]] = {
    "pbem html_to_text": html_to_text,
    "inscriptis": inscriptis_text,
    "html.parser": stdlib_html_to_text,
}

OUTLOOK_HTML = (
    '<html><head><style>p.MsoNormal{margin:0cm}</style></head><body lang="EN-GB">'
    '<div class="WordSection1"><p class="MsoNormal">buy train 3 pool<o:p></o:p></p>'
    '<p class="MsoNormal"><o:p>&nbsp;</o:p></p></div>'
    '<hr style="display:inline-block;width:98%" tabindex="-1">'
    '<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri" style="font-size:11pt">'
    "<b>From:</b> pbem &lt;pbem+12.m3n4p5@pbem.example.org&gt;<br>"
    "<b>Sent:</b> Monday, January 8, 2024 10:03<br><b>To:</b> Bob<br>"
    "<b>Subject:</b> [1830 #12] your turn</font><div>&nbsp;</div></div>"
    "<div>PRR must buy a train.</div></body></html>"
)
HTML_CASES = [
    ("Outlook reply", OUTLOOK_HTML, ["buy train 3 pool"]),
    ("Gmail reply (blockquote)", '<div dir="ltr">buy PRR<br>pass</div><br><div class='
     '"gmail_quote"><div dir="ltr" class="gmail_attr">On Mon, Jan 8, 2024 at 9:15 AM pbem '
     '&lt;pbem@x.org&gt; wrote:<br></div><blockquote class="gmail_quote">bid CA 170'
     '</blockquote></div>', ["buy PRR", "pass"]),
    ("list of commands", "<ul><li>buy PRR</li><li>pass</li></ul>", ["buy PRR", "pass"]),
    ("quote only in blockquote", "<p>pass</p><blockquote>buy PRR</blockquote>", ["pass"]),
    ("entities and nbsp", "<p>bid&nbsp;CA&nbsp;170</p>", ["bid CA 170"]),
    ("script and style dropped", "<style>p{}</style><script>x()</script><p>pass</p>",
     ["pass"]),
]
HOSTILE = {
    "'<a ' x 100,000": "<a " * 100_000,
    "'<' x 300,000": "<" * 300_000,
    "'<!--' x 100,000": "<!--" * 100_000,
    "'<script>' x 50,000": "<script>" * 50_000,
}
TIME_LIMIT = 20.0


def _convert_in_child(name: str, markup: str, queue: multiprocessing.Queue[float]) -> None:
    started = time.perf_counter()
    CONVERTERS[name](markup)
    queue.put(time.perf_counter() - started)


def timed(name: str, markup: str) -> str:
    queue: multiprocessing.Queue[float] = multiprocessing.Queue()
    child = multiprocessing.Process(target=_convert_in_child, args=(name, markup, queue))
    child.start()
    child.join(TIME_LIMIT)
    if child.is_alive():
        child.kill()
        child.join()
        return f"over {TIME_LIMIT:.0f} s (stopped)"
    if child.exitcode != 0:
        return "crashed"
    return f"{queue.get() * 1000:.0f} ms"


def compare_html() -> list[str]:
    out = [f"HTML to text: {len(HTML_CASES)} cases, then hostile markup (limit "
           f"{TIME_LIMIT:.0f} s each)"]
    for name, convert in CONVERTERS.items():
        wrong = []
        for label, markup, expected in HTML_CASES:
            try:
                got = command_lines(convert(markup)).lines
            except Exception as exc:  # noqa: BLE001
                got = [f"crash {type(exc).__name__}"]
            if got != expected:
                wrong.append(f"    {label}: {difference(got, expected)}")
        times = ", ".join(f"{label}: {timed(name, markup)}" for label, markup in HOSTILE.items())
        out.append(f"  {name:<20} {len(HTML_CASES) - len(wrong)}/{len(HTML_CASES)} right; "
                   f"{times}")
        out += wrong
    return out


def main() -> None:
    for line in compare_replies() + [""] + compare_html():
        print(line)


if __name__ == "__main__":
    main()
