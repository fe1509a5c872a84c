# Finales acordados de un combate (R-G5): /torneo tablas, /torneo conceder, /torneo retirar-voto
# (cogs/agreements.py, bot/views/agreements.py). El voto es secreto: nadie sabe quién votó.

vote-seat = { $name } (asiento { $seat })
vote-cast = { $passed ->
        [yes] { $draw ->
            [yes] El tuyo era el último voto que faltaba: el torneo #{ $tournament } acaba en tablas.
           *[no] El tuyo era el último voto que faltaba: el torneo #{ $tournament } acaba y lo gana { $winner }.
        }
       *[no] { $draw ->
            [yes] Tu voto por las tablas en el torneo #{ $tournament } queda emitido, en secreto.
           *[no] Tu voto para ceder el torneo #{ $tournament } a { $winner } queda emitido, en secreto.
        } Cuenta hasta que se resuelva el turno { $turn }; retíralo con /torneo retirar-voto.
    }
vote-proposed = { $draw ->
        [yes] 🤝 Una dinastía propone que el torneo #{ $tournament } acabe en tablas. Si todas las dinastías que siguen en el combate lo aceptan antes de que se resuelva el turno { $turn } (/torneo tablas, o el botón), así será. Los votos son secretos.
       *[no] 🏳️ Una dinastía ofrece ceder el torneo #{ $tournament } a { $winner }. Si todas las demás dinastías que siguen en el combate se lo ceden antes de que se resuelva el turno { $turn } (/torneo conceder, o el botón), gana. Los votos son secretos.
    }
vote-agreed = { $draw ->
        [yes] 🤝 Todas las dinastías que seguían en el torneo #{ $tournament } están de acuerdo: el combate acaba en tablas.
       *[no] 🏳️ Todas las demás dinastías que seguían en el torneo #{ $tournament } cedieron: gana { $winner }.
    }
vote-agree-button = { $draw ->
        [yes] Aceptar tablas
       *[no] Ceder también
    }
vote-withdrawn = Tu voto en el torneo #{ $tournament } queda retirado. Nadie se entera.

outcome-agreed-draw = todas las dinastías que seguían en el combate acordaron tablas
outcome-conceded = todas las demás dinastías que seguían en el combate cedieron
end-agreed = Los jugadores acordaron terminar el combate.

refusal-vote-not-running = El torneo #{ $tournament } { $status ->
        [open] aún no ha empezado
       *[other] está { tournament-status-name }
    }: no hay combate que terminar de común acuerdo.
refusal-vote-defeated = Tu dinastía ya no está en el combate del torneo #{ $tournament }: solo votan las dinastías que siguen en él.
refusal-vote-handed-over = Tu asiento en el torneo #{ $tournament } se cedió a una máquina: juega por ti, y una máquina no vota.
refusal-vote-deploying = El torneo #{ $tournament } aún está en el despliegue: vota cuando se abra el turno 1.
refusal-vote-turn-closed = El turno del torneo #{ $tournament } se resolvió mientras votabas; vuelve a votar para el turno nuevo.
refusal-vote-turn-passed = Ese botón era para el turno { $turn }, que ya se resolvió, y los votos caducan con su turno; el torneo #{ $tournament } va por el turno { $current }. Vuelve a votar con /torneo tablas o /torneo conceder.
refusal-vote-none = No tienes ningún voto de este turno en el torneo #{ $tournament } que retirar.
refusal-vote-damaged = Este botón está dañado o caducado; vota con /torneo tablas o /torneo conceder.
refusal-concede-to-self = No puedes cederte el torneo #{ $tournament } a ti mismo: elige un rival que siga en el combate.
refusal-concede-not-active = Esa dinastía ya no está en el combate del torneo #{ $tournament }: cede a un rival que siga en él.
refusal-concede-unknown = El torneo #{ $tournament } no tiene ningún asiento '{ $to }': elige un rival de la lista, o da la letra de su asiento.
