# Regentes y fiabilidad (issue #38, puntos 2 y 3; R-T11 y R-T12 en docs/es/rules.md).

## /ausencia regente, /ausencia hasta y /ausencia fin (R-T11)

regent-chosen = 🤖 Tu regente: { computer-level } juega tus asientos mientras estás ausente{ $after_miss ->
        [yes] , y desde el turno siguiente a cualquier turno al que faltes
       *[no] {""}
    }. Te devuelve cada asiento cuando vuelves (/ausencia fin, o el primer turno resuelto tras el fin de tu ausencia){ $after_miss ->
        [yes] {" "}o en cuanto das una orden para él
       *[no] {""}
    }. Mientras juega, el tablero del canal muestra el asiento en manos de un regente; un nivel nuevo juega desde su siguiente regencia.{ $playing ->
        [yes] {" "}Estás ausente: desde ahora juega tus asientos en { $begun }.
       *[no] {""}
    }
regent-none = Sin regente: mientras estás ausente tus asientos te esperan (los turnos a los que faltas quedan excusados). Elige uno con /ausencia regente.{ $back ->
        [yes] {" "}Tus asientos en { $ended } vuelven a ser tuyos desde este turno.
       *[no] {""}
    }
regent-no-tournament = ningún combate
away-regent-plays = 🤖 Tu regente ({ $level ->
        [easy] fácil
        [normal] normal
        [hard] difícil
       *[other] { $level }
    }) juega tus asientos { $playing ->
        [yes] en { $tournaments }
       *[no] en los combates que juegas
    } hasta que vuelvas; sus turnos se ven en los tableros y en las crónicas.
away-regent-hint = Ningún regente juega por ti mientras estás ausente: elige uno con /ausencia regente.
away-end-regent = Tus asientos en { $tournaments } vuelven a ser tuyos desde este turno: la orden de tu regente para él se mantiene salvo que des la tuya.
regent-begun-dm = 🤖 Faltaste al turno { $missed } del torneo #{ $tournament } (asiento { $seat }): tu regente, { computer-level }, juega el asiento desde el turno { $turn }. Da tu orden con /orden (o /torneo recuperar) y vuelve a ser tuyo.
seat-name-regent = { $name } (regente: { $level ->
        [easy] fácil
        [normal] normal
        [hard] difícil
       *[other] { $level }
    })

## La fiabilidad en el perfil y la clasificación, y el mínimo de un anfitrión (R-T12)

reliability-title = Fiabilidad (últimos { $combats } combates serios)
reliability-short = { $known ->
        [yes] fiabilidad { $percent } %
       *[no] aún sin fiabilidad
    }
announce-min-reliability-title = Fiabilidad necesaria para unirse
announce-min-reliability = { $percent } % de turnos con orden o más, en los últimos combates serios del jugador (quien aún no tiene ninguno puede unirse)
refusal-join-unreliable = El torneo #{ $tournament } pide una fiabilidad del { $least } % o más: la tuya es del { $percent } % ({ $ordered } de { $due } turnos con orden en tus últimos combates serios). Da tu orden en cada turno que te toca, o avisa con /ausencia y un regente cuando no puedas, y subirá.
refusal-min-reliability-range = Una fiabilidad mínima es un porcentaje de 1 a 100.
refusal-offer-regent = El asiento { $seat } del torneo #{ $tournament } lo juega el regente que eligió su jugador, hasta que vuelva: un anfitrión no puede ofrecerlo a un suplente. Su jugador sí.
