# Las palabras del dibujo del tablero (bot/render): la leyenda, la clave de las marcas del último
# turno, los títulos de los fotogramas de una repetición.

board-pieces = { $pieces } { $pieces ->
        [one] pieza
       *[other] piezas
    }
board-out = { $grey ->
        [0] fuera
       *[other] fuera, { $grey } en gris
    }
board-key-moved = movida
board-key-stopped = se quedó corta
board-key-taken = capturada
board-key-clash = choque
board-start = inicio
board-deploying = en despliegue
board-revealed = los despliegues, revelados
board-title-deployment = #{ $tournament } { $battlefield } - tu despliegue
board-turn = turno { $turn }
board-caption = { $title } - { $heading }
# Sección 10 de RULES.md: las marcas de un intento de toma y de una coronación, el terreno, la pintura.
board-key-failed = toma fallida
board-key-mutual = destrucción mutua
board-key-crowned = coronado
board-key-mountain = montaña
board-key-monument = monumento
board-key-fortress = fortaleza
board-key-home = zona de casa
board-key-painted = pintada
board-painted = { $tiles } { $tiles ->
        [one] casilla
       *[other] casillas
    }
board-mountains = { $mountains } { $mountains ->
        [one] montaña
       *[other] montañas
    }
# Un asiento que juega un regente (R-T11), en la leyenda antes de su recuento: corto, para que quepa en un tablero estrecho.
board-regent = (bot)
