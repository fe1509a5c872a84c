# What players read when the bot cannot do its work for a reason of its host's, not theirs.

refusal-database-unavailable = the game's database is unavailable; try again in a minute (nothing you did before is lost)
