"""Repositories: the only way the services read and change stored game data.

One module per area: players (dynasties, leaderboard), emperors, tournaments (seats, turns,
orders), economy (wealth, items, trades, bets), events (the log) and requests (each request
applied once). Every function takes an
open :class:`data.db.Database`; refusals are :class:`data.errors.DataError` subclasses.
"""
