# Series de combates (issue #38, punto 9): /serie y lo que se cuenta en su canal
# (bot/views/series.py sobre bot/services/series/). $enter, $start, $status: un comando como lo
# escribe el lector (bot.i18n.Named). $result: a, b (el asiento que ganó), draw o playing.

## Lo que se muestra

series-format = { $format ->
        [round-robin] todos contra todos
        [swiss] suiza
       *[elimination] de eliminación directa
    }
series-title = Serie #{ $number }: { $name }
series-announced = Una serie { $format } de duelos en **{ $battlefield }** ({ $kind }, { $hours } h por turno). Inscríbete con uno de tus emperadores: /{ $enter }. El anfitrión la empieza con /{ $start }; luego el bot empareja cada ronda y crea aquí sus duelos. Una victoria vale { $win } puntos, un empate { $draw }, un descanso { $win }.
series-state = { $status ->
        [open] Abierta a inscripciones ({ $entrants } por ahora): /{ $enter }.
        [running] Ronda { $round } de { $rounds } · { $entrants } participantes.
       *[finished] Terminada tras { $rounds } rondas · { $entrants } participantes.
    } Serie { $format } en { $battlefield }.
series-round = Ronda { $round } de { $rounds }
series-round-begun = **Empieza la ronda { $round } de { $rounds }**; abajo están los duelos, cada uno en su propio torneo.
series-table = Tabla
series-table-line = { $place }. **{ $player }** · { $points } pts · { $wins }G { $draws }E { $losses }P{ $byes ->
        [0] {""}
       *[other] {" "}· { $byes } descanso
    }{ $tiebreak ->
        [0] {""}
       *[other] {" "}· SB { $tiebreak }
    }{ $out ->
        [true] {" "}· eliminado
       *[other] {""}
    }
series-no-entrants = Todavía no se ha inscrito nadie.
series-tiebreaks = Puntos: victoria { $win }, empate { $draw }, descanso { $win }. Desempates: Sonneborn-Berger (SB), luego victorias, luego quien se inscribió antes. Eliminación directa: primero hasta dónde llegó cada uno.
series-bye = **{ $player }** descansa esta ronda (un descanso cuenta como victoria)
series-walkover = **{ $a }** contra **{ $b }**: { $result ->
        [a] gana { $a }, el emperador de { $b } no pudo sentarse
        [b] gana { $b }, el emperador de { $a } no pudo sentarse
       *[draw] ningún emperador pudo sentarse: empate
    }
series-duel = **{ $a }** contra **{ $b }** · torneo #{ $tournament } · { $result ->
        [a] ganó { $a }
        [b] ganó { $b }
        [draw] empate
       *[playing] en juego
    }
series-final = 🏆 La serie ha terminado tras { $rounds } rondas: la gana **{ $champion }**. La tabla final:
series-list-title = Series de este servidor
series-list-line = #{ $number } **{ $name }** · { $format } · { $status ->
        [open] abierta a inscripciones
        [running] ronda { $round } de { $rounds }
       *[finished] terminada
    }
series-list-empty = Aquí todavía no hay series. Un anfitrión anuncia una con /serie crear; mira una con /{ $status }.
series-entered = Te has inscrito en la serie #{ $number } ({ $name }) con **{ $emperor }**, cabeza de serie { $seed }. Sus duelos se crearán en este canal, ronda a ronda.
series-left = Has salido de la serie #{ $number } ({ $name }).
series-started = El anfitrión ha empezado la serie #{ $number } ({ $name }).

## Rechazos

refusal-series-in-a-server = Una serie se anuncia en un canal de un servidor, donde se jugarán sus duelos: usa /serie crear allí.
refusal-series-duels-only = Una serie es una sucesión de duelos, y { $battlefield } tiene más de dos asientos: elige uno de { $battlefields }.
refusal-series-name-empty = Ponle un nombre a la serie.
refusal-series-unknown = Aquí no hay ninguna serie #{ $number }; /serie lista muestra las series de este servidor.
refusal-series-other-server = La serie #{ $number } es de otro servidor: solo se juega y se inscribe allí.
refusal-series-not-open = La serie #{ $number } ({ $series }) ya ha empezado: las inscripciones están cerradas y los participantes juegan hasta el final.
refusal-series-full = La serie #{ $number } ({ $series }) tiene 32 participantes, los más que admite una serie.
refusal-series-entered = Ya te has inscrito en la serie #{ $number } ({ $series }).
refusal-series-emperor-entered = Ese emperador ya juega en la serie #{ $number } ({ $series }).
refusal-series-not-entered = No te has inscrito en la serie #{ $number } ({ $series }).
refusal-series-host-only = Solo el anfitrión de la serie #{ $number } ({ $series }), o un miembro con Gestionar servidor, puede empezarla.
refusal-series-too-few = La serie #{ $number } ({ $series }) necesita al menos dos participantes para empezar.

## /torneo historial: las series terminadas (bot/views/history.py)

history-series = Series terminadas
history-series-entry = #{ $number } **{ $name }** · { series-format } · { $entrants } participantes · la ganó **{ $champion }** (/serie estado)
