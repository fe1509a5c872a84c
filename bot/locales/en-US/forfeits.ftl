# /tournament forfeit asked again by a player who already gave up (issue #40 item 13).

refusal-forfeit-already = You already forfeited tournament #{ $tournament }: your dynasty is out of that combat.
