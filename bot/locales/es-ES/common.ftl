# Palabras que comparte todo el bot.

# Nombres de los tipos y estados del juego, para los mensajes que los citan ({ kind-name }):
# cada uno lee la variable de su nombre.
kind-name = { $kind ->
        [training] entrenamiento
        [gift] regalo
        [honour] honor
        [conquer] conquista
        [death] muerte
       *[other] { $kind }
    }
tournament-status-name = { $status ->
        [open] abierto
        [running] en curso
        [finished] terminado
        [cancelled] cancelado
       *[other] { $status }
    }
emperor-status-name = { $status ->
        [idle] libre
        [playing] jugando
        [betting] apostando
        [dead] muerto
       *[other] { $status }
    }
trade-status-name = { $status ->
        [open] abierto
        [accepted] aceptado
        [declined] rechazado
        [expired] caducado
        [cancelled] retirado
       *[other] { $status }
    }

error-bug = Algo ha salido mal (error { $id }). Ya se ha avisado a los responsables.
error-cooldown = Dibujar le lleva un momento al bot, así que cada jugador puede pedir esto { $rate } { $rate ->
        [one] vez
       *[other] veces
    } { $seconds ->
        [60] por minuto
       *[other] cada { $seconds } segundos
    }. Puedes volver a pedirlo { $again }.
refusal-damaged-button = Este botón está dañado o caducado; { $where ->
        [log] abre la crónica con /dinastia cronica.
        [history] abre el archivo con /torneo historial.
        [retire] vuelve a pedirlo con /emperador retirar.
        [help] vuelve a abrirla con /ayuda.
       *[trades] mira tus ofertas abiertas con /intercambio lista.
    }

told-in-channel = { $notice }
    (Se ha anunciado en { $channel }, el canal del torneo).
emperor-choice = { $name } · { $reputation } de reputación · { emperor-status-name }
battlefield-choice = { $name } · { $players } jugadores · { $turns } turnos
tournament-label = #{ $tournament } { $battlefield } · { kind-name } · { $status ->
        [running] { $paused ->
            [yes] turno { $turn } (en pausa)
           *[no] turno { $turn }
        }
       *[other] { tournament-status-name }
    }
page = Página { $page }
newer = ◀ Más recientes
older = Más antiguas ▶

closed-dms-notice = { $mention }, no puedo enviarte mensajes directos (tu configuración de privacidad los bloquea), así que { $deploying ->
        [yes] tu aviso de despliegue
       *[no] tus avisos de turno
    } del torneo #{ $tournament } no te llegan. { $deploying ->
        [yes] Usa /desplegar aquí para colocar tus piezas antes del turno 1, y luego /orden en cada turno: solo tú ves sus respuestas.
       *[no] Usa /orden aquí en cada turno para ver el tablero y dar tu orden: solo tú ves sus respuestas.
    } Los recordatorios se te mostrarán en privado con tu próximo comando.

# Lo que el cliente de Discord nunca envía, rechazado de todos modos (bot/command_tree.py).
refusal-outside-server = /{ $command } solo funciona en un servidor: úsalo en el canal del servidor donde juegas.
refusal-options-damaged = Las opciones de /{ $command } están dañadas; vuelve a usar el comando desde Discord.
refusal-option-missing = /{ $command } necesita la opción { $option }: rellénala.
refusal-option-type = La opción { $option } admite { $kind ->
        [text] texto
        [integer] un número entero
        [number] un número
       *[boolean] verdadero o falso
    }; dale eso.
refusal-option-choices = La opción { $option } admite uno de: { $choices }. Elige uno.
refusal-option-length = La opción { $option } admite de { $low } a { $high } caracteres.
refusal-option-range = La opción { $option } admite un número de { NUMBER($low, useGrouping: 1) } a { NUMBER($high, useGrouping: 1) }; elige uno en ese intervalo.

help-title = Emperors of the Dynasty
help-summary = Emperors of the Dynasty es un juego de estrategia de movimientos simultáneos. En cada turno cada dinastía ordena en secreto una pieza (o pasa); cuando se cierra el turno, todas las órdenes se resuelven a la vez. Captura a los emperadores rivales o alcanza el objetivo del torneo para ganar reputación y riqueza — en los más duros, también a los emperadores vencidos.

    Funda tu dinastía con /dinastia fundar, crea un emperador con /emperador crear, únete a un torneo con /torneo unirse y, cuando se abra un turno, da tu orden con /orden.
help-page = Página { $page } de { $pages }
help-previous = ◀ Anterior
help-next = Siguiente ▶
