# Las negativas de la capa de datos (data/errors.py): qué rechazó la base de datos y qué
# hacer. Empiezan en minúscula; el bot pone en mayúscula la frase que muestra.

refusal-not-found = no { $what ->
        [dynasty] hay ninguna dinastía
        [dynasty-named] hay ninguna dinastía llamada
        [emperor] hay ningún emperador
        [living-emperor-named] hay ningún emperador vivo llamado
        [tournament] hay ningún torneo
        [trade] hay ningún intercambio
        [asset] hay ningún bien
        [item] hay ningún objeto
        [seat] hay ningún asiento
        [filled-seat-numbered] hay ningún asiento ocupado con el número
        [player] hay ningún jugador
        [turn] hay ningún turno
        [resolved-turn] hay ningún turno resuelto
        [program] hay ningún programa
       *[other] existe { $what_text }
    } { $key }; revisa el nombre o el número y vuelve a intentarlo
refusal-amount-too-large = ninguna dinastía tiene nunca más de { NUMBER($limit, useGrouping: 1) } de un mismo bien u objeto; pide una cantidad menor
refusal-number-too-large = un número de esta petición es mayor que cualquiera de los que usa el juego; revísalo y vuelve a intentarlo
refusal-already-applied = esto ya estaba hecho: la misma petición llegó dos veces al juego y cuenta una sola vez, así que la segunda no cambió nada
refusal-name-taken = el nombre '{ $name }' ya lo tiene { $what ->
        [dynasty] otra dinastía
        [emperor] otro emperador
        [program] otro de tus programas
       *[other] otro ({ $what_text })
    }; elige otro nombre
refusal-emperor-busy = { $emperor } ya está { $role ->
        [bettor] apostando en
       *[other] jugando en
    } { $tournament ->
        [none] un torneo
       *[other] el torneo #{ $tournament }
    }; espera a que termine, sal de él o elige otro emperador
refusal-emperor-dead = { $emperor } ha muerto; elige un emperador vivo o crea uno nuevo
refusal-not-your-emperor = { $emperor } no pertenece a tu dinastía; elige uno de tus emperadores
refusal-insufficient-funds = hacen falta { $needed } × { $what }, pero la dinastía solo tiene { $available }; baja la cantidad o reúne más antes
refusal-not-enough-reputation = { $emperor } tiene { $reputation } de reputación, pero este torneo de honor apuesta { $stake }; elige un emperador con más reputación
refusal-tournament-closed = el torneo #{ $tournament } está { $status ->
        [open] abierto
        [running] en curso
        [finished] terminado
        [cancelled] cancelado
       *[other] { $status_text }
    }, así que ahora no puedes { $action ->
        [follow-it] seguirlo
        [hand-a-seat-over] ceder un asiento
        [start-it] empezarlo
        [finish-it] terminarlo
        [cancel-it] cancelarlo
        [leave] salir de él
        [forfeit] rendirte
        [join] unirte
        [order] dar órdenes
        [resolve-a-turn] resolver un turno
       *[other] hacer eso ({ $action_text })
    }; busca un torneo abierto
refusal-tournament-not-ready = al torneo #{ $tournament } aún le { $empty ->
        [one] queda { $empty } asiento vacío
       *[other] quedan { $empty } asientos vacíos
    }; espera a más jugadores o llénalos con jugadores del ordenador antes de empezar
refusal-seat-taken = el asiento { $seat } del torneo #{ $tournament } está ocupado; elige un asiento libre
refusal-tournament-full = el torneo #{ $tournament } no tiene asientos libres; busca otro con /torneo estado
refusal-already-seated = ya tienes un asiento en el torneo #{ $tournament }; un asiento por jugador
refusal-computers-not-allowed = el torneo #{ $tournament } no admite jugadores del ordenador; espera a que jugadores humanos llenen los asientos
refusal-programs-not-allowed = el torneo #{ $tournament } no está abierto a programas; pide a su anfitrión que lo abra a programas, o inscríbelo en un torneo que lo esté
refusal-program-revoked = el programa '{ $program }' fue revocado y ya no juega; registra un programa nuevo
refusal-program-hidden-setup = el torneo #{ $tournament } oculta su despliegue (cada jugador despliega en secreto antes del turno 1), y los programas aún no pueden desplegar por la API: sienta a '{ $program }' en un torneo con el despliegue fijo
refusal-programs-hidden-setup = un torneo abierto a programas no puede ocultar su despliegue (cada jugador despliega en secreto antes del turno 1): los programas aún no pueden desplegar por la API. Quita el despliegue oculto de las variantes, o no abras el torneo a programas
refusal-program-already-seated = el programa '{ $program }' ya tiene un asiento en el torneo #{ $tournament }; un asiento por programa
refusal-owner-already-seated = en un torneo serio un jugador y sus programas ocupan un solo asiento entre todos, y uno de ellos ya está sentado en el torneo #{ $tournament }; un torneo de entrenamiento permite ambos
refusal-too-many-programs = ya tienes { $limit } programas, el máximo permitido; revoca antes uno que ya no uses
refusal-seat-not-active = la dinastía { $seat } está { $status ->
        [defeated] derrotada
        [forfeited] retirada
       *[other] { $status_text }
    } y ya no da órdenes (R-C6)
refusal-order-for-closed-turn = el turno { $turn } está cerrado: { $open ->
        [0] no hay ningún turno abierto
       *[other] está abierto el turno { $open }
    }; mira el tablero otra vez y vuelve a dar tu orden
refusal-deployment-over = el torneo #{ $tournament } no está en despliegue: sus despliegues ya se revelaron (o no tiene despliegue oculto), así que un despliegue ya no cambia nada (R-V1c)
refusal-not-deployed = el torneo #{ $tournament } aún está en despliegue: las órdenes empiezan en el turno 1, cuando se revelen todos los despliegues (R-V1c)
refusal-turn-already-resolved = el turno { $turn } del torneo #{ $tournament } ya se resolvió; vuelve a cargar el torneo
refusal-orders-changed = las órdenes del turno { $turn } del torneo #{ $tournament } cambiaron mientras se resolvía; cárgalo otra vez y vuelve a resolverlo
refusal-betting-closed = las apuestas del torneo #{ $tournament } se cerraron al resolverse su primer turno (R-T6); apuesta en un torneo que aún no haya empezado
refusal-trade-closed = el intercambio #{ $trade } está { $status ->
        [accepted] aceptado
        [declined] rechazado
        [expired] caducado
        [cancelled] retirado
       *[other] { $status_text }
    }; haz una oferta nueva
refusal-not-your-trade = tu dinastía no puede { $action ->
        [accept] aceptar
        [decline] rechazar
        [cancel] retirar
       *[other] { $action_text }
    } el intercambio #{ $trade }: eso le toca a la otra parte
refusal-chest-out-of-range = un cofre de este torneo guarda entre { NUMBER($minimum, useGrouping: 1) } y { NUMBER($maximum, useGrouping: 1) } monedas de oro; deposita una cantidad en ese intervalo
refusal-chest-unaffordable = tu dinastía solo tiene { NUMBER($available, useGrouping: 1) } monedas de oro, menos que ese depósito; deposita como mucho lo que tiene
refusal-tournament-paused = el torneo #{ $tournament } está en pausa: su turno se resuelve cuando se reanude
refusal-turn-extended-twice = el turno { $turn } del torneo #{ $tournament } ya se prorrogó dos veces, el máximo permitido; el turno siguiente se podrá prorrogar de nuevo
refusal-extension-too-long = un turno nunca dura más del doble de su duración: el turno { $turn } del torneo #{ $tournament } { $minutes ->
        [0] ya no se puede prorrogar más
       *[other] se puede prorrogar como mucho { $minutes } minutos más
    }
refusal-seat-handed-over = el asiento { $seat } se cedió a un jugador del ordenador para el resto del combate; su jugador ya no le da órdenes
refusal-seat-still-played = el asiento { $seat } ha faltado a { $misses } { $misses ->
        [one] turno
       *[other] turnos
    } seguidos; solo su jugador puede cederlo, o el anfitrión cuando haya faltado a 2 seguidos
refusal-already-away = ya estás ausente; cambia cuándo vuelves con /ausencia hasta, o termina la ausencia con /ausencia fin
refusal-away-too-long = un jugador está ausente como mucho 14 días de cada 30 (contando las ausencias anteriores); elige una fecha más temprana
refusal-too-many-followers = el torneo #{ $tournament } ya tiene { $limit } seguidores, el máximo permitido; mira sus tableros en su canal
refusal-following-too-many = ya sigues { $limit } torneos, el máximo permitido; deja de seguir uno con /torneo dejar-de-seguir antes
refusal-too-many-announcements = has anunciado { $limit } torneos en la última hora, el máximo permitido; podrás anunciar otro <t:{ $again }:R>
refusal-channel-announcements = este canal ha oído { $limit } anuncios en la última hora, el máximo que admite; el siguiente podrá hacerse aquí <t:{ $again }:R>, o ya mismo en otro canal
refusal-too-many-computer-combats = ya organizas { $limit } combates en curso solo de jugadores del ordenador, el máximo a la vez; espera a que termine uno, o anula uno con /torneo cancelar
refusal-database-busy = el juego está ocupado con otro cambio; vuelve a intentarlo en un momento

# Nombres de lo que tiene una dinastía (códigos de data/assets.toml, y las llaves de la tienda).
asset-name = { $asset ->
        [copper-coin] moneda de cobre
        [silver-coin] moneda de plata
        [gold-coin] moneda de oro
        [emerald] esmeralda
        [ruby] rubí
        [diamond] diamante
        [silver-ingot] lingote de plata
        [gold-ingot] lingote de oro
       *[other] { $name }
    }
item-key = llave de { $battlefield }
refusal-training-leaves-no-trace = { $tournament ->
        [none] este es
       *[other] el torneo #{ $tournament } es
    } un torneo de entrenamiento: no admite { $what ->
        [bets] apuestas
        [prizes] premios
        [stakes] apuestas de riqueza
        [chests] cofres
       *[other] { $what_text }
    }, porque nada de un combate de entrenamiento queda registrado; elige un tipo serio

# Valores que el juego no puede guardar (data/errors.py InvalidValue, por tipo).
invalid-what = { $what ->
        [dynasty] dinastía
        [emperor] emperador
        [asset] bien
        [item] objeto
        [price] precio
        [prize] premio
        [stake] apuesta
        [program] programa
       *[other] { $what }
    }
refusal-invalid-too-many-channels = un servidor nombra como mucho { $limit } canales para torneos
refusal-invalid-computer-pace = un ritmo es de 0 a { $limit } segundos entre dos turnos
refusal-invalid-no-treasure-tile = { $battlefield } no tiene casilla de tesoro; elige otro objetivo u otro campo de batalla
refusal-invalid-stake-not-honour = solo un torneo de honor tiene apuesta, y es 0 o más
refusal-invalid-prize-takes-reputation = un premio da reputación; no puede quitarla
refusal-invalid-training-chests = un torneo de entrenamiento no tiene cofres (en un entrenamiento nada cambia de manos); elige un tipo serio o quita los cofres
refusal-invalid-chest-range = un cofre guarda al menos 1 moneda de oro, y su máximo es al menos su mínimo; revisa el rango del depósito del cofre
refusal-invalid-chest-reputation = la reputación del cofre generoso y del tacaño es 0 o más
refusal-invalid-seat-computer-already = el asiento { $seat } ya es de un jugador del ordenador
refusal-invalid-order-other-dynasty = el asiento { $seat } da órdenes a la dinastía { $seat }, no a la { $dynasty }
refusal-invalid-report-other-turn = este informe es del turno { $reported }, pero el torneo #{ $tournament } tiene abierto el turno { $turn }
refusal-invalid-no-seat-number = los asientos van de la a a la h; no hay asiento número { $wanted }
refusal-invalid-seat-out-of-range = { $battlefield } tiene asientos de la a a la { $last }; no hay asiento { $seat }
refusal-invalid-send-to-itself = una dinastía no puede enviarse riqueza a sí misma; elige otra dinastía
refusal-invalid-key-code = el código de una llave es { $prefix }<campo de batalla>, no { $code }
refusal-invalid-buy-none = compra al menos uno
refusal-invalid-trade-nothing = un intercambio mueve algo; ofrece o pide al menos una cosa
refusal-invalid-trade-with-itself = una dinastía no puede intercambiar consigo misma; elige otra dinastía
refusal-invalid-trade-expiry = un intercambio debe quedar abierto algún tiempo; da un vencimiento posterior
refusal-invalid-stake-not-positive = una apuesta es un número entero positivo de monedas
refusal-invalid-chest-not-positive = un cofre guarda un número entero positivo de monedas de oro
refusal-invalid-chest-not-player-seat = el asiento { $seat } no es un asiento que ocupe el emperador de tu dinastía
refusal-invalid-name-blank = el nombre de { invalid-what } no puede quedar vacío; escribe uno
refusal-invalid-name-too-long = un nombre de { invalid-what } tiene como mucho { $limit } caracteres; acórtalo
refusal-invalid-name-not-plain = un nombre de { invalid-what } debe ser texto simple; quita los caracteres especiales
refusal-invalid-amount-not-positive = las cantidades de { invalid-what } son números enteros positivos, no { $amount }
refusal-invalid-reputation-private = el historial de reputación es público (R-L2); registra los eventos de reputación como públicos
