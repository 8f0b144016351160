"""Loop and junk protection, and the Authentication-Results check.

``classify(mail)`` decides whether an inbound mail gets processed at all.  Mail
written by a program (auto-replies, bounces, list traffic, other robots, our own
mail coming back) is ignored and gets no reply, so that two robots can never
answer each other forever.  ``authentication_failure`` reads the verdicts the
receiving mail server recorded (RFC 8601).  Both are pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from .mime import InboundMail

__all__ = ["Verdict", "authentication_failure", "classify", "parse_authentication_results"]


@dataclass(frozen=True)
class Verdict:
    """What to do with an inbound mail.

    ``action`` is "process" or "ignore"; for "ignore", ``rule`` names the rule
    that matched (a short code for logs and tests) and ``reason`` says why in a
    sentence for the operator.
    """

    action: Literal["process", "ignore"]
    rule: str = ""
    reason: str = ""

    @property
    def ignored(self) -> bool:
        return self.action == "ignore"


PROCESS = Verdict("process")

_ROBOT_LOCAL_PARTS = {"mailer-daemon", "mailer_daemon", "mailerdaemon", "postmaster"}
_AUTOREPLY_HEADERS = (
    "X-Autoreply",
    "X-Autorespond",
    "X-Autoresponder",
    "X-Autoreply-From",
    "X-Mail-Autoreply",
)
_OUT_OF_OFFICE_SUBJECT = re.compile(
    r"^(?:(?:re|aw|sv|antw|wg|fwd?)\s*:\s*)*"
    r"(?:automatic reply|auto[- ]?reply|auto[- ]?response|autosvar|auto"
    r"|out of (?:the )?office(?: auto ?reply)?|abwesenheitsnotiz|abwesend"
    r"|automatische antwort|r[ée]ponse automatique|absence du bureau"
    r"|respuesta autom[áa]tica|automatisch antwoord|afwezig|risposta automatica"
    r"|fuori sede|resposta autom[áa]tica)"
    r"\s*(?::|$)",
    re.IGNORECASE,
)


def _ignore(rule: str, reason: str) -> Verdict:
    return Verdict("ignore", rule, reason)


def _token(value: str) -> str:
    """The first word of a structured header value, comments removed."""
    return _strip_comments(value[:1000]).split(";", 1)[0].strip().lower()


def classify(mail: InboundMail) -> Verdict:
    """Decide whether a mail is processed or ignored (no reply at all).

    Ignored: our own ``X-PBEM-Game`` header; ``Auto-Submitted`` other than
    ``no``; ``Precedence`` bulk, junk, list (or auto_reply); any ``List-*`` header; an empty
    Return-Path (``<>``, as bounces have); a mailer-daemon or postmaster sender;
    ``X-Autoreply``/``X-Autorespond`` and similar; Microsoft's
    ``X-Auto-Response-Suppress``; an out-of-office subject ("Automatic reply:",
    "Out of Office", "Abwesenheitsnotiz", ...); a report (multipart/report:
    delivery status notifications and read receipts).
    """
    if mail.header("X-PBEM-Game") is not None:
        return _ignore("own-mail", "it carries our own X-PBEM-Game header (a mail we sent)")
    auto = mail.header("Auto-Submitted")
    if auto is not None and _token(auto) != "no":
        return _ignore("auto-submitted", f"it was sent by a program (Auto-Submitted: {auto})")
    precedence = mail.header("Precedence")
    if precedence is not None and _token(precedence) in ("bulk", "junk", "list", "auto_reply"):
        return _ignore("precedence", f"it is bulk or list mail (Precedence: {precedence})")
    for name, _ in mail.headers:
        if name.lower().startswith("list-"):
            return _ignore("list", f"it comes from a mailing list ({name} header)")
    return_path = mail.header("Return-Path")
    if return_path is not None and return_path.replace(" ", "") in ("<>", ""):
        return _ignore("null-sender", "it has an empty Return-Path (<>), as bounces do")
    local_part = mail.from_addr.split("@", 1)[0]
    if local_part in _ROBOT_LOCAL_PARTS:
        return _ignore("mailer-daemon", f"it comes from a mail server ({mail.from_addr})")
    for name in _AUTOREPLY_HEADERS:
        if mail.header(name) is not None:
            return _ignore("autoreply", f"it is an automatic reply ({name} header)")
    if mail.header("X-Auto-Response-Suppress") is not None:
        return _ignore("autoreply", "it is an automatic reply (X-Auto-Response-Suppress header)")
    if _OUT_OF_OFFICE_SUBJECT.match(mail.subject.strip()):
        return _ignore("out-of-office", f"its subject marks an automatic reply: {mail.subject}")
    if mail.content_type == "multipart/report":
        return _ignore("report", "it is a delivery or read report (multipart/report)")
    return PROCESS


# ---------------------------------------------------------------------------
# Authentication-Results (RFC 8601)


def _strip_comments(value: str) -> str:
    """Remove (possibly nested) comments, keeping quoted strings intact."""
    out: list[str] = []
    depth = 0
    quoted = False
    escaped = False
    for ch in value:
        if escaped:
            escaped = False
            if not depth:
                out.append(ch)
            continue
        if ch == "\\":
            escaped = True
            if not depth:
                out.append(ch)
            continue
        if quoted:
            out.append(ch)
            if ch == '"':
                quoted = False
            continue
        if ch == "(":
            depth += 1
            continue
        if ch == ")" and depth:
            depth -= 1
            if not depth:
                out.append(" ")
            continue
        if depth:
            continue
        if ch == '"':
            quoted = True
        out.append(ch)
    return "".join(out)


def _split_semicolons(value: str) -> list[str]:
    parts: list[str] = []
    current: list[str] = []
    quoted = False
    for ch in value:
        if ch == '"':
            quoted = not quoted
        if ch == ";" and not quoted:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return [p.strip() for p in parts]


_RESULT = re.compile(r"([a-z0-9_.-]+)(?:\s*/\s*\d+)?\s*=\s*([a-z0-9_-]+)", re.IGNORECASE)


def parse_authentication_results(value: str) -> tuple[str, list[tuple[str, str]]]:
    """``(authserv_id, [(method, result), ...])`` of one Authentication-Results
    header value, lower-cased; comments and property details are dropped."""
    parts = _split_semicolons(_strip_comments(value[:16384]))
    head = parts[0].split()
    authserv_id = head[0].lower() if head else ""
    results: list[tuple[str, str]] = []
    for part in parts[1:]:
        m = _RESULT.match(part)
        if m:
            results.append((m.group(1).lower(), m.group(2).lower()))
    return authserv_id, results


def authentication_failure(mail: InboundMail, trusted_authserv_id: str) -> str | None:
    """A reason sentence if the trusted server recorded dkim=fail or dmarc=fail.

    Only Authentication-Results headers whose authserv-id equals
    ``trusted_authserv_id`` (case-insensitive) count: anyone can write such a
    header, and only the receiving server's own are meaningful.  No header,
    ``pass``, ``none``, other results, or untrusted headers return None.
    """
    trusted = trusted_authserv_id.strip().lower()
    if not trusted:
        return None
    for value in mail.header_all("Authentication-Results"):
        authserv_id, results = parse_authentication_results(value)
        if authserv_id != trusted:
            continue
        for method, result in results:
            if result != "fail":
                continue
            if method == "dmarc":
                return (
                    f"The mail server {trusted_authserv_id} found that this mail fails the "
                    "sender domain's DMARC policy (dmarc=fail): it may be forged, so it was "
                    "not accepted."
                )
            if method == "dkim":
                return (
                    f"The mail server {trusted_authserv_id} found that the DKIM signature of "
                    "this mail does not verify (dkim=fail): it may be forged or altered on "
                    "the way, so it was not accepted."
                )
    return None
