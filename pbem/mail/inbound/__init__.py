"""Inbound mail: the mailbox, MIME, HTML to text, command lines, junk, routing and
authentication (docs/mail-reading.md)."""
