# Un turno resuelto contado en el canal (hechos de engine/narration.py, contados por
# bot/narration.py), y cómo acabó un combate. $who, $taker, $owner…: el nombre de una dinastía.

narration-piece = { $kind ->
        [emperor] el emperador de { $who }
       *[pawn] el peón de { $who }
    }
narration-and = { $rest } y { $last }
narration-took = { $taker } tomó { $taken } en { $tile }{ $bounce ->
        [yes] {" "}cuando lo devolvían allí
       *[no] {""}
    }{ $pushed ->
        [yes] , se quedó allí y lo empujó a { $pushed_to }
       *[no] {""}
    }{ $after ->
        [left] {" "}(el emperador dejó el tablero)
        [pawn] { $experience ->
            [1] {" "}(un peón ocupó su lugar)
           *[other] {" "}(un peón con experiencia { $experience } ocupó su lugar)
        }
       *[same] {""}
    }
narration-chest-captured = { $captor } capturó el cofre de { $owner } en { $tile }
narration-take-cost = la toma le costó a { $payer } su mejor peón: el peón de { $origin }{ $moved ->
        [yes] , ahora en { $final },
       *[no] {""}
    } baja de experiencia { $experience } a 1
narration-collided = { $who } chocaron en { $tile } y { $rolled ->
        [yes] retrocedieron al origen
       *[no] rebotaron
    }
narration-collided-first-stayed = { $who } chocaron en { $tile }: { $first } ordenó primero y se quedó, los demás { $rolled ->
        [yes] retrocedieron al origen
       *[no] se apartaron
    }
narration-collided-precedence = { $who } chocaron en { $tile }: el emperador de { $leader }, rebotando de su toma, tuvo prioridad y se quedó, los demás { $rolled ->
        [yes] retrocedieron al origen
       *[no] se apartaron
    }
narration-moved = { $piece } se movió a { $tile }
narration-rotated = { $piece } rotó hasta { $tile }
narration-stopped = { $piece } apuntó a { $tile } y se detuvo en { $stop }
narration-went-back = { $piece } apuntó a { $tile } y volvió a { $origin }
narration-missed = { $who } no dio orden este turno
narration-defeated = { $who } queda derrotada
narration-quiet = todas las piezas se quedaron en su casilla
narration-ended = { $winners ->
        [0] empate tras el turno { $turn }: { $reason }
        [1] { $who } gana tras el turno { $turn }: { $reason }
       *[other] { $who } ganan tras el turno { $turn }: { $reason }
    }
# Las variantes (sección 10 de RULES.md): tomas fallidas, destrucción mutua, coronación, pintura.
narration-failed-attempt = { $attacker } no logró tomar { $target } en { $tile }{ $bounce ->
        [yes] {" "}cuando lo devolvían allí
       *[no] {""}
    }{ $why ->
        [fortress] {" "}(solo un emperador toma una pieza en su propia fortaleza)
       *[weaker] {" "}(tenía más experiencia)
    }
narration-mutual-destruction = { $attacker } y { $target } se destruyeron mutuamente en { $tile }{ $bounce ->
        [yes] {" "}cuando lo devolvían allí
       *[no] {""}
    }
narration-crowned = el peón de { $who } en { $tile } es coronado emperador de { $who }
narration-window-opened = { $who } perdió su último emperador: un peón de { $who } en { $known ->
        [yes] { $tile }
       *[no] su salida de emperador
    } al final del próximo turno será coronado, o { $who } quedará derrotada
narration-window-closed = { $uncrowned ->
        [yes] ningún peón de { $who } estaba en { $known ->
            [yes] { $tile }
           *[no] su salida de emperador
        }: { $who } no es coronada
       *[no] { $who } vuelve a tener emperador: su ventana de coronación se cierra
    }
narration-tiles-painted = { $who } pintó { $painted } { $painted ->
        [one] casilla
       *[other] casillas
    } (su color cubre { $total })

# Por qué acabó un combate ($pieces, $turns: los números del objetivo, o el máximo de piezas).
outcome-opposite-start = un emperador llegó a la salida opuesta
outcome-treasure = un emperador llegó al tesoro
outcome-took-stronger = tomó un emperador rival más fuerte que el suyo
outcome-emperor-strike = su emperador tomó al emperador opuesto
outcome-survived = conservó más de { $pieces } piezas durante { $turns } turnos
outcome-none-survived = ninguna dinastía conservó más de { $pieces } piezas durante { $turns } turnos
outcome-last-standing = todas las demás dinastías están derrotadas
outcome-all-fell = los últimos emperadores cayeron en el mismo turno
outcome-most-pieces = se alcanzó el límite de turnos con más piezas ({ $pieces })
outcome-tie = se alcanzó el límite de turnos con un empate a { $pieces } piezas
outcome-monuments = sus piezas ocupan todos los monumentos
outcome-domains = su color cubre al menos el { $pieces } % del campo de batalla
outcome-most-painted = se alcanzó el límite de turnos con más casillas pintadas ({ $pieces })
outcome-painted-tie = se alcanzó el límite de turnos con un empate a { $pieces } casillas pintadas

# Por qué una orden no es legal (OrderFault de engine/errors.py); $rule: la regla (R-O2).
illegal-order = { $reason } ({ $rule })
illegal-no-such-dynasty = no hay dinastía { $dynasty } en { $battlefield }
illegal-defeated = la dinastía { $dynasty } está derrotada y ya no da órdenes
illegal-not-playing = la dinastía { $dynasty } ya no juega
illegal-two-orders = la dinastía { $dynasty } dio dos órdenes; solo cuenta la última
illegal-combat-over = este combate ha terminado; no hay más órdenes
illegal-no-piece = no hay ninguna pieza en { $tile }
illegal-not-yours = la pieza de { $tile } no es tuya: es { $piece }
illegal-no-distance = un movimiento avanza al menos 1 casilla; para no mover ninguna pieza, pasa
illegal-not-straight = { $tile } no está en línea recta desde { $origin }: las piezas se mueven arriba, abajo, a la izquierda o a la derecha
illegal-too-far = { $piece ->
        [emperor] este emperador
       *[pawn] este peón
    } puede moverse como mucho { $experience } { $experience ->
        [one] casilla
       *[other] casillas
    }, y { $tile } está a { $distance } casillas
illegal-off-battlefield = el camino sale del campo de batalla en { $tile }: allí no hay casilla
illegal-path-blocked = el camino está bloqueado en { $tile }
illegal-own-piece-there = en { $tile } hay una pieza tuya
illegal-piece-ordered-twice = la pieza de { $tile } tiene dos órdenes; solo cuenta la última
illegal-does-not-fit = la orden { $order } no encaja con la posición; compruébala antes
illegal-mountain = { $tile } es una montaña: ninguna pieza la cruza ni se detiene en ella
illegal-not-deployed = el despliegue aún no ha terminado: las órdenes empiezan en el turno 1

# Por qué se rechaza un despliegue (DeploymentFault de engine/errors.py, R-V1c).
illegal-deployment-not-hidden = este combate tiene despliegue fijo: las piezas empiezan donde las dibuja el campo
illegal-deployment-deployment-over = el despliegue ha terminado: todas las piezas están en el tablero
illegal-deployment-no-such-dynasty = no hay dinastía { $dynasty } en este campo de batalla
illegal-deployment-defeated = la dinastía { $dynasty } está derrotada y no despliega nada
illegal-deployment-pawn-count = coloca exactamente { $has } { $has ->
        [one] peón
       *[other] peones
    }, no { $placed }
illegal-deployment-mountain-count = coloca exactamente { $has } { $has ->
        [one] montaña
       *[other] montañas
    }, no { $placed }
illegal-deployment-outside-home = { $tile } no es una de tus casillas de origen
illegal-deployment-two-on-one-tile = { $tile } aparece dos veces: una pieza o montaña por casilla
