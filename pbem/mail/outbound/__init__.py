"""Outbound mail: what a mail shows of a game, who hears what, templates, composing,
the outbox and the SMTP sender."""
