# /dinastia, /emperador y /clasificacion.

dynasty-house-of = Casa de { $name }
dynasty-house-number = Casa { $number }
dynasty-founded = Tu dinastía es **{ $name }**. Crea un emperador con /emperador crear.
dynasty-summary = { $reputation } de reputación · { $rank ->
        [0] sin puesto en la clasificación
       *[other] puesto { $rank }
    }
dynasty-living-emperors = Emperadores vivos
dynasty-no-emperors = Ninguno: crea uno con /emperador crear.
log-title = Crónica de { $name }
log-empty = Aún no hay nada escrito.

emperor-line = **{ $name }** · { $reputation } de reputación · { emperor-status-name }
emperor-born = **{ $name }** nace en **{ $dynasty }**. Siéntate en un torneo con /torneo unirse.
emperor-list-title = Tus emperadores
emperor-list-empty = Aún ninguno: crea uno con /emperador crear.
emperor-title = { $name } de { $dynasty }
emperor-record = { $reputation } de reputación · { emperor-status-name } · { $wins } { $wins ->
        [one] victoria
       *[other] victorias
    } · { $takes } { $takes ->
        [one] captura
       *[other] capturas
    }
    { $skill }
emperor-membership = { $since } { $reason ->
        [birth] nacimiento
        [conquest] conquista
       *[other] { $reason }
    }{ $tournament ->
        [none] {""}
       *[other] {" "}(torneo #{ $tournament })
    }
emperor-dynasties = Dinastías
emperor-latest = Lo último
skill-none = aún sin índice de habilidad (llega con el primer combate serio)
skill-rating = habilidad { NUMBER($estimate, minimumFractionDigits: 1, maximumFractionDigits: 1) } (μ { NUMBER($mu, minimumFractionDigits: 1, maximumFractionDigits: 1) } ± { NUMBER($sigma, minimumFractionDigits: 1, maximumFractionDigits: 1) }, { $combats } { $combats ->
        [one] combate
       *[other] combates
    })

leaderboard-title = Clasificación { $scope ->
        [server] de este servidor
       *[world] mundial
    }
leaderboard-line = { $rank }. **{ $name }** · { $reputation } de reputación · { $emperors } { $emperors ->
        [one] emperador
       *[other] emperadores
    }
leaderboard-empty = Aún no hay nadie.
skill-leaderboard-title = Emperadores por habilidad
skill-leaderboard-line = { $rank }. **{ $name }** de { $dynasty } · { $skill }
skill-leaderboard-empty = Ningún emperador ha terminado aún un combate serio.
skill-leaderboard-footer = Página { $page } · la habilidad es μ - 3σ, una estimación prudente
retire-ask = ¿Retirar a **{ $name }**? Muere y no puede volver. { $fate }
retire-done = **{ $name }** se ha retirado. { $fate }
retire-fate-served = Luchó en combates serios, así que la crónica lo conserva, como retirado; sus { $reputation } de reputación dejan de sumar a tu dinastía.
retire-fate-unserved = Nunca luchó un combate serio, así que desaparece de toda crónica.
refusal-retire-not-yours = Solo el jugador que lo pidió puede confirmar este retiro.
retire-button = Retirar
