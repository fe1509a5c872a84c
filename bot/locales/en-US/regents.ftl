# Regents and reliability (issue #38 items 2 and 3; R-T11 and R-T12 in docs/rules.md).

## /away regent, /away until and /away end (R-T11)

regent-chosen = 🤖 Your regent: { computer-level } plays your seats while you are away{ $after_miss ->
        [yes] , and from the turn after any turn you miss
       *[no] {""}
    }. It gives a seat back when you are back (/away end, or the first turn resolved after your absence ends){ $after_miss ->
        [yes] {" "}or as soon as you order for it
       *[no] {""}
    }. While it plays, the channel's board shows the seat under a regent; a new level plays from its next regency.{ $playing ->
        [yes] {" "}You are away: it plays your seats in { $begun } from now on.
       *[no] {""}
    }
regent-none = No regent: while you are away your seats wait for you (the turns you miss are excused). Choose one with /away regent.{ $back ->
        [yes] {" "}Your seats in { $ended } are yours again from this turn.
       *[no] {""}
    }
regent-no-tournament = no combat
away-regent-plays = 🤖 Your regent ({ $level }) plays your seats { $playing ->
        [yes] in { $tournaments }
       *[no] in the combats you play
    } until you are back; its turns show on the boards and in the logs.
away-regent-hint = No regent plays for you while you are away: choose one with /away regent.
away-end-regent = Your seats in { $tournaments } are yours again from this turn: your regent's order for it stands unless you order.
regent-begun-dm = 🤖 You missed turn { $missed } of tournament #{ $tournament } (seat { $seat }): your regent, { computer-level }, plays the seat from turn { $turn }. Order with /order (or /tournament take-back) and it is yours again.
seat-name-regent = { $name } (regent: { $level })

## Reliability on a profile and the leaderboard, and a host's minimum (R-T12)

reliability-title = Reliability (last { $combats } serious combats)
reliability-short = { $known ->
        [yes] reliability { $percent }%
       *[no] no reliability yet
    }
announce-min-reliability-title = Reliability needed to join
announce-min-reliability = { $percent }% of turns ordered or more, over a player's last serious combats (players with none yet may join)
refusal-join-unreliable = Tournament #{ $tournament } asks a reliability of { $least }% or more: yours is { $percent }% ({ $ordered } of { $due } turns ordered over your last serious combats). Order every turn you are due, or go /away with a regent when you cannot, and it rises.
refusal-min-reliability-range = A minimum reliability is a percentage from 1 to 100.
refusal-offer-regent = Seat { $seat } of tournament #{ $tournament } is played by the regent its player chose, until they are back: a host cannot offer it to a substitute. Its player can.
