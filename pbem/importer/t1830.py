"""1830: site actions -> pbem commands (the translation is common.CommonTranslator's;
1830 adds its printed city names and the certificates the CA and BO bring)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .common import CommonTranslator
from .sitenames import printed_owners

#: certificates a private company brings with it when bought (no action in the log)
FREE_CERTS_1830 = {"CA": "PRR_1", "BO": "B&O_0"}


@dataclass
class Translator1830(CommonTranslator):
    printed: dict[str, str] = field(default_factory=lambda: printed_owners("1830"))
    free_certs: dict[str, str] = field(default_factory=lambda: dict(FREE_CERTS_1830))
