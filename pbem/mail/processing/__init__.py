"""Processing one inbound message in one transaction: the game loaded once, the mail
commands as units, the answers and notifications queued."""
