# El visor de partidas, la página web de un torneo (bot/web/viewer.py, issue #37). Las palabras
# de la página se le envían en el idioma de quien lee; $time, $step y $steps los pone la página.

viewer-title = Torneo #{ $tournament } en { $battlefield }
viewer-turn-title = Turno { $turn } de { $limit }
viewer-start-title = El inicio
viewer-status-open = Esperando jugadores: { $seated } de { $seats } asientos ocupados
viewer-status-running = El turno { $turn } de { $limit } está abierto: { $ready } de { $active } órdenes listas
viewer-status-paused = El turno { $turn } de { $limit } está en pausa
viewer-status-cancelled = Este torneo se canceló
viewer-deadline = Este turno acaba { $time }.
viewer-first = Primer turno
viewer-previous = Turno anterior
viewer-next = Turno siguiente
viewer-last = Último turno
viewer-slider = Turno
viewer-live = En directo
viewer-loading = Cargando el tablero…
viewer-waiting = Aún no hay turnos: el tablero se llena cuando empiece el combate.
viewer-offline = El servidor no responde; se vuelve a intentar…
viewer-gone = Este torneo ya no se comparte en la web.
viewer-noscript = Esta página dibuja el tablero con JavaScript: actívalo para ver el combate.
viewer-narration = Qué pasó
viewer-legend = Dinastías
viewer-words = El tablero en palabras
viewer-patterns = Tramas para daltónicos
viewer-keys = Las flechas ← → recorren los turnos (o los pasos); Inicio y Fin saltan al primer y al último turno.

# El modo paso a paso: la resolución de un turno movimiento a movimiento (RULES.md §4).
viewer-steps-open = Recorrer los conflictos paso a paso
viewer-steps-close = Volver a los turnos
viewer-step-previous = Paso anterior
viewer-step-next = Paso siguiente
viewer-step-count = Paso { $step } de { $steps }
viewer-steps-orders = Las órdenes de este turno, reveladas a la vez: cada flecha discontinua apunta adonde se ordenó mover su pieza.
viewer-steps-end = El final del turno: cada pieza está donde se queda, se cuenta la experiencia y se resuelven las derrotas.
viewer-steps-none = En este turno no se movió nada.
viewer-step-return = { $piece } vuelve a { $at } y se queda allí
viewer-step-slide = { $piece } retrocede a { $at }: la casilla de delante está ocupada
viewer-step-failed = { $piece } ataca { $tile }, pero la toma falla: rebota a { $at }
viewer-step-bounce = { $piece } rebota a { $at }
viewer-step-wait = { $piece } espera: { $tile } es aún el origen de otra pieza que se mueve
viewer-step-fix = { $piece } acaba en { $at }
viewer-step-rotation = { $pieces } giran a la vez, cada una a la casilla que deja la siguiente
viewer-step-mutual = { $piece } y { $target } son igual de fuertes: ambos dejan el tablero en { $tile }

# El tablero en palabras, para quien no puede verlo.
viewer-alt-board = { $title }. { $dynasties }.
viewer-alt-dynasty = { $name } ({ $letter }){ $defeated ->
        [yes] , derrotada
       *[no] {""}
    }: { $pieces }
viewer-alt-piece = { $kind ->
        [emperor] emperador
       *[pawn] peón
    } { $tile }{ $experience ->
        [1] {""}
       *[other] {" "}(experiencia { $experience })
    }
viewer-alt-neutral = peones neutrales: { $pieces }
viewer-alt-nothing = ninguna pieza

# Lo que dice la página en lugar de un torneo que no puede mostrar (desconocido o no compartido: igual).
viewer-refusal-heading = Aquí no hay nada que ver
viewer-refusal-not-found = No hay ningún torneo #{ $tournament } que ver aquí: no existe, o su servidor no comparte sus combates en la web. Revisa el enlace, o pide a quienes administran el servidor que los compartan con /{ $command }.
viewer-refusal-bad-turn = Esta página pidió los turnos después de «{ $since }», que no es un número de turno: recarga la página.
