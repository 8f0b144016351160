"""Running a postal game to its end (docs/moderation.md): deadlines, reminders and what
happens when one passes, absences, replacing and removing players, the referee's
commands, undo by the game's rule, finding games.

- ``timecalc``: durations, weekdays that count, times shown in a player's zone (pure);
- ``options``: the game's moderation options (``deadline=72h``, ``on_deadline=pass``...);
- ``record``: the moderation events on the game's record (kind ``moderation``);
- ``deadlines``: who must decide what since when, and by when (the schedule);
- ``policy``: the ``pass`` policy: the moves made for a player whose deadline passed;
- ``seats``: absences, replacing and removing players, the referee's key;
- ``undo``: undo by the game's rule, consent requests and their answers;
- ``listing``: the games, for ``pbem games`` and ``list`` by mail.

The service calls these inside its transactions; the mails they cause are written by
``pbem.mail`` (``mail.timers`` fires the due timers; the mail units carry out the
commands).
"""
