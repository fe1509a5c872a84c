# Órdenes secretas: el aviso de turno (por MD, o con /orden) y /orden.

duration-part = { $count } { $unit ->
        [day] { $count ->
            [one] día
           *[other] días
        }
        [hour] { $count ->
            [one] hora
           *[other] horas
        }
       *[minute] { $count ->
            [one] minuto
           *[other] minutos
        }
    }
duration-none = menos de un minuto
clock-text = { $clock ->
        [ends] termina { $deadline }
        [paused] está en pausa: le quedan { $left } cuando se reanude (por sí solo { $until } como muy tarde)
       *[none] {""}
    }

order-pass = pasar
order-move = { $origin } → { $destination }
piece-kind = { $kind ->
        [emperor] emperador
       *[pawn] peón
    }
piece-label = { $tile } · { piece-kind } · experiencia { $experience }
piece-moves = { $moves } { $moves ->
        [one] movimiento posible
       *[other] movimientos posibles
    }
destination-label = { $tile } · { $distance } { $distance ->
        [one] casilla
       *[other] casillas
    } { $way ->
        [up] hacia arriba
        [down] hacia abajo
        [left] a la izquierda
       *[right] a la derecha
    }{ $target ->
        [none] {""}
       *[other] {" "}· ataca { $target_kind ->
            [emperor] al emperador
           *[pawn] a un peón
        } de { $target }
    }

prompt-title = Torneo #{ $tournament } en { $battlefield } · turno { $turn } de { $limit }
prompt-description = { $clock ->
        [ends] Termina { $deadline }.{" "}
        [paused] En pausa: le quedan { $left } cuando se reanude (por sí solo { $until } como muy tarde).{" "}
       *[none] {""}
    }Eres la dinastía **{ $seat }**.
    Elige una pieza, luego adónde va, y después **Confirmar**; o **Pasar**. Puedes cambiar tu orden hasta que se resuelva el turno; nadie más la ve.
prompt-current-order = Tu orden actual: **{ $order }**.
prompt-not-ordered = Aún no has dado ninguna orden.
prompt-none-can-move = Ninguna de tus piezas puede moverse este turno: pasa.
prompt-confirm = Confirma para ordenar **{ $origin } → { $destination }**.
prompt-where = ¿Adónde va { $kind ->
        [emperor] el emperador
       *[pawn] el peón
    } de { $tile } (experiencia { $experience })?
prompt-choose-piece = Elige la pieza que mueves
prompt-where-to = ¿Adónde va { $tile }?
prompt-confirm-button = Confirmar { $origin } → { $destination }
prompt-pass = Pasar
prompt-earlier-pieces = ◀ Piezas anteriores
prompt-more-pieces = Más piezas ▶

order-accepted = Tu orden actual para el turno { $turn }: **{ $order }**. { $ready } de { $active } { $active ->
        [one] listo
       *[other] listos
    }. Puedes cambiarla hasta que se resuelva el turno { $turn }.
order-accepted-complete = Tu orden para el turno { $turn }: **{ $order }**. { $ready } de { $active } { $active ->
        [one] listo
       *[other] listos
    }: el turno se resuelve ahora, y el tablero nuevo aparecerá en el canal del torneo.
order-accepted-paused = Tu orden actual para el turno { $turn }: **{ $order }**. { $ready } de { $active } { $active ->
        [one] listo
       *[other] listos
    }. El torneo está en pausa: no se resuelve nada hasta que se reanude, y hasta entonces puedes cambiar tu orden.

board-title-own-order = #{ $tournament } { $battlefield } - turno { $turn }{ $order ->
        [none] {""}
        [pass] {" "}- tu orden: pasar
       *[other] {" "}- tu orden: { $origin } a { $destination }
    }

refusal-damaged-prompt = Este aviso de turno está dañado o caducado; usa /orden para tener uno nuevo con el tablero.
refusal-no-piece-there = No tienes ninguna pieza en { $tile }: elige una de las piezas de la lista.
refusal-cannot-reach = La pieza de { $origin } no puede llegar a { $tile } este turno: elige una de las casillas de la lista.
refusal-not-your-prompt = Este aviso de turno es de otro jugador; usa /orden para tener el tuyo.
refusal-choose-listed = Elige una de las opciones de la lista.
refusal-no-turn-to-order = No tienes ningún turno que ordenar: únete a un torneo con /torneo unirse y espera a que empiece.
refusal-choose-tournament = Juegas en los torneos { $tournaments }: elige uno con la opción torneo.
refusal-name-the-piece = Di también qué pieza va allí (pieza:), como pieza:C4 destino:C6.

# El aviso de despliegue (R-V1c): por MD, o con /desplegar (bot/views/deployment.py).
deploy-title = Torneo #{ $tournament } en { $battlefield } · tu despliegue
deploy-description = { $clock ->
        [ends] Termina { $deadline }.{" "}
        [paused] En pausa: quedan { $left } cuando se reanude (por sí solo { $until } como muy tarde).{" "}
       *[none] {""}
    }Eres la dinastía **{ $seat }**. Antes del turno 1, coloca tu emperador, tus { $pawns } { $pawns ->
        [one] peón
       *[other] peones
    }{ $mountains ->
        [0] {""}
        [one] {" "}y tu montaña
       *[other] {" "}y tus { $mountains } montañas
    } en tus casillas de origen. Nadie ve tu despliegue hasta que se revelan todos a la vez; puedes cambiarlo hasta entonces.
    Elige qué mover, luego adónde va (lo que había allí ocupa su lugar), luego **Confirmar**; o **Usar el predeterminado** con un clic.
deploy-stored = Tu despliegue está guardado; aún puedes cambiarlo:
deploy-not-stored = Aún no has desplegado. La disposición predeterminada:
deploy-legend = E emperador · P peón · ^ montaña · · casilla de origen libre
deploy-where = ¿Adónde va { deploy-what } de { $tile }?
deploy-what = { $what ->
        [emperor] el emperador
        [pawn] el peón
        [mountain] la montaña
       *[none] la casilla libre
    }
deploy-item = { deploy-what } de { $tile }
deploy-target = { $tile } · { deploy-what }
deploy-choose-what = Elige qué mover
deploy-choose-where = ¿Adónde va { $tile }?
deploy-earlier = ◀ Casillas anteriores
deploy-more = Más casillas ▶
deploy-confirm = Confirmar este despliegue
deploy-default = Usar el predeterminado
deploy-change = Cambiar mi despliegue
deploy-accepted = Tu despliegue está guardado (solo tú lo ves). { $ready } de { $active } desplegados. Puedes cambiarlo hasta que se revelen todos los despliegues.
deploy-accepted-complete = Tu despliegue está guardado (solo tú lo ves). { $ready } de { $active } desplegados: todos los despliegues se revelan ahora, y el primer tablero estará en el canal del torneo.
deploy-accepted-paused = Tu despliegue está guardado (solo tú lo ves). { $ready } de { $active } desplegados. El torneo está en pausa: nada se revela hasta que se reanude, y puedes cambiar tu despliegue hasta entonces.
refusal-damaged-deployment = Este aviso de despliegue está dañado o caducado; usa /desplegar para uno nuevo.
refusal-not-home-tile = { $tile } no es una de tus casillas de origen; elige una de la lista.
refusal-not-your-deployment-prompt = Este aviso de despliegue es de otro jugador; usa /desplegar para el tuyo.
refusal-choose-deployment = { $tournaments ->
        [none] No tienes ningún despliegue que hacer: ninguno de tus torneos está en despliegue.
       *[other] Despliegas en los torneos { $tournaments }: elige uno con la opción torneo.
    }
