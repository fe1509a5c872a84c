"""Tournaments from announcement to outcome: seats, secret orders, turns, the end (R-T1..T7, §3, §6).

Every state lives in the database; these services hold none between calls, so a restart or a
second bot process loses nothing. A turn resolves once (the data layer guards it); the last
turn, its outcome effects and the log are written in one transaction.

One feature service per module, each built on the database and the clock (and on the feature
it calls): ``lookup`` (what anyone may read), ``history`` (the archive of finished
tournaments), ``seating`` (announce, join, start, cancel), ``chests`` (the deposit asked when
joining a chests tournament, what its end reveals), ``orders`` (menus and secret orders),
``turns`` (resolution, forfeits, computer players, a combat's end), and for long games (issue
#14) ``deadlines`` (pause, resume, extend), ``absences`` (players away), ``handover`` (a seat
handed to a computer player) and ``following`` (spectators); ``base`` holds what they share.
"""
