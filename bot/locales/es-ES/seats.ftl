# Cómo llaman los tableros, la narración y los resultados a un asiento sin emperador propio
# (bot/services/tournaments/lookup.py): $seat es su letra; $level, el nivel de un bot.

seat-name-guest = invitado { $seat }
seat-name-computer = bot { $level ->
        [easy] fácil
        [normal] normal
        [hard] difícil
       *[other] { $level }
    } { $seat }
seat-name-letter = asiento { $seat }
seat-name-nobody = nadie
