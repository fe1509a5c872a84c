# Substitutes, regents and reliability (issue #38 items 1-3; R-T10..R-T12 in docs/rules.md).

## A seat offered to a substitute, taken, or taken back (R-T10)

seat-name-substitute = { $name } (from turn { $turn }; before: { $before })
substitute-offered = 🪑 { $whose ->
        [host] { $by } offers seat **{ $seat }** of tournament #{ $tournament } ({ $name }) to a substitute: its player missed 2 turns in a row or left it to a computer.
       *[own] { $by } offers their seat **{ $seat }** of tournament #{ $tournament } ({ $name }) to a substitute.
    } Anyone in this server may take it with one of their emperors: the button below, or /tournament substitute.
substitute-offered-by-rules = 🪑 Seat **{ $seat }** of tournament #{ $tournament } ({ $name }) has missed 2 turns in a row: one more and its dynasty is defeated. The rules offer it to a substitute until its player orders again: anyone in this server may take it with one of their emperors (the button below, or /tournament substitute).
substitute-taken = 🪑 { $by } takes seat **{ $seat }** of tournament #{ $tournament } as { $name } and plays on from turn { $turn }. { $left } played it until then and leaves the combat; from now on the seat's results count for { $name }.
substitute-left-dm = A substitute took your seat **{ $seat }** in tournament #{ $tournament } from turn { $turn }: your emperor has left the combat and is free again. Nothing that happens from now on counts for you.
seat-taken-back = 🙋 { $by } takes seat **{ $seat }** of tournament #{ $tournament } ({ $name }) back from { computer-level } and orders again from this turn.
substitute-button = Take seat { $seat }
substitute-pick = Which emperor takes seat **{ $seat }** of tournament #{ $tournament }? It plays on from the current position, and the seat's results count for it from now on.
substitute-pick-placeholder = Choose your emperor
substitute-pick-reputation = { $reputation } reputation
substitute-pick-casual = Play casually (an anonymous emperor)

## The private warning one turn before R-G4 (R-T12)

seat-last-chance-dm = ⚠️ You have missed 2 turns in a row in tournament #{ $tournament } (seat { $seat }): if you miss the next one, your dynasty is defeated and its combat ends. Order with /order, go /away, or hand your seat over with /tournament handover. Your seat is offered to a substitute until you order again.

## Regents (R-T11)

log-regent = { $level ->
        [random] An easy
        [greedy] A normal
        [strong] A hard
       *[other] A { $level }
    } regent (a computer player) played turns { $first }–{ $last } of tournament #{ $tournament } for { $emperor }.

## Reliability (R-T12)

reliability-none = no turn due yet
reliability-line = { $percent }% ({ $ordered } of { $due } turns ordered over { $combats } { $combats ->
        [one] combat
       *[other] combats
    }){ $abandoned ->
        [0] {""}
        [one] , 1 combat abandoned
       *[other] , { $abandoned } combats abandoned
    }

## Refusals

refusal-substitute-seat-over = Seat { $seat } is out of the combat (or the combat is over): there is no seat left to take.
refusal-offer-too-soon = Seat { $seat } has missed { $misses } { $misses ->
        [one] turn
       *[other] turns
    } in a row: a host offers a seat only once its player has missed { $needed } turns in a row, or left it to a computer. Its player can offer it any time.
refusal-offer-host-only = Only the host of tournament #{ $tournament } or a member with Manage Server can offer another player's seat. You can offer your own.
refusal-substitute-plays-already = You already play in tournament #{ $tournament }: a substitute takes a seat in a combat they are not in.
refusal-substitute-not-offered = Seat { $seat } of tournament #{ $tournament } is not offered to a substitute: its player or the host can offer it with /tournament offer-seat.
refusal-substitute-no-seat = Tournament #{ $tournament } has no seat '{ $seat }': its seats are a to { $last }.
refusal-substitute-emperor-busy = { $name } already plays or bets in tournament #{ $tournament }: choose another emperor (an emperor is in one tournament at a time).
refusal-substitute-honour = Seat { $seat } of tournament #{ $tournament } cannot change hands: in an honour combat every emperor staked its reputation when it sat down.
refusal-substitute-needs-emperor = Tournament #{ $tournament } is serious: a substitute plays with one of their emperors (casually only in training).
refusal-substitute-how = Choose one of your emperors, or casual:True (training only) — one of the two.
refusal-substitute-no-emperor = You have no living emperor to take the seat with: create one with /emperor create.
refusal-substitute-damaged-button = This button is damaged or out of date; take the seat with /tournament substitute.
refusal-take-back-not-handed = Your seat in tournament #{ $tournament } is not played by a computer: you order for it already.

## The dynasty log (R-T10c)

log-seat-left = { $emperor } left seat { $seat } of tournament #{ $tournament } before turn { $turn }{ $known ->
        [yes] : { $other } plays on for it as a substitute.
       *[no] .
    }
log-seat-taken = { $emperor } took seat { $seat } of tournament #{ $tournament } as a substitute and plays on from turn { $turn }{ $known ->
        [yes] {" "}({ $other } played the turns before).
       *[no] .
    }
