# Los subcomandos de /torneo con cog propio: historial, pausar, reanudar, prorrogar, ceder,
# seguir y dejar de seguir; y /ausencia.

history-title = Torneos terminados{ $by_dynasty ->
        [yes] {" "}· jugados por { $dynasty }
       *[no] {""}
    }{ $on_battlefield ->
        [yes] {" "}· en { $battlefield }
       *[no] {""}
    }
history-entry = **#{ $tournament }** { $battlefield } · { kind-name }{ $ended ->
        [none] {""}
       *[other] {" "}· terminó { $ended }
    }{ $link ->
        [none] {""}
       *[other] {" "}· [ver]({ $link })
    }
    { $result }
history-empty = Aquí aún no ha terminado ningún torneo.
history-none-matches = Ninguno coincide.
history-footer = Página { $page } · mira uno con /torneo estado o /torneo repeticion

tournament-paused = ⏸ El anfitrión ha pausado el torneo #{ $tournament }: el turno { $turn } conserva los { $left } que le quedaban hasta que se reanude (por sí solo { $until } como muy tarde). Se pueden seguir dando o cambiando órdenes; no se resuelve nada hasta entonces.
tournament-resumed = ▶ El torneo #{ $tournament } se reanuda{ $by_itself ->
        [yes] {" "}(una pausa dura 7 días como mucho)
       *[no] {""}
    }: el turno { $turn } { clock-text }.
tournament-resumed-complete = ▶ El torneo #{ $tournament } se reanuda{ $by_itself ->
        [yes] {" "}(una pausa dura 7 días como mucho)
       *[no] {""}
    }: ya están todas las órdenes del turno { $turn }, así que se resuelve ahora.
tournament-extended = ⏩ El turno { $turn } del torneo #{ $tournament } se prorroga { $by } ({ $extensions } de las 2 prórrogas que puede tener un turno): { $paused ->
        [yes] le quedan { $remaining }, que empiezan a contar cuando se reanude el torneo
       *[no] ahora { clock-text }
    }.

computer-level = un jugador del ordenador { $level ->
        [easy] fácil
        [normal] normal
        [hard] difícil
       *[other] { $level }
    }
handover-own = 🤖 { $by } cede el asiento **{ $seat }** del torneo #{ $tournament } ({ $name }) a { computer-level } para el resto del combate.{ $counts ->
        [yes] {" "}Los resultados de { $name } siguen contando para su dinastía.
       *[no] {""}
    }
handover-by-host = 🤖 El jugador del asiento **{ $seat }** del torneo #{ $tournament } ({ $name }), { $player }, ha faltado a 2 turnos seguidos: { $by } cede el asiento a { computer-level } para el resto del combate.{ $counts ->
        [yes] {" "}Los resultados de { $name } siguen contando para su dinastía.
       *[no] {""}
    }
handover-program = 🤖 El programa del asiento **{ $seat }** del torneo #{ $tournament } ({ $name }) perdió 2 turnos seguidos: { $by } pasa el asiento a { computer-level } para el resto del combate.
handover-dm = Has faltado a 2 turnos seguidos en el torneo #{ $tournament }: su anfitrión ha cedido tu asiento a { computer-level } para el resto del combate. Tu emperador sigue luchando, y sus resultados siguen contando para tu dinastía.

follow-welcome = Sigues el torneo #{ $tournament } en { $battlefield }: cada tablero nuevo llega aquí tal como lo ve su canal. Deja de seguirlo con /torneo dejar-de-seguir en su servidor.
follow-done = Sigues el torneo #{ $tournament }: sus tableros llegan por MD (un torneo tiene como mucho { $followers } seguidores, y tú sigues como mucho { $followed }).
unfollow-done = Ya no sigues el torneo #{ $tournament }.
refusal-follow-closed-dms = No puedo enviarte mensajes directos (tu configuración de privacidad los bloquea), y los tableros llegan por MD: permite los MD de los miembros de este servidor y vuelve a seguirlo.

away-until = Estás ausente hasta { $date } ({ $relative }). Hasta entonces no recibes recordatorios, y los turnos que faltes no cuentan para los 3 turnos seguidos sin orden que derrotan a una dinastía (los que faltaste antes siguen contando). Los avisos de turno siguen llegando, así que puedes dar órdenes si quieres; nadie sabe que estás ausente. ¿Vuelves antes? /ausencia fin.
away-end = Bienvenido de nuevo: vuelven los recordatorios, y los turnos que faltes vuelven a contar para la derrota.

# Negativas de /torneo seguir, dejar-de-seguir, ceder e historial, y de /ausencia.
refusal-follow-playing = Juegas en el torneo #{ $tournament }: tus avisos de turno ya te traen cada tablero.
refusal-follow-already = Ya sigues el torneo #{ $tournament }: sus tableros llegan por MD. Deja de seguirlo con /torneo dejar-de-seguir.
refusal-unfollow-not-following = No sigues el torneo #{ $tournament }.

level-name = { $level ->
        [easy] fácil
        [normal] normal
        [hard] difícil
       *[other] { $level }
    }
seat-status-name = { $status ->
        [active] en juego
        [defeated] derrotado
        [forfeited] rendido
       *[other] { $status }
    }
refusal-handover-player-or-program = Nombra al jugador o al programa cuyo asiento cedes, no a los dos.
refusal-handover-no-program = Ese programa no tiene asiento en el torneo #{ $tournament }: elige uno de sus programas.
refusal-handover-not-seated = Ese jugador no tiene asiento en el torneo #{ $tournament }: elige un jugador sentado.
refusal-handover-played-by-computer = { $whose ->
        [own] Tu asiento
       *[other] El asiento { $seat }
    } del torneo #{ $tournament } ya lo juega la máquina ({ level-name }).
refusal-handover-seat-over = { $whose ->
        [own] Tu asiento
       *[other] El asiento { $seat }
    } del torneo #{ $tournament } está { seat-status-name }: no queda nada que ceder.
refusal-handover-too-soon = El asiento { $seat } ha faltado a { $misses } { $misses ->
        [one] turno seguido
       *[other] turnos seguidos
    }: el anfitrión solo cede un asiento cuando su jugador ha faltado a { $needed } turnos seguidos. Su jugador puede cederlo cuando quiera.
refusal-handover-player-away = El jugador del asiento { $seat } está ausente: sus turnos sin orden quedan excusados hasta que vuelva, así que el asiento sigue siendo suyo.
refusal-forfeit-handed-over = Tu asiento del torneo #{ $tournament } se cedió a la máquina para el resto del combate: sigue jugando por ti.
refusal-tournament-busy = El torneo está ocupado; vuelve a intentarlo en un momento.

refusal-history-no-server = El archivo pertenece a un servidor: pídelo en ese servidor.
refusal-history-no-battlefield = No hay ningún campo de batalla '{ $battlefield }'; elige uno de: { $battlefields }.
refusal-history-no-page = El archivo no tiene página { $page } que mostrar (las páginas llegan hasta { NUMBER($pages, useGrouping: 1) }). Vuelve a abrirlo con /torneo historial.

away-when-help = { $start ->
        [lower] escribe
       *[upper] Escribe
    } cuándo vuelves como una fecha, p. ej. 2026-12-24 (el día empieza a las 00:00 UTC), una fecha y hora, p. ej. 2026-12-24 18:00 (UTC), o un tiempo desde ahora, p. ej. 3d, 36h, 1w o 2d12h
refusal-away-no-date = No existe la fecha '{ $typed }'. { away-when-help }.
refusal-away-unreadable = { away-when-help }; como mucho { $days } días.
refusal-away-past = Ese momento ya ha pasado; { away-when-help }.
refusal-away-too-far = Puedes ausentarte como mucho { $days } días seguidos (solo durante ese tiempo se excusan tus turnos sin orden); elige un momento dentro de { $days } días.
refusal-away-beyond = Tu ausencia empezó { $since } y puede durar como mucho { $days } días: hasta { $until }. Elige ese momento o uno anterior.
refusal-away-not-away = No estás ausente: tus turnos sin orden cuentan y recibes recordatorios. Auséntate con /ausencia hasta.
