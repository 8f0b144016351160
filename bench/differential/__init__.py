"""Differential testing against the 18xx.games engine (issue 18).

pbem and the reference engine of the 18xx.games site (../shared/oracle: its Ruby code
behind a JSON-lines server) play the same games side by side; after every pbem
command, once both have done what they do by themselves, their states are compared.

    oracle    finding and starting the reference engine
    setups    random site-compatible game setups (players, optional rules) by seed
    players   the bots: pbem's weighted random players, limited to what the site can
              express, plus moves the listing leaves out and near-legal probes
    duel      one game in both engines, compared after every command
    view      the common picture of both states, and the differences of timing
    probes    moves tried in both engines without being played (both directions)
    runner    many games on several workers; reproductions saved
    repro     a divergence as a small 18xx.games log a test replays
    fixtures  the 18xx.games logs of ../shared/fixtures compared action by action

``python -m bench.differential --help``; docs/18xx-games.md lists what it found.
"""
