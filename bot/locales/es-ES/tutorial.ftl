# /tutorial (issue #38, punto 7): un duelo guiado corto en lesson-2 contra un ordenador fácil,
# una regla por turno (bot/views/tutorial.py). $mine y $theirs son las dos órdenes del turno.

tutorial-you = tú
tutorial-computer = ordenador fácil
tutorial-title = Tutorial · turno { $turn } de { $turns }
tutorial-title-end = Tutorial · el final
tutorial-board = tutorial - turno { $turn }
tutorial-happened = Qué pasó
tutorial-quiet = Nada se movió.
tutorial-move = { $origin } → { $destination }
tutorial-pass-said = un pase
tutorial-piece = { $kind ->
        [emperor] emperador
       *[pawn] peón
    } en { $tile } (experiencia { $experience })
tutorial-choose-piece = La pieza que mueves
tutorial-choose-destination = Adónde va
tutorial-pass = Pasar
tutorial-not-ended = El duelo termina aquí, sin decidir.

tutorial-lesson-orders = **Órdenes.** Juegas la dinastía a, arriba; el ordenador fácil juega la b. Cada turno das una orden secreta: una de tus piezas y una casilla en línea recta, arriba, abajo, a la izquierda o a la derecha, tan lejos como permita su experiencia (todas empiezan con 1) — o pasas y todas tus piezas se quedan quietas. Elige abajo una pieza y luego adónde va.
tutorial-lesson-simultaneity = **Simultaneidad.** Ordenaste { $mine }; en el mismo momento el ordenador ordenó { $theirs }, sin ver la tuya. Las órdenes son secretas hasta que se resuelve el turno, y entonces todas se resuelven a la vez: nadie mueve primero. Da tu orden para el turno 2.
tutorial-lesson-bounces = **Rebotes.** { $collided ->
        [none] Ninguna pieza chocó este turno. Si dos piezas hubieran ido a la misma casilla, las dos habrían vuelto a su origen (la regla por defecto; un anfitrión puede elegir que se queden una casilla antes).
       *[other] Hubo un choque en { $collided }: las piezas volvieron a su origen (la regla por defecto; un anfitrión puede elegir que se queden una casilla antes).
    } Una pieza que captura nunca entra en la casilla de su objetivo: rebota hacia atrás por su camino{ $took ->
        [yes] , como hizo este turno
       *[no] {""}
    }. Da tu orden para el turno 3.
tutorial-lesson-takes = **Capturas que convierten.** { $takes ->
        [0] No hubo captura este turno. Ordena a una pieza ir contra un peón enemigo que se quede quieto: el peón no se retira, se une a tu dinastía donde está.
       *[other] Este turno hubo una captura: mira abajo qué pasó. El peón capturado no se retiró, se unió a la dinastía de quien lo capturó donde está.
    } Quien captura y quien es capturado vuelven a experiencia 1. Da tu orden para el turno 4.
tutorial-lesson-experience = **Experiencia.** Tus piezas ahora: { $pieces }. Cada peón al que ordenas mover gana 1 de experiencia al final del turno, pase lo que pase con su movimiento, y luego puede mover esa cantidad de casillas; tu emperador tiene la experiencia de tu mejor peón. Da tu última orden.
tutorial-lesson-goal = **El objetivo.** { $ended } En un torneo gana la última dinastía con un emperador en el tablero (el objetivo por defecto); al llegar al límite de turnos, la que tenga más piezas. Los anfitriones pueden anunciar otros objetivos: llegar a la casilla del emperador opuesto, un tesoro… Eso es todo el juego. ¿Listo para un combate de verdad? Únete a uno con /torneo unirse, o anuncia uno con /torneo crear.

refusal-tutorial-none = No tienes ningún tutorial en curso: empieza uno con /tutorial.
refusal-tutorial-over = Este tutorial ha terminado: empieza otro con /tutorial, o únete a un combate de verdad con /torneo unirse.
refusal-tutorial-stale = Este aviso es de un turno anterior: usa el último, que espera tu orden para el turno { $turn }.
