# Suplentes, regentes y fiabilidad (issue #38, puntos 1-3; R-T10..R-T12 en docs/es/rules.md).

## Un asiento ofrecido a un suplente, ocupado o recuperado (R-T10)

seat-name-substitute = { $name } (desde el turno { $turn }; antes: { $before })
substitute-offered = 🪑 { $whose ->
        [host] { $by } ofrece el asiento **{ $seat }** del torneo #{ $tournament } ({ $name }) a un suplente: su jugador ha faltado a 2 turnos seguidos o lo dejó al ordenador.
       *[own] { $by } ofrece su asiento **{ $seat }** del torneo #{ $tournament } ({ $name }) a un suplente.
    } Cualquiera de este servidor puede ocuparlo con uno de sus emperadores: el botón de abajo, o /torneo suplir.
substitute-offered-by-rules = 🪑 El asiento **{ $seat }** del torneo #{ $tournament } ({ $name }) ha faltado a 2 turnos seguidos: una falta más y su dinastía queda derrotada. Las reglas lo ofrecen a un suplente hasta que su jugador vuelva a dar órdenes: cualquiera de este servidor puede ocuparlo con uno de sus emperadores (el botón de abajo, o /torneo suplir).
substitute-taken = 🪑 { $by } ocupa el asiento **{ $seat }** del torneo #{ $tournament } como { $name } y sigue jugando desde el turno { $turn }. { $left } lo jugó hasta entonces y deja el combate; desde ahora los resultados del asiento cuentan para { $name }.
substitute-left-dm = Un suplente ha ocupado tu asiento **{ $seat }** del torneo #{ $tournament } desde el turno { $turn }: tu emperador ha dejado el combate y vuelve a estar libre. Nada de lo que pase desde ahora cuenta para ti.
seat-taken-back = 🙋 { $by } recupera el asiento **{ $seat }** del torneo #{ $tournament } ({ $name }) de { computer-level } y vuelve a dar órdenes desde este turno.
substitute-button = Ocupar el asiento { $seat }
substitute-pick = ¿Qué emperador ocupa el asiento **{ $seat }** del torneo #{ $tournament }? Sigue jugando desde la posición actual, y los resultados del asiento cuentan para él desde ahora.
substitute-pick-placeholder = Elige tu emperador
substitute-pick-reputation = { $reputation } de reputación
substitute-pick-casual = Jugar como invitado (un emperador anónimo)

## El aviso privado un turno antes de R-G4 (R-T12)

seat-last-chance-dm = ⚠️ Has faltado a 2 turnos seguidos en el torneo #{ $tournament } (asiento { $seat }): si faltas al siguiente, tu dinastía queda derrotada y su combate termina. Da tu orden con /orden, avisa con /ausencia hasta o cede tu asiento con /torneo ceder. Tu asiento queda ofrecido a un suplente hasta que vuelvas a dar órdenes.

## Regentes (R-T11)

log-regent = Un regente { $level ->
        [random] fácil
        [greedy] normal
        [strong] difícil
       *[other] { $level }
    } (un jugador del ordenador) jugó los turnos { $first }–{ $last } del torneo #{ $tournament } por { $emperor }.

## Fiabilidad (R-T12)

reliability-none = aún ningún turno debido
reliability-line = { $percent } % ({ $ordered } de { $due } turnos con orden en { $combats } { $combats ->
        [one] combate
       *[other] combates
    }){ $abandoned ->
        [0] {""}
        [one] , 1 combate abandonado
       *[other] , { $abandoned } combates abandonados
    }

## La crónica de la dinastía (R-T10c)

log-seat-left = { $emperor } dejó el asiento { $seat } del torneo #{ $tournament } antes del turno { $turn }{ $known ->
        [yes] : { $other } sigue jugándolo como suplente.
       *[no] .
    }
log-seat-taken = { $emperor } ocupó el asiento { $seat } del torneo #{ $tournament } como suplente y sigue jugando desde el turno { $turn }{ $known ->
        [yes] {" "}({ $other } jugó los turnos anteriores).
       *[no] .
    }

## Rechazos

refusal-substitute-seat-over = El asiento { $seat } está fuera del combate (o el combate ha terminado): no queda asiento que ocupar.
refusal-offer-too-soon = El asiento { $seat } ha faltado a { $misses } { $misses ->
        [one] turno
       *[other] turnos
    } seguidos: un anfitrión ofrece un asiento solo cuando su jugador ha faltado a { $needed } turnos seguidos, o lo ha dejado al ordenador. Su jugador puede ofrecerlo cuando quiera.
refusal-offer-host-only = Solo el anfitrión del torneo #{ $tournament } o un miembro con Gestionar servidor puede ofrecer el asiento de otro jugador. Puedes ofrecer el tuyo.
refusal-substitute-plays-already = Ya juegas en el torneo #{ $tournament }: un suplente ocupa un asiento en un combate en el que no está.
refusal-substitute-not-offered = El asiento { $seat } del torneo #{ $tournament } no está ofrecido a un suplente: su jugador o el anfitrión pueden ofrecerlo con /torneo ofrecer.
refusal-substitute-no-seat = El torneo #{ $tournament } no tiene asiento '{ $seat }': sus asientos van de a a { $last }.
refusal-substitute-emperor-busy = { $name } ya juega o apuesta en el torneo #{ $tournament }: elige otro emperador (un emperador está en un solo torneo a la vez).
refusal-substitute-honour = El asiento { $seat } del torneo #{ $tournament } no puede cambiar de manos: en un combate de honor cada emperador apostó su reputación al sentarse.
refusal-substitute-needs-emperor = El torneo #{ $tournament } es serio: un suplente juega con uno de sus emperadores (como invitado solo en entrenamiento).
refusal-substitute-how = Elige uno de tus emperadores, o informal:True (solo en entrenamiento): una de las dos cosas.
refusal-substitute-no-emperor = No tienes ningún emperador vivo con el que ocupar el asiento: crea uno con /emperador crear.
refusal-substitute-damaged-button = Este botón está dañado o caducado; ocupa el asiento con /torneo suplir.
refusal-take-back-not-handed = Tu asiento del torneo #{ $tournament } no lo juega el ordenador: ya das tú las órdenes.

