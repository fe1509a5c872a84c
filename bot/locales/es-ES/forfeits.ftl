# /tournament forfeit pedido otra vez por quien ya se rindió (issue #40, punto 13).

refusal-forfeit-already = Ya te rendiste en el torneo #{ $tournament }: tu dinastía está fuera de ese combate.
