# A resolved turn told in the channel (engine/narration.py facts, told by bot/narration.py),
# and how a combat ended. $who, $taker, $owner… are a dynasty's name as players chose it.

narration-piece = { $kind ->
        [emperor] { $who }'s emperor
       *[pawn] { $who }'s pawn
    }
narration-and = { $rest } and { $last }
narration-took = { $taker } took { $taken } on { $tile }{ $bounce ->
        [yes] {" "}as it was sent back there
       *[no] {""}
    }{ $pushed ->
        [yes] , stayed there and pushed it to { $pushed_to }
       *[no] {""}
    }{ $after ->
        [left] {" "}(the emperor left the board)
        [pawn] { $experience ->
            [1] {" "}(a pawn took its place)
           *[other] {" "}(a pawn with experience { $experience } took its place)
        }
       *[same] {""}
    }
narration-chest-captured = { $captor } captured { $owner }'s chest on { $tile }
narration-take-cost = the take cost { $payer } its best pawn: the pawn from { $origin }{ $moved ->
        [yes] , now on { $final },
       *[no] {""}
    } falls from experience { $experience } to 1
narration-collided = { $who } collided on { $tile } and { $rolled ->
        [yes] rolled back
       *[no] bounced
    }
narration-collided-first-stayed = { $who } collided on { $tile }: { $first } ordered first and stayed, the others { $rolled ->
        [yes] rolled back
       *[no] stepped back
    }
narration-collided-precedence = { $who } collided on { $tile }: { $leader }'s emperor, bouncing back from its take, had precedence and stayed, the others { $rolled ->
        [yes] rolled back
       *[no] stepped back
    }
narration-moved = { $piece } moved to { $tile }
narration-rotated = { $piece } rotated into { $tile }
narration-stopped = { $piece } aimed at { $tile } and stopped on { $stop }
narration-went-back = { $piece } aimed at { $tile } and went back to { $origin }
narration-missed = { $who } missed the turn
narration-defeated = { $who } is defeated
narration-quiet = every piece held its tile
narration-ended = { $winners ->
        [0] draw after turn { $turn }: { $reason }
        [1] { $who } wins after turn { $turn }: { $reason }
       *[other] { $who } win after turn { $turn }: { $reason }
    }
# The variants (RULES.md section 10): failed attempts, mutual destruction, crowning, painting.
narration-failed-attempt = { $attacker } failed to take { $target } on { $tile }{ $bounce ->
        [yes] {" "}as it was sent back there
       *[no] {""}
    }{ $why ->
        [fortress] {" "}(only an emperor takes a piece on its own fortress)
       *[weaker] {" "}(it had more experience)
    }
narration-mutual-destruction = { $attacker } and { $target } destroyed each other on { $tile }{ $bounce ->
        [yes] {" "}as it was sent back there
       *[no] {""}
    }
narration-crowned = { $who }'s pawn on { $tile } is crowned { $who }'s emperor
narration-window-opened = { $who } lost its last emperor: a pawn of { $who } on { $known ->
        [yes] { $tile }
       *[no] its emperor start
    } at the end of the next turn is crowned, or { $who } is defeated
narration-window-closed = { $uncrowned ->
        [yes] no pawn of { $who } stood on { $known ->
            [yes] { $tile }
           *[no] its emperor start
        }: { $who } is not crowned
       *[no] { $who } has an emperor again: its crowning window closes
    }
narration-tiles-painted = { $who } painted { $painted } { $painted ->
        [one] tile
       *[other] tiles
    } (its colour covers { $total })

# Why a combat ended ($pieces, $turns: the goal's numbers, or the most pieces at the limit).
outcome-opposite-start = an emperor reached the opposite start
outcome-treasure = an emperor reached the treasure
outcome-took-stronger = took a rival emperor stronger than its own
outcome-emperor-strike = its emperor took the opposite emperor
outcome-survived = kept more than { $pieces } pieces for { $turns } turns
outcome-none-survived = no dynasty kept more than { $pieces } pieces for { $turns } turns
outcome-last-standing = every other dynasty is defeated
outcome-all-fell = the last emperors fell in the same turn
outcome-most-pieces = turn limit reached with the most pieces ({ $pieces })
outcome-tie = turn limit reached with a tie at { $pieces } pieces
outcome-monuments = its pieces stand on every monument
outcome-domains = its colour covers at least { $pieces }% of the battlefield
outcome-most-painted = turn limit reached with the most painted tiles ({ $pieces })
outcome-painted-tie = turn limit reached with a tie at { $pieces } painted tiles

# Why an order is illegal (engine/errors.py OrderFault); $rule is the rule it breaks (R-O2).
illegal-order = { $reason } ({ $rule })
illegal-no-such-dynasty = there is no dynasty { $dynasty } on { $battlefield }
illegal-defeated = dynasty { $dynasty } is defeated and gives no more orders
illegal-not-playing = dynasty { $dynasty } is not playing any more
illegal-two-orders = dynasty { $dynasty } gave two orders; keep only the last
illegal-combat-over = this combat is over; no more orders
illegal-no-piece = there is no piece on { $tile }
illegal-not-yours = the piece on { $tile } is not yours: it is { $piece }
illegal-no-distance = a move must go at least 1 tile; to keep every piece still, pass
illegal-not-straight = { $tile } is not in a straight line from { $origin }: pieces move up, down, left or right
illegal-too-far = this { $piece ->
        [emperor] emperor
       *[pawn] pawn
    } can move at most { $experience } { $experience ->
        [one] tile
       *[other] tiles
    }, and { $tile } is { $distance } away
illegal-off-battlefield = the path leaves the battlefield at { $tile }: there is no tile there
illegal-path-blocked = the path is blocked at { $tile }
illegal-own-piece-there = { $tile } holds one of your own pieces
illegal-piece-ordered-twice = the piece on { $tile } has two orders; only the last one counts
illegal-does-not-fit = the order { $order } does not fit the position; check it first
illegal-mountain = { $tile } is a mountain: no piece crosses or stands on it
illegal-not-deployed = the deployment is not over yet: orders start with turn 1

# Why a deployment is refused (engine/errors.py DeploymentFault, R-V1c); said as illegal-order.
illegal-deployment-not-hidden = this combat has a fixed setup: pieces start where the battlefield draws them
illegal-deployment-deployment-over = the deployment is over: every piece is on the board
illegal-deployment-no-such-dynasty = there is no dynasty { $dynasty } on this battlefield
illegal-deployment-defeated = dynasty { $dynasty } is defeated and deploys nothing
illegal-deployment-pawn-count = place exactly { $has } { $has ->
        [one] pawn
       *[other] pawns
    }, not { $placed }
illegal-deployment-mountain-count = place exactly { $has } { $has ->
        [one] mountain
       *[other] mountains
    }, not { $placed }
illegal-deployment-outside-home = { $tile } is not one of your home tiles
illegal-deployment-two-on-one-tile = { $tile } is given twice: one piece or mountain a tile
