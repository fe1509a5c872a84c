"""Repositories: the only way the services read and change stored game data.

One module per area: players (dynasties, leaderboard), emperors, tournaments (seats, turns,
orders), economy (wealth, items, trades, bets), events (the log), requests (each request
applied once), settings (each server's), skill (emperors' ratings), history (the archive of
finished tournaments), announcements (what Discord is still to be shown), replays, and leases
(work one bot process does for all). Every function takes an
open :class:`data.db.Database`; refusals are :class:`data.errors.Refusal` subclasses.
"""
