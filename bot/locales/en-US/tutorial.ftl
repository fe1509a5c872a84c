# /tutorial (issue #38, item 7): a short guided duel on lesson-2 against an easy computer,
# one rule a turn (bot/views/tutorial.py). $mine and $theirs are the two orders of the turn.

tutorial-you = you
tutorial-computer = easy computer
tutorial-title = Tutorial · turn { $turn } of { $turns }
tutorial-title-end = Tutorial · the end
tutorial-board = tutorial - turn { $turn }
tutorial-happened = What happened
tutorial-quiet = Nothing moved.
tutorial-move = { $origin } → { $destination }
tutorial-pass-said = a pass
tutorial-piece = { $kind ->
        [emperor] emperor
       *[pawn] pawn
    } on { $tile } (experience { $experience })
tutorial-choose-piece = The piece to move
tutorial-choose-destination = Where it goes
tutorial-pass = Pass
tutorial-not-ended = The tutorial stops here, undecided.

tutorial-lesson-orders = **Orders.** You play dynasty a, at the top; the easy computer plays b. Each turn you give one secret order: one of your pieces and a tile in a straight line, up, down, left or right, as far as its experience allows (every piece starts with 1) — or you pass and every piece holds. Choose a piece below, then where it goes.
tutorial-lesson-simultaneity = **Simultaneity.** You ordered { $mine }; at the same moment the computer ordered { $theirs }, without seeing yours. Orders stay secret until the turn resolves, and then every order is resolved at once: nobody moves first. Give your order for turn 2.
tutorial-lesson-bounces = **Bounces.** { $collided ->
        [none] No pieces collided this turn. Had two pieces aimed at the same tile, both would have gone back where they came from (the default rule; a host may choose that they stop one tile short instead).
       *[other] Pieces collided on { $collided }: both went back where they came from (the default rule; a host may choose that they stop one tile short instead).
    } A piece that takes never enters its target's tile: it bounces back along its path{ $took ->
        [yes] , as it did this turn
       *[no] {""}
    }. Give your order for turn 3.
tutorial-lesson-takes = **Takes that convert.** { $takes ->
        [0] There was no take this turn. Order a piece onto an enemy pawn that stays where it is: the pawn is not removed, it joins your dynasty where it stands.
       *[other] This turn a piece took: look at what happened below. The taken pawn was not removed, it joined the taker's dynasty where it stands.
    } Taker and taken both fall to experience 1. Give your order for turn 4.
tutorial-lesson-experience = **Experience.** Your pieces now: { $pieces }. Every pawn you order to move gains 1 experience at the end of the turn, whatever happened to its move, and may then move that many tiles; your emperor has the experience of your best pawn. Give your last order.
tutorial-lesson-goal = **The goal.** { $ended } In a tournament the last dynasty with an emperor on the board wins (the default goal); at the turn limit, the one with the most pieces. Hosts may announce other goals: reach the opposite emperor's tile, a treasure… That is the whole game. Ready for a combat of your own? Join one with /tournament join, or announce one with /tournament create.

refusal-tutorial-none = You have no tutorial under way: start one with /tutorial.
refusal-tutorial-over = This tutorial is over: start another with /tutorial, or join a tournament with /tournament join.
refusal-tutorial-stale = This prompt is from an earlier turn: use the latest one, which waits for your order for turn { $turn }.
