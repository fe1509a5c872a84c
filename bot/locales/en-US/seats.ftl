# What boards, narration and results call a seat without an emperor of its own
# (bot/services/tournaments/lookup.py): $seat is its letter.

seat-name-guest = guest { $seat }
seat-name-computer = { $strategy } bot
seat-name-letter = seat { $seat }
seat-name-nobody = nobody
