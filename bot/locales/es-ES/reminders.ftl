# Los recordatorios de cada jugador (issue #38 punto 4): /recordatorios (cogs/reminders.py,
# bot/views/reminders.py) y el resumen diario.

reminders-settings = **Tus recordatorios**
    • Recordatorios por MD: { $dms ->
        [yes] sí
       *[no] no (los avisos de turno siguen llegando)
    }
    • Cuándo: { $before ->
        [default] a mitad de turno, y luego cuando queda una décima parte
       *[other] { $before } antes de cada plazo
    }
    • Zona horaria: { $zone } (allí son las { $clock })
    • Horas de silencio: { $quiet ->
        [none] ninguna
       *[other] { $quiet } — un recordatorio que toque entonces llega cuando terminan, o un minuto antes de que empiecen si el plazo cae dentro de ellas
    }
    • Resumen diario: { $digest ->
        [none] ninguno
       *[other] a las { $digest }, un MD con todos los combates que te esperan, en lugar de un recordatorio por cada uno
    }
reminders-button = { $action ->
        [on] Activar recordatorios
        [off] Desactivar recordatorios
        [nodigest] Sin resumen diario
       *[noquiet] Sin horas de silencio
    }
digest-dm = 📜 Tu resumen diario: { $count ->
        [one] 1 combate espera
       *[other] { $count } combates esperan
    } tu orden.
    { $lines }
digest-line = • Torneo #{ $tournament }, turno { $turn }: { $paused ->
        [yes] en pausa
       *[no] plazo { $deadline }
    }

refusal-reminders-clock-unreadable = '{ $typed }' no es una hora del día: escríbela como 22:00 o 7:30 (reloj de 24 horas, tu zona horaria).
refusal-reminders-before-unknown = Elige de la lista cuánto antes del plazo.
refusal-reminders-zone-unknown = No existe la zona horaria '{ $zone }': elige una de la lista, como Europe/Madrid o America/Mexico_City.
refusal-reminders-quiet-both = Da el principio y el final de tus horas de silencio, o ninguno para no tener.
refusal-reminders-quiet-empty = Tus horas de silencio deben empezar y terminar a horas distintas.
refusal-reminders-digest-quiet = Un resumen a las { $at } caería en tus horas de silencio ({ $start }–{ $end }) y nunca llegaría: elige otra hora, u otras horas de silencio.
