"""The play-by-email service (docs/mail-service.md, docs/mail-reading.md).

- ``inbound/``: what comes in. ``imap`` (the mailbox), ``mime`` (MIME, charsets,
  headers), ``html`` (HTML to text), ``replies`` (the command lines: quotes and
  signatures stripped), ``junk`` (robots, loops), ``routing`` (which game),
  ``auth`` (which player). Pure, except ``imap`` and ``auth`` (the store).
- ``processing/``: one inbound message, one transaction. ``process`` (the message),
  ``turn`` (the game state loaded once; the commands carried out on it), ``units``
  (the mail commands as units: name, help, handler; the mail ``help``), the units
  themselves, and ``inbox`` (the operator's dead letters and retries).
- ``outbound/``: what goes out. ``views`` (what a mail shows of a game), ``notify``
  (who hears what), ``compose`` (headers, threading, the outbox), ``templates``,
  ``welcome``, ``smtp`` (the sender: recording what became of a mail), ``transport``
  (the SMTP exchanges), ``sendproc`` and ``sendchild`` (the sender beside the
  processing, in a process of its own).
- here: ``config``, ``clock``, ``faults`` (fault injection), ``serve`` (the loop),
  ``check`` (``pbem config check``), ``embedded`` (loopback servers for demo and tests).
"""
