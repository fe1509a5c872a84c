# Un torneo tal como lo viven sus jugadores (issue #15, fase B): el anuncio y sus reglas,
# /torneo crear, unirse, salir, empezar, estado, reglas, rendirse, cancelar, repeticion, y lo
# que el anunciador publica en el canal y manda por MD (los tableros, recordatorios, el final).

## El anuncio y sus reglas exactas

announce-heading = Torneo #{ $tournament } en { $battlefield }: { $seats } asientos, { kind-name } ({ kind-meaning }).
kind-meaning = { $kind ->
        [training] no se registra nada; los emperadores no pueden morir ni cambiar de dinastía
        [gift] los ganadores { $reputation ->
            [0] { $wealth ->
                [none] se llevan la gloria
               *[other] se reparten { $wealth }, que pone la dinastía del anfitrión (y que vuelve a ella si hay empate o se cancela)
            }
           *[other] ganan { $reputation } de reputación{ $wealth ->
                [none] {""}
               *[other] {" "}y se reparten { $wealth }, que pone la dinastía del anfitrión (y que vuelve a ella si hay empate o se cancela)
            }
        }; perder no cuesta nada
        [honour] cada emperador apuesta { $stake } de reputación; los ganadores se reparten lo que apostaron los perdedores{ $wealth ->
            [none] {""}
           *[other] ; además, cada dinastía pone { $wealth } en el bote al ocupar su asiento, y los ganadores se reparten el bote (que se devuelve si hay empate o se cancela)
        }
        [conquer] un emperador capturado en combate pasa a la dinastía que lo capturó, con su reputación
       *[death] un emperador capturado en combate muere; quien lo captura gana su reputación
    }
announce-turn-length = Cada turno dura { $length }.
announce-computers = Los asientos vacíos los ocupan { $level ->
        [easy] jugadores de la máquina fáciles (juegan cualquier movimiento legal)
        [normal] jugadores de la máquina normales (toman lo que pueden y protegen sus piezas, con un turno de previsión)
        [hard] jugadores de la máquina difíciles (buscan la mejor mezcla de órdenes propias frente a las órdenes probables de cada jugador)
       *[other] jugadores de la máquina ({ $level })
    } cuando el anfitrión da comienzo.
announce-programs = Abierto a los programas de los jugadores: sus dueños los inscriben con /{ $command }, y cada programa juega desde el ordenador de su dueño a través de la API del bot.
announce-chests = Cofres: al ocupar su asiento, cada jugador deposita en secreto de { NUMBER($minimum, useGrouping: 1) } a { NUMBER($maximum, useGrouping: 1) } monedas de oro en un cofre sobre la casilla de salida de su emperador. La primera pieza rival que acabe un turno allí lo captura (las piezas de una dinastía derrotada no capturan nada). Al final, el oro de cada cofre capturado va a la dinastía que lo capturó y los demás vuelven sin abrir; un cofre que captura un jugador de la máquina también vuelve.{ $reputation ->
        [0] {""}
       *[other] {" "}De los cofres capturados, el emperador que más depositó gana { $reputation } de reputación (generoso) y el que menos depositó pierde { $reputation } (tacaño), si no son el mismo.
    }
wealth-amount = { $amount } { $code }
list-and = { $first } y { $last }

rules-policy = Choques ({ $policy }): { $policy ->
        [rollback] las piezas que chocan en una casilla vuelven todas a donde empezaron
        [bounce] las piezas que chocan en una casilla retroceden cada una una casilla por su camino
        [rollback-and-stay] cuando las piezas chocan, la primera orden dada llega a la casilla; las demás vuelven a donde empezaron
       *[bounce-and-stay] cuando las piezas chocan, la primera orden dada llega a la casilla; las demás retroceden una casilla por su camino
    }.
rules-emperor-taken = Emperador capturado ({ $option }): { $option ->
        [convert] un emperador capturado sigue en el tablero como segundo emperador de quien lo captura
        [remove] un emperador capturado sale del tablero
        [replace] a un emperador capturado lo sustituye un peón de quien lo captura (experiencia 1)
       *[replace-veteran] a un emperador capturado lo sustituye un peón de quien lo captura, con la experiencia que el emperador tenía al empezar el turno
    }.
rules-emperor-takes = Un emperador captura un peón ({ $option }): { $option ->
        [as-pawn] como lo hace un peón: el peón pasa a la dinastía del emperador y el emperador rebota
        [push] el emperador acaba en la casilla del peón y el peón, ya suyo, es empujado una casilla más en la dirección de la carga; si esa casilla no existe, está ocupada, es el origen de una pieza que aún se mueve o la quiere otra pieza en esa ronda, el emperador rebota como lo hace un peón
        [precedence] como lo hace un peón, pero mientras el emperador rebota gana cada choque en su camino (las demás piezas se tratan como la política de choques trata a los perdedores; dos emperadores así en un mismo choque se anulan)
       *[costly] como lo hace un peón, y el peón más experto de la dinastía al empezar el turno (en empate, el primero en orden de lectura) acaba el turno con experiencia 1
    }.
rules-emperor-duel = Un emperador captura a un emperador ({ $option }): { $option ->
        [as-type] el tipo de torneo decide qué le pasa al emperador capturado
        [reputation] el emperador que captura se queda con la reputación del capturado (que se queda con 0), y el capturado sigue en su dinastía, vivo
        [combat] el emperador capturado juega para quien lo capturó solo el resto de este combate; después, ambas dinastías conservan a sus emperadores
       *[permanent] el emperador capturado pasa para siempre a la dinastía de quien lo capturó, con su reputación
    }; el entrenamiento no lo tiene en cuenta.
rules-setup = Despliegue ({ $option }): { $option ->
        [hidden] antes del turno 1 cada jugador coloca en secreto su emperador, sus peones y sus montañas en sus propias casillas de origen; todo se revela a la vez
       *[other] cada pieza empieza donde la dibuja el campo de batalla
    }.
rules-fortress = Fortaleza ({ $option }): { $option ->
        [on] una pieza de una dinastía en su propia salida de emperador (su fortaleza) solo puede capturarla un emperador; el intento de un peón falla y rebota
       *[other] una salida de emperador es una casilla como cualquier otra
    }.
rules-emperor-lost = Último emperador perdido ({ $option }): { $option ->
        [crown] una dinastía que pierde su último emperador tiene un turno para poner un peón en su salida de emperador: ese peón es coronado su nuevo emperador; si no, la dinastía queda derrotada
       *[other] una dinastía sin emperador en el tablero queda derrotada
    }.
rules-takes = Capturas ({ $option }): { $option ->
        [by-experience] una pieza solo captura a otra que no tenga más experiencia que ella (ambas como estaban al empezar el turno); contra una más fuerte el intento falla y rebota
       *[other] todo intento de captura captura
    }.
rules-equal-takes = Experiencia igual ({ $option }): { $option ->
        [mutual] entre piezas de igual experiencia ambas salen del tablero (destrucción mutua)
       *[other] entre piezas de igual experiencia el intento captura
    }.
rules-goal = Objetivo ({ $goal }): { $kind ->
        [last-emperor] gana la última dinastía con un emperador en el tablero
        [reach-opposite] gana el primer emperador que acabe un turno en la casilla de salida del emperador de enfrente
        [treasure] gana el primer emperador que acabe un turno en una casilla de tesoro
        [survive] tras { $turns } turnos, gana cada dinastía con más de { $pieces } { $pieces ->
            [one] pieza
           *[other] piezas
        }
        [take-stronger] gana la primera dinastía que capture a un emperador rival con más experiencia que su propio emperador
        [monuments] gana la primera dinastía cuyas piezas ocupen todos los monumentos al final de un turno, o la última dinastía sin derrotar
        [domains] cada casilla donde una pieza acaba un turno toma el color de su dinastía; gana la primera dinastía cuyo color cubra al menos el { $percent } % de las casillas, o la última dinastía sin derrotar
       *[emperor-strike] gana la primera dinastía cuyo emperador, con su propio movimiento, capture al emperador de enfrente (aquel cuya casilla de salida está más cerca del reflejo de la suya)
    }.
rules-turn-limit = Límite de turnos: { $limit } turnos; después gana la dinastía con { $goal ->
        [domains] más casillas pintadas
       *[other] más piezas
    }, y un empate es tablas.
rules-misses = Un jugador que falta a 3 turnos seguidos queda derrotado; pasar no es faltar.

## Las variantes de la sección 10 como las elige un anfitrión (bot/services/variants.py)

variant-short = { $word ->
        [hidden] despliegue secreto en tus casillas de origen, con montañas
        [fortress] solo un emperador captura una pieza en su fortaleza
        [crown] pierdes tu último emperador: corona un peón al turno siguiente
        [by-experience] solo captura una pieza igual o más fuerte
        [mutual] las iguales se destruyen mutuamente
       *[none] las reglas tal cual
    }
variant-choice = { $variants }{ $preset ->
        [cyvasse] {" "}(Cyvasse)
        [chess] {" "}(Ajedrez del Emperador)
       *[none] {""}
    } · { $explained }
refusal-unknown-variant = No hay ninguna variante '{ $word }': las variantes son { $words } (o none). Elige una de las combinaciones que ofrece la lista.
refusal-variant-mutual-alone = mutual (la experiencia igual destruye ambas piezas) necesita by-experience: solo las piezas que se comparan por experiencia pueden ser iguales (R-V0a). Añade by-experience, o quita mutual.
refusal-no-monument-tile = { $battlefield } no tiene monumentos, así que allí no se puede ganar el objetivo monumentos (R-V5b): elige un campo con monumentos, como monuments-4, u otro objetivo.
refusal-home-zone-too-small = En { $battlefield }, la zona de origen de la dinastía { $dynasty } tiene { $zone } casillas, menos que las { $needed } piezas y montañas que debe desplegar (R-V1b): elige otro campo, o quita hidden.
refusal-domains-percent-only = porcentaje_dominios es solo para el objetivo dominios: elige el objetivo dominios, o déjalo vacío.
refusal-domains-percent = El objetivo dominios necesita un porcentaje de 1 a 100, no { $percent } (R-V6c).

## El despliegue oculto en el canal (R-V1c)

deploy-line = Despliegue antes del turno { $turn }: { $ready } de { $active } desplegados{ $clock ->
        [none] {""}
       *[other] {" "}· { clock-text }
    }
deploy-field = Despliegue
deploy-explained = Cada jugador coloca su emperador, sus peones y sus montañas en sus propias casillas de origen, en secreto, con el aviso que recibe por MD (o /desplegar). Todo se revela a la vez cuando todos han desplegado o se acaba el tiempo; una dinastía que no ha desplegado conserva la salida que dibuja el campo, sin montañas.
reveal-title = Torneo #{ $tournament } en { $battlefield }: los despliegues, revelados
reveal-description = Todos los despliegues se revelan a la vez; el turno 1 está abierto.{ $count ->
        [0] {""}
       *[other] {" "}{ $fixed } { $count ->
            [one] conserva
           *[other] conservan
        } la salida que dibuja el campo.
    }
combat-seat-name = **{ $letter }** { $name }

## Cómo acaba un combate

effect-reason = { $reason ->
        [took] capturó { $pawns ->
            [0] { $emperors ->
                [one] 1 emperador
               *[other] { $emperors } emperadores
            }
            [one] 1 peón{ $emperors ->
                [0] {""}
                [one] {" "}y 1 emperador
               *[other] {" "}y { $emperors } emperadores
            }
           *[other] { $pawns } peones{ $emperors ->
                [0] {""}
                [one] {" "}y 1 emperador
               *[other] {" "}y { $emperors } emperadores
            }
        } en el torneo #{ $tournament } en { $battlefield }
        [won] ganó el torneo #{ $tournament } en { $battlefield }
        [prize] premio del torneo #{ $tournament } en { $battlefield }
        [stake-lost] perdió lo apostado en el torneo #{ $tournament } en { $battlefield }
        [stakes-won] ganó lo apostado en el torneo #{ $tournament } en { $battlefield }
        [killed] mató a un emperador en el torneo #{ $tournament } en { $battlefield }
        [taken] capturado en el torneo #{ $tournament } en { $battlefield }
        [destroyed] destruido junto con su atacante u objetivo (igual experiencia) en el torneo #{ $tournament } en { $battlefield }
        [conquered] conquistado en el torneo #{ $tournament } en { $battlefield }
        [duel-won] se quedó con la reputación del emperador que capturó en el torneo #{ $tournament } en { $battlefield }
        [duel-lost] perdió su reputación ante el emperador que lo capturó en el torneo #{ $tournament } en { $battlefield }
        [generous] el más generoso de los cofres capturados en el torneo #{ $tournament } en { $battlefield }
        [stingy] el más tacaño de los cofres capturados en el torneo #{ $tournament } en { $battlefield }
       *[duel-joined] capturado por un emperador en el torneo #{ $tournament } en { $battlefield }, pasa a su dinastía para siempre
    }
effect-reputation = { $name } { $delta } de reputación: { $reason }
effect-conquest = { $name } pasa a la dinastía de { $taker }: { $reason }
effect-death = { $name } muere: { $reason }
emperor-number = emperador { $emperor }
payout = { $purpose ->
        [prize] { $reason ->
            [share] { $dynasty } recibe { $amounts }: su parte del premio
           *[return] { $dynasty } recupera su premio: { $amounts }
        }
       *[stake] { $reason ->
            [share] { $dynasty } recibe { $amounts }: su parte de las apuestas de riqueza
           *[return] { $dynasty } recupera su apuesta de riqueza: { $amounts }
        }
    }
chest-captured = { $captor } capturó el cofre de { $owner }: { NUMBER($amount, useGrouping: 1) } { $amount ->
        [one] moneda
       *[other] monedas
    } de oro
chest-unopened = el cofre de { $owner } vuelve a casa sin abrir

## El canal, los seguidores y los jugadores, sin que pregunten

combat-begun-title = Ha empezado el torneo #{ $tournament } en { $battlefield }
combat-seat = **{ $letter }** · { $name }{ $owner }
turn-title = Torneo #{ $tournament } · turno { $turn } de { $limit }
turn-quiet = Ninguna pieza se movió de su casilla.
end-title = Torneo #{ $tournament } · el final
end-forfeit = El último rival se rindió.
end-over = El torneo #{ $tournament } ha terminado: { $result }
field-result = Resultado
field-changes = Reputación y fortunas
field-chests = Cofres
ready-line = El turno { $turn } está abierto: { $ready } de { $active } listos{ $clock ->
        [none] {""}
       *[other] {" "}· { clock-text }
    }
ready-line-again = Torneo #{ $tournament }: { $line }
turn-heading = **Torneo #{ $tournament }** en { $battlefield } · turno { $turn } de { $limit }{ $clock ->
        [none] {""}
       *[other] {" "}· { clock-text }
    }
    Da tu orden con /orden.
follower-heading = Torneo #{ $tournament } en { $battlefield }, que sigues{ $content ->
        [none] {""}
       *[other] :{"\u000A"}{ $content }
    }
reminder-dm = El turno { $turn } del torneo #{ $tournament } acaba { $deadline } y aún no has dado tu orden. Usa el aviso de turno de arriba, o /orden.
reminder-private = Recordatorio: el turno { $turn } del torneo #{ $tournament } acaba { $deadline } y aún no has dado tu orden. Usa /orden.
host-channel-refuses = No puedo publicar el tablero del torneo #{ $tournament } en { $channel }: Discord no me deja. Dame { $permissions } en ese canal (sus ajustes → Permisos), o pídeselo a alguien con Gestionar canales. Mientras tanto el combate sigue: los jugadores reciben sus avisos de turno por MD, y /torneo estado muestra el tablero.
permission-name = { $permission ->
        [view_channel] Ver canal
        [send_messages] Enviar mensajes
        [send_messages_in_threads] Enviar mensajes en hilos
        [embed_links] Insertar enlaces
        [attach_files] Adjuntar archivos
       *[other] { $name }
    }

## /torneo crear, unirse, salir, empezar, estado, reglas, rendirse, cancelar, repeticion

tournament-title = Torneo #{ $tournament } en { $battlefield }
tournament-kind-status = { kind-name } · { tournament-status-name }
announce-footer = Únete con /torneo unirse torneo:{ $tournament }; el anfitrión lo empieza con /torneo empezar.
announce-post = { $ping }{ $host } anuncia un torneo.
seat-taken = { $player } ocupa el asiento **{ $seat }** del torneo #{ $tournament } { $how ->
        [casual] como jugador informal
        [chest] con { $emperor }; su cofre está lleno, con una cantidad secreta
       *[emperor] con { $emperor }
    }.{ $started ->
        [yes] {" "}Todos los asientos están ocupados: ¡empieza el combate! Los avisos de turno llegan por MD.
       *[no] {""}
    }
seat-taken-program = { $player } { $by_owner ->
        [yes] inscribe su programa
       *[no] sienta al programa
    } { $program } en el asiento **{ $seat }** del torneo #{ $tournament }.{ $started ->
        [yes] {" "}Todos los asientos están ocupados: ¡empieza el combate! Los avisos de turno llegan por MD, y los programas se enteran del turno por la API del bot.
       *[no] {""}
    }
seat-left = { $player } sale del torneo #{ $tournament }.
tournament-begins = Empieza el torneo #{ $tournament }: el turno 1 está abierto{ $deadline ->
        [none] {""}
       *[other] {" "}hasta { $deadline }
    }. Los avisos de turno llegan por MD; /orden también sirve.
tournament-cancelled = { $host } cancela el torneo #{ $tournament }: no se registra nada, y vuelve todo lo asiento en juego: lo apostado por los jugadores, los premios, los cofres y las apuestas.
status-none-open = Aquí no hay ningún torneo abierto: anuncia uno con /torneo crear.
status-history-hint = Los torneos terminados están en /torneo historial.
seats-forgotten = Asientos { $letters }: quién jugó un combate de entrenamiento no se guarda una vez acabado.
seat-line = **{ $letter }** { $name }{ $owner }{ $status ->
        [none] {""}
        [active] {" "}· en juego
        [defeated] {" "}· derrotado
       *[forfeited] {" "}· rendido
    }{ $computer ->
        [none] {""}
        [easy] {" "}· lo juega la máquina (fácil)
        [normal] {" "}· lo juega la máquina (normal)
        [hard] {" "}· lo juega la máquina (difícil)
       *[other] {" "}· lo juega la máquina ({ $computer })
    }
seats-free = { $free ->
        [one] 1 asiento libre
       *[other] { $free } asientos libres
    }
field-seats = Asientos
field-turn = Turno
field-bets = Apuestas, de todos los apostantes juntos
field-your-chest = Tu cofre
rules-title = Reglas del torneo #{ $tournament }
forfeit-ask = ¿Rendirte en el torneo #{ $tournament }? Tu dinastía queda derrotada en el acto.
forfeit-button = Rendirse
forfeit-done = Te has rendido en el torneo #{ $tournament }.
forfeit-told = { $player } se rinde en el torneo #{ $tournament }: su dinastía queda derrotada.
replay-done = Torneo #{ $tournament }: { $turns } { $turns ->
        [one] turno
       *[other] turnos
    }.
refusal-forfeit-damaged = Este botón está dañado o caducado; vuelve a pedirlo con /torneo rendirse.
refusal-forfeit-not-yours = Solo el jugador que lo pidió puede confirmar esta rendición.
refusal-channel-refuses = No puedo publicar los tableros del torneo en este canal. Dame { $permissions } aquí (los ajustes del canal → Permisos), o anuncia el torneo en un canal donde pueda publicar.
refusal-server-chose = { $refusal } (Los valores por defecto de este servidor eligieron { $choices }; da tú esas opciones para elegir otra cosa.)
refusal-chest-options = cofre_minimo, cofre_maximo y cofre_reputacion son para la variante de cofres: añade cofres:True, o quítalas.
refusal-chest-range = Un cofre no puede guardar como mínimo { NUMBER($minimum, useGrouping: 1) } y como máximo { NUMBER($maximum, useGrouping: 1) } monedas de oro: haz que cofre_maximo sea al menos cofre_minimo.
refusal-not-wealth = La opción { $option } admite monedas, gemas o metales (como "100 gold"), no objetos como llaves.
refusal-survive-turns = El objetivo de supervivencia necesita turnos_supervivencia (y piezas_supervivencia, 0 por defecto).
refusal-survive-only = piezas_supervivencia y turnos_supervivencia son solo para el objetivo de supervivencia.
refusal-join-how = Elige uno de tus emperadores (emperador:), o juega de forma informal con informal:True (solo torneos de entrenamiento).

## Lo que rechaza el servicio de torneos

refusal-not-seated = No tienes asiento en el torneo #{ $tournament }: únete con /torneo unirse.
refusal-other-server = El torneo #{ $tournament } es de otro servidor: solo allí se puede unir uno a él, seguirlo y gestionarlo. Mira los torneos de este servidor con /torneo estado.
refusal-host-only = Solo el anfitrión del torneo #{ $tournament } o un miembro con Gestionar servidor puede { $action ->
        [start] empezarlo
        [cancel] cancelarlo
        [pause] pausarlo
        [resume] reanudarlo
        [extend] prorrogarlo
        [seat-a-program] sentar un programa en él
       *[hand-over] pasar ese asiento a la máquina
    }.
refusal-no-turn = El torneo #{ $tournament } { $status ->
        [open] aún no ha empezado
       *[other] está { tournament-status-name }
    }: no hay turno para el que dar órdenes.
refusal-turn-resolved = Esa orden era para el turno { $turn }, que ya se ha resuelto; el torneo #{ $tournament } va por el turno { $current }. Mira el tablero nuevo y vuelve a dar tu orden.
refusal-no-computer-level = Aquí no hay nivel de máquina '{ $level }'; elige uno de: { $levels }.
refusal-training-terms = Un torneo de entrenamiento no tiene premio ni apuesta: no se registra nada de él (R-T4). Quita las opciones de premio y de apuesta, o elige otro tipo.
refusal-prize-for-gift = Solo un torneo de regalo tiene premio; quita las opciones de premio.
refusal-stake-for-honour = Solo un torneo de honor tiene apuestas; quita las opciones de apuesta.
refusal-prize-needs-dynasty = Un premio en riqueza lo paga tu dinastía, y aún no tienes ninguna: funda una con /dinastia fundar (o crea un emperador), o anuncia el premio sin riqueza.
refusal-prize-unpaid = Tu dinastía tiene que poner el premio ahora, y necesita { $needed } × { $what } pero solo tiene { $available }: anuncia un premio menor, o reúne más antes (/intercambio).
refusal-stake-unpaid = En el torneo #{ $tournament } cada dinastía apuesta { $needed } × { $what } al ocupar su asiento, y la tuya solo tiene { $available }: reúne más antes (/intercambio), o únete a otro.
refusal-no-battlefield = No hay ningún campo '{ $battlefield }'; elige uno de: { $battlefields }.
refusal-turn-length = Un turno dura entre 1 minuto y 7 días; elige otra duración.
refusal-battlefield-locked = El campo { $battlefield } está cerrado: para organizarlo tu dinastía necesita su llave ({ $key }). Compra una con /tienda, o consíguela con /intercambio.
refusal-casual-training-only = El torneo #{ $tournament } es de { kind-name }: los jugadores informales solo se unen a torneos de entrenamiento. Crea un emperador con /emperador crear para jugarlo.
refusal-seats-closed = { $status ->
        [running] El torneo #{ $tournament } ya ha empezado (se ocupó su último asiento, o su anfitrión lo empezó), así que sus asientos están cerrados.
       *[other] El torneo #{ $tournament } está { tournament-status-name }, así que sus asientos están cerrados.
    } Busca un torneo abierto con /torneo estado.
refusal-deposit-unwanted = El torneo #{ $tournament } no tiene cofres: únete sin depósito.
refusal-deposit-needed = El torneo #{ $tournament } se juega con cofres: tu asiento necesita un depósito secreto de { NUMBER($minimum, useGrouping: 1) } a { NUMBER($maximum, useGrouping: 1) } monedas de oro. Únete con /torneo unirse y escribe la cantidad en el formulario que se abre.
refusal-not-startable = { $status ->
        [running] El torneo #{ $tournament } ya ha empezado: su último asiento libre se ocupó (o alguien lo empezó) justo antes de que lo pidieras, así que no hay nada que empezar. Sus avisos de turno van de camino por MD.
       *[other] El torneo #{ $tournament } está { tournament-status-name }: no hay nada que empezar.
    }
refusal-chests-too-poor = El torneo #{ $tournament } se juega con cofres de { NUMBER($minimum, useGrouping: 1) } a { NUMBER($maximum, useGrouping: 1) } monedas de oro, pero tu dinastía solo tiene { NUMBER($gold, useGrouping: 1) }: reúne al menos { NUMBER($minimum, useGrouping: 1) } monedas de oro (mira /riqueza, /intercambio) antes de unirte.
refusal-no-chests = El torneo #{ $tournament } no tiene cofres: únete con /torneo unirse.
refusal-emperor-engaged = { $emperor } ya está { $role ->
        [bettor] apostando en
       *[other] jugando en
    } el torneo #{ $tournament }; espera a que termine, o elige otro emperador.
refusal-emperor-gone = Ese emperador ya no es uno de los emperadores vivos de tu dinastía: mira /emperador lista y vuelve a unirte.
refusal-seat-out = Tu dinastía está { $status ->
        [defeated] derrotada
       *[forfeited] rendida
    } en el torneo #{ $tournament }: ya no da órdenes.
refusal-own-pieces = Solo puedes dar órdenes a tus propias piezas.
refusal-not-a-tile = No hay ninguna casilla '{ $tile }' en { $battlefield }: nombra las casillas como C4 (una letra de columna y una fila).
refusal-seat-handed = Tu asiento en el torneo #{ $tournament } pasó a un jugador de la máquina para el resto del combate: ahora da él las órdenes.
refusal-nothing-to-replay = El torneo #{ $tournament } no ha empezado: aún no hay nada que repetir.
refusal-paused-already = El torneo #{ $tournament } ya está en pausa; /torneo reanudar vuelve a poner en marcha su reloj (se reanuda solo 7 días después de empezar la pausa).
refusal-pause-too-late = El turno { $turn } del torneo #{ $tournament } ha terminado: se resuelve ahora. Pausa el turno siguiente si el combate necesita un descanso.
refusal-not-paused = El torneo #{ $tournament } no está en pausa: su turno { $turn } está en marcha. Páusalo con /torneo pausar.
refusal-extend-positive = Prorroga un turno un tiempo positivo, como 1 hora.
refusal-extended-enough = El turno { $turn } del torneo #{ $tournament } ya se prorrogó { $times } veces, lo máximo para un turno; el turno siguiente se puede prorrogar de nuevo.
refusal-extra-time-spent = El turno { $turn } del torneo #{ $tournament } ya ha tenido todo el tiempo extra que puede tener un turno: un turno nunca dura más del doble de su duración.
refusal-extend-at-most = Un turno nunca dura más del doble de su duración ({ $longest } aquí): el turno { $turn } se puede prorrogar como mucho { $left } más.
refusal-extend-resolved = El turno { $turn } del torneo #{ $tournament } se acaba de resolver; prorroga el turno nuevo si necesita más tiempo.
refusal-no-clock = { $status ->
        [open] El torneo #{ $tournament } no ha empezado: sus turnos aún no tienen reloj.
       *[other] El torneo #{ $tournament } está { tournament-status-name }: no tiene turno que cronometrar.
    }
board-end = final
text-as-is = { $text }
refusal-deposit-format = Escribe el depósito como un número entero de monedas de oro de { NUMBER($minimum, useGrouping: 1) } a { NUMBER($maximum, useGrouping: 1) }, como { NUMBER($minimum, useGrouping: 1) }. No se ha depositado nada ni se ha ocupado ningún asiento: vuelve a usar /torneo unirse.

# El formulario del depósito de un torneo con cofres (cogs/chests.py), y el depósito tal como solo lo lee su jugador.
chest-form-title = Tu cofre en el torneo #{ $tournament }
chest-form-label = Monedas de oro, de { NUMBER($minimum, useGrouping: 1) } a { NUMBER($maximum, useGrouping: 1) }
chest-form-placeholder = Secreto hasta que lo capturen. Tu dinastía tiene { NUMBER($gold, useGrouping: 1) } monedas de oro.
chest-deposited = Tu cofre en el torneo #{ $tournament } guarda { NUMBER($amount, useGrouping: 1) } { $amount ->
        [one] moneda
       *[other] monedas
    } de oro, sacadas de tu dinastía y en depósito. Nadie más lo sabe salvo que un rival capture tu cofre; /torneo estado te lo muestra.
chest-own = { NUMBER($amount, useGrouping: 1) } { $amount ->
        [one] moneda
       *[other] monedas
    } de oro (solo tú lo ves)
