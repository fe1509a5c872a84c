# Tableros para todos los ojos (issue #38, punto 8): el texto alternativo de cada dibujo de
# tablero (bot/views/alt_text.py) y las paletas de tablero (/palette).

alt-board = Tablero { $caption }.
alt-secret = No se muestran las piezas: cada despliegue es secreto hasta que se revelan todos.
alt-dynasty = { $name } ({ $letter }): { $pieces }.
alt-emperor = emperador en { $tile }
alt-emperor-counted = { $emperors ->
        [0] sin emperador
        [one] un emperador
       *[other] { $emperors } emperadores
    }
alt-pawns = { $pawns ->
        [0] sin peones
        [one] 1 peón en { $tiles }
       *[other] { $pawns } peones en { $tiles }
    }
alt-pawns-counted = { $pawns ->
        [0] sin peones
        [one] 1 peón
       *[other] { $pawns } peones
    }
alt-experienced = { $tile } (experiencia { $experience })
alt-painted = { $tiles ->
        [one] 1 casilla pintada
       *[other] { $tiles } casillas pintadas
    }
alt-defeated = derrotada
alt-grey = { $grey ->
        [one] 1 peón gris en { $tiles }
       *[other] { $grey } peones grises en { $tiles }
    }
alt-grey-counted = { $grey ->
        [one] 1 peón gris
       *[other] { $grey } peones grises
    }
alt-more = { $count } más
alt-happened = Qué pasó: { $events }.
alt-home-zone = Tu zona de casa: { $tiles }.
alt-mountains = { $mountains ->
        [one] 1 montaña en { $tiles }
       *[other] { $mountains } montañas en { $tiles }
    }
alt-replay = Repetición de { $caption }, { $turns ->
        [one] 1 turno
       *[other] { $turns } turnos
    }, un fotograma por turno.

palette-name = { $palette ->
        [colour-blind] para daltónicos
       *[standard] estándar
    }
palette-about = { $palette ->
        [colour-blind] Colores distinguibles con cada deficiencia común de la visión del color y, en las piezas de cada dinastía, un patrón además de su letra.
       *[standard] Colores de Okabe-Ito y, en cada pieza, la letra de su dinastía.
    }
palette-own-chosen = Tus tableros (tus avisos por MD, /orden, /torneo estado, /desplegar) se dibujan ahora con la paleta { $palette }. { $about }
palette-server-chosen = Los tableros publicados en los canales de este servidor se dibujan ahora con la paleta { $palette }. { $about }
palette-shown = Tus tableros: la paleta { $own }. Los canales de este servidor: la paleta { $server }. Elige con /paleta mia o, si gestionas el servidor, /paleta servidor.
palette-shown-dm = Tus tableros: la paleta { $own }. Elige con /paleta mia.
refusal-palette-choices = No existe esa paleta. Elige una de: { $choices }.
refusal-palette-server-needs-server = La paleta de un servidor se elige en ese servidor: usa este comando en uno de sus canales.
