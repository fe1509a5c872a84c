# El registro (/dynasty log, /emperor show, los hechos públicos de /leaderboard): cada entrada
# se guarda como uno de estos ids y sus parámetros (LogMessage de data/rows.py), y se cuenta al
# leerla. Los nombres ($emperor, $dynasty, $name, $old) son los que eligieron los jugadores.

# Una entrada escrita antes de que el registro tuviera ids: sus palabras en inglés, tal cual.
log-text = { $text }
log-born = nace { $emperor }
log-conquered = { $emperor } fue conquistado por { $dynasty }{ $renamed ->
        [yes] {" "}y ahora se llama { $name }
       *[no] {""}
    }
log-retired = { $emperor } se retiró; sus { $reputation } de reputación dejan la dinastía
log-renamed = { $old } ahora se llama { $name }
log-reputation = { $emperor } { $gain ->
        [yes] +{ $delta }
       *[no] { $delta }
    } de reputación: { $why }
log-inactive = inactivo: ningún combate serio en 30 días
# A fight logged before names were lists: $contenders and $winners as English text ("none": a draw).
log-fought = { $emperor } luchó en un torneo { kind-name } en { $battlefield } ({ $contenders }); ganador: { $winners ->
        [none] { log-nobody }
       *[other] { $winners }
    }
# $contenders, $winners: lists of names, each read in the reader's words (log-nobody if none won).
log-fight = { $emperor } luchó en un torneo { kind-name } en { $battlefield } ({ $contenders }); ganador: { $winners }
log-nobody = nadie (empate)
log-starting-wealth = riqueza inicial de una dinastía nueva
log-key-lent = la llave de { $battlefield }, prestada para esta simulación
log-bought = compró { $quantity } × { $item }
log-trade = intercambio #{ $trade }
log-bet-placed = { $emperor } apuesta en el torneo #{ $tournament }
log-bet-settled = apuesta #{ $bet } en el torneo #{ $tournament } { $status ->
        [paid] pagada
        [lost] perdida
        [refunded] devuelta
       *[other] { $status }
    }
log-prize-put-up = aportó el premio del torneo #{ $tournament }
log-wealth-staked = { $emperor } apuesta riqueza en el torneo #{ $tournament }
log-prize-share = parte del premio del torneo #{ $tournament }
log-prize-returned = devuelto el premio del torneo #{ $tournament }
log-stakes-share = parte de las apuestas de riqueza del torneo #{ $tournament }
log-stake-returned = devuelta la apuesta de riqueza del torneo #{ $tournament }
log-chest-deposited = cofre depositado en el torneo #{ $tournament }
log-chest-captured = capturó el cofre del asiento { $seat } en el torneo #{ $tournament }
log-chest-lost = el cofre depositado en el torneo #{ $tournament } lo capturó { $dynasty }
log-chest-returned = devuelto el cofre del torneo #{ $tournament }
