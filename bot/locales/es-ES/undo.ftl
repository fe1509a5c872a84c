# Deshacer el último turno resuelto (issue #38 punto 6): /torneo deshacer,
# /ajustes ventana-deshacer (cogs/undo.py, bot/views/undo.py).

undo-ask = ¿Deshacer el turno { $turn } del torneo #{ $tournament }? El tablero, la experiencia, las faltas y las derrotas vuelven a como estaban antes de él, se descartan todas sus órdenes y el turno se juega de nuevo con un turno entero de tiempo. Se avisa a todos, y el deshacer queda registrado.
undo-button = Deshacer el turno { $turn }
undo-done = El turno { $turn } del torneo #{ $tournament } queda deshecho.
undo-title = Torneo #{ $tournament } · turno { $turn } deshecho
undo-told = ↩️ { $by } deshizo el turno { $turn }: el tablero está como antes de él, y el turno { $turn } vuelve a estar abierto hasta { $deadline }. Da tus órdenes de nuevo.
undo-dm = ↩️ El anfitrión deshizo el turno { $turn } del torneo #{ $tournament }: vuelve a estar abierto hasta { $deadline }, y las órdenes dadas para él se descartaron. Da la tuya de nuevo.
undo-window = { $changed ->
        [yes] Hecho: a partir de ahora
       *[no] En este servidor,
    } { $minutes ->
        [0] no se puede deshacer ningún turno.
       *[other] un anfitrión (o un miembro con Gestionar servidor) puede deshacer el último turno de un combate durante { $minutes } { $minutes ->
            [one] minuto
           *[other] minutos
        } después de resolverse, mientras nadie haya dado su orden para el siguiente.
    }
board-undone = turno { $turn } de nuevo

refusal-undo-host-only = Solo el anfitrión del torneo #{ $tournament } o un miembro con Gestionar servidor puede deshacer sus turnos.
refusal-undo-not-running = El torneo #{ $tournament } no está en curso: solo se puede deshacer el último turno de un combate en curso (nunca un turno que terminó un combate).
refusal-undo-nothing = El torneo #{ $tournament } aún no tiene ningún turno resuelto que deshacer.
refusal-undo-not-last = Solo se puede deshacer el último turno resuelto: el torneo #{ $tournament } ha resuelto el turno { $last } desde que pediste deshacer el turno { $turn }.
refusal-undo-too-late = El turno { $turn } del torneo #{ $tournament } se resolvió hace más de { $minutes } { $minutes ->
        [one] minuto
       *[other] minutos
    }: ha pasado la ventana para deshacer de este servidor (/ajustes ventana-deshacer).
refusal-undo-next-turn-begun = El turno { $turn } del torneo #{ $tournament } ya ha empezado: alguien dio su orden (o se rindió, o cedió un asiento), así que el turno anterior ya no se puede deshacer.
refusal-undo-damaged = Este botón está dañado o caducado; vuelve a pedirlo con /torneo deshacer.
refusal-undo-not-yours = Solo el miembro que lo pidió puede confirmar este deshacer.
refusal-undo-window-manager = Solo un miembro con Gestionar servidor puede cambiar durante cuánto tiempo se pueden deshacer los turnos, y en el propio servidor.
refusal-undo-window-range = La ventana para deshacer va de 0 (no se deshace nada) a { $most } minutos.
