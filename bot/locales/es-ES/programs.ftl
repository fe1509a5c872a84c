# Los programas de los jugadores (issue #37): los comandos /program (un cog fino sobre
# bot/services/programs.py) y lo que la API contesta a un programa rechazado (bot/web/); los
# rechazos de la capa de datos sobre programas están en refusals.ftl. $register, $revoke: un
# comando tal como lo escribe el lector (bot.i18n.Named). La API envía sus rechazos en inglés.

## /program registrar, lista, revocar, renombrar, clasificación

program-registered = Tu programa **{ $program }** está registrado. Su token, que se muestra solo esta vez (el bot guarda solo una huella de él, así que cópialo ahora):
    `{ $token }`
    Quien tenga este token juega como tu programa: no lo pongas en código que compartas y revócalo con /{ $revoke } si se filtra. { $api ->
        [none] La API del bot está apagada aquí: quien aloja el bot la enciende con API_PORT.
       *[other] Tu programa se conecta a { $api }.
    }
program-list-title = Tus programas
program-list-line = **{ $program }** · { $skill } · registrado el <t:{ $since }:D> · { $seats ->
        [0] sin asiento
        [one] un asiento en { $seats } torneo
       *[other] asientos en { $seats } torneos
    }
program-list-empty = No tienes programas. Registra uno con /{ $register }: juega desde tu propio ordenador a través de la API del bot.
program-revoked = **{ $program }** queda revocado: su token ya no juega, y sus asientos en combates en curso pierden sus turnos.
program-renamed = **{ $old }** se llama ahora **{ $program }**; su token y sus asientos siguen igual.
program-ladder-title = Programas por habilidad
program-ladder-line = { $rank }. **{ $program }** de { $dynasty } · { $skill }
program-ladder-empty = Ningún programa ha terminado aún un combate serio.
program-ladder-footer = Página { $page } · la habilidad es μ - 3σ, una estimación prudente
seat-name-program = { $program } ({ $dynasty })

## Un token que la API rechaza (bot/services/programs.py)

refusal-token-unknown = Este token no juega como ningún programa: comprueba que lo copiaste entero, o registra un programa con /{ $register } para obtener uno.
refusal-token-revoked = El programa { $program } fue revocado: su token ya no juega. Registra un programa nuevo con /{ $register } para tener un token nuevo.

## Lo que la API contesta a una petición que rechaza

api-token-missing = envía el token de tu programa en la cabecera Authorization: Bearer <token>
api-malformed-json = el cuerpo no es JSON; envía un objeto JSON, como {"{"}"turn": 3, "pass": true{"}"}
api-not-json = envía el cuerpo como JSON, con la cabecera Content-Type: application/json
api-not-an-object = el cuerpo debe ser un objeto JSON, como {"{"}"turn": 3, "pass": true{"}"}
api-unknown-field = una orden no tiene el campo '{ $field }': un movimiento tiene turn, piece y to; un pase, turn y pass
api-missing-field = a la orden le falta el campo '{ $field }': un movimiento tiene turn, piece y to; un pase, turn y pass
api-wrong-type = '{ $field }' debe ser { $expected ->
        [turn] un número entero, el turno de la orden
        [tile] una casilla como [fila, columna], dos números enteros contados desde 0
        [pass] true
       *[other] { $expected }
    }
api-move-or-pass = una orden es un movimiento (piece y to) o un pase, no las dos cosas
api-no-such-tournament = no hay ningún torneo #{ $tournament }; revisa su número
api-no-route = esta API no tiene { $method } { $path }; la describe docs/api/openapi.yaml en el repositorio del bot
api-method-not-allowed = { $path } no admite { $method }; admite { $allowed }
api-not-seated = tu programa no tiene asiento en el torneo #{ $tournament }; solo ve y ordena en los torneos donde tiene asiento
api-not-your-piece = la pieza de { $tile } no es de tu programa: solo ordena las piezas de la dinastía { $dynasty }
api-no-turn = el torneo #{ $tournament } { $status ->
        [open] aún no ha empezado
        [finished] ha terminado
       *[other] está cancelado
    }: no hay turno que ordenar
api-turn-not-open = la orden es para el turno { $turn }, pero el torneo #{ $tournament } tiene abierto el turno { $current }; ordena para el turno { $current }
api-seat-out = la dinastía de tu programa { $status ->
        [defeated] está derrotada
       *[other] se rindió
    } en el torneo #{ $tournament } y ya no da órdenes
api-seat-handed-over = el asiento de tu programa en el torneo #{ $tournament } se cedió a un jugador del ordenador para el resto del combate
api-too-large = la petición ocupa más de { $limit } bytes; una orden ocupa unas decenas
api-rate-limited = demasiadas peticiones de este programa; vuelve a intentarlo dentro de { $retry_after_seconds } segundos
api-too-many-streams = este programa ya tiene { $limit } flujos abiertos, el máximo permitido; cierra uno antes de abrir otro
api-stopping = el bot se está reiniciando; vuelve a intentarlo dentro de un minuto (no se cambió nada)
api-internal = algo falló del lado del bot (error { $error }); no se cambió nada, vuelve a intentarlo
