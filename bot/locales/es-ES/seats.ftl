# Cómo llaman los tableros, la narración y los resultados a un asiento sin emperador propio
# (bot/services/tournaments/lookup.py): $seat es su letra.

seat-name-guest = invitado { $seat }
seat-name-computer = bot { $strategy ->
        [random] aleatorio
        [greedy] codicioso
        [strong] fuerte
        [computer] {""}
       *[other] { $strategy }
    }
seat-name-letter = asiento { $seat }
seat-name-nobody = nadie
