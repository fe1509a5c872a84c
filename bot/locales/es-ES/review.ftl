# El entrenador: /tournament review (issue #39 item 5).
review-intro = Tu repaso del torneo #{ $tournament }: el ordenador difícil ha vuelto a jugar { $turns ->
    [one] el turno
   *[other] los { $turns } turnos
} en que diste orden, con todos los demás dando las órdenes que de verdad dieron. { $shown ->
    [0] No lo habría hecho mucho mejor en ninguno: bien jugado.
    [one] Este es el turno que más te costó.
   *[other] Estos son los { $shown } turnos que más te costaron, del más caro al menos.
}
review-turn = **Turno { $turn }**: ordenaste { $played }; el ordenador difícil habría ordenado { $suggested }.
review-move = { $origin } → { $destination }
review-pass = pasar
review-would-win = Habrías ganado el combate en ese turno.
review-would-survive = No te habrían derrotado en ese turno.
review-emperors = Habrías conservado { $suggested } { $suggested ->
    [one] emperador
   *[other] emperadores
} en lugar de { $played }.
review-pieces = Habrías tenido { $suggested } { $suggested ->
    [one] pieza
   *[other] piezas
} en lugar de { $played }.
review-rivals = Tus rivales habrían tenido { $suggested } { $suggested ->
    [one] pieza
   *[other] piezas
} en lugar de { $played }.
review-worth = Tu posición habría valido { NUMBER($pawns, maximumFractionDigits: 1) } { $pawns ->
    [one] peón
   *[other] peones
} más tras el turno.
review-arrows = En cada tablero: tu orden en tu color, tal como fue de verdad; la del ordenador difícil, como flecha blanca discontinua con un anillo donde habría ido. El valor de una posición es el juicio de los propios ordenadores: un peón vale 1, un emperador unos 9.
review-board-title = Turno { $turn }
refusal-review-not-over = El combate del torneo #{ $tournament } no ha terminado: el repaso se abre cuando acabe.
refusal-review-not-yours = No jugaste en el torneo #{ $tournament }: el repaso es para quienes lucharon en él, cada cual el suyo.
