# Los subcomandos de /torneo con cog propio: historial, pausar, reanudar, prorrogar, ceder,
# seguir y dejar de seguir; y /ausencia.

history-title = Torneos terminados{ $dynasty ->
        [none] {""}
       *[other] {" "}· jugados por { $dynasty }
    }{ $battlefield ->
        [none] {""}
       *[other] {" "}· en { $battlefield }
    }
history-entry = **#{ $tournament }** { $battlefield } · { kind-name }{ $ended ->
        [none] {""}
       *[other] {" "}· terminó { $ended }
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
handover-dm = Has faltado a 2 turnos seguidos en el torneo #{ $tournament }: su anfitrión ha cedido tu asiento a { computer-level } para el resto del combate. Tu emperador sigue luchando, y sus resultados siguen contando para tu dinastía.

follow-welcome = Sigues el torneo #{ $tournament } en { $battlefield }: cada tablero nuevo llega aquí tal como lo ve su canal. Deja de seguirlo con /torneo dejar-de-seguir en su servidor.
follow-done = Sigues el torneo #{ $tournament }: sus tableros llegan por MD (un torneo tiene como mucho { $followers } seguidores, y tú sigues como mucho { $followed }).
unfollow-done = Ya no sigues el torneo #{ $tournament }.
error-follow-closed-dms = No puedo enviarte mensajes directos (tu configuración de privacidad los bloquea), y los tableros llegan por MD: permite los MD de los miembros de este servidor y vuelve a seguirlo.

away-until = Estás ausente hasta { $date } ({ $relative }). Hasta entonces no recibes recordatorios, y los turnos que faltes no cuentan para los 3 turnos seguidos sin orden que derrotan a una dinastía (los que faltaste antes siguen contando). Los avisos de turno siguen llegando, así que puedes dar órdenes si quieres; nadie sabe que estás ausente. ¿Vuelves antes? /ausencia fin.
away-end = Bienvenido de nuevo: vuelven los recordatorios, y los turnos que faltes vuelven a contar para la derrota.
