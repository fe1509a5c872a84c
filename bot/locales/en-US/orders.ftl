# Secret orders: the turn prompt (by DM, or from /order) and /order.

duration-part = { $count } { $unit ->
        [day] { $count ->
            [one] day
           *[other] days
        }
        [hour] { $count ->
            [one] hour
           *[other] hours
        }
       *[minute] { $count ->
            [one] minute
           *[other] minutes
        }
    }
duration-none = less than a minute
clock-text = { $clock ->
        [ends] ends { $deadline }
        [paused] paused: { $left } left once it resumes (by itself { $until } at the latest)
       *[none] {""}
    }

order-pass = pass
order-move = { $origin } → { $destination }
piece-kind = { $kind ->
        [emperor] emperor
       *[pawn] pawn
    }
piece-label = { $tile } · { piece-kind } · experience { $experience }
piece-moves = { $moves } possible { $moves ->
        [one] move
       *[other] moves
    }
destination-label = { $tile } · { $distance } { $distance ->
        [one] tile
       *[other] tiles
    } { $way ->
        [up] up
        [down] down
        [left] left
       *[right] right
    }{ $target ->
        [none] {""}
       *[other] {" "}· attacks { $target }'s { $target_kind ->
            [emperor] emperor
           *[pawn] pawn
        }
    }

prompt-title = Tournament #{ $tournament } on { $battlefield } · turn { $turn } of { $limit }
prompt-description = { $clock ->
        [ends] Ends { $deadline }.{" "}
        [paused] Paused: { $left } left once it resumes (by itself { $until } at the latest).{" "}
       *[none] {""}
    }You are dynasty **{ $seat }**.
    Choose a piece, then where it goes, then **Confirm**; or **Pass**. You can change your order until the turn resolves; nobody else sees it.
prompt-current-order = Your current order: **{ $order }**.
prompt-not-ordered = You have not ordered yet.
prompt-none-can-move = None of your pieces can move this turn: Pass.
prompt-confirm = Confirm to order **{ $origin } → { $destination }**.
prompt-where = Where does the { piece-kind } on { $tile } (experience { $experience }) go?
prompt-choose-piece = Choose a piece to move
prompt-where-to = Where does { $tile } go?
prompt-confirm-button = Confirm { $origin } → { $destination }
prompt-pass = Pass
prompt-earlier-pieces = ◀ Earlier pieces
prompt-more-pieces = More pieces ▶

order-accepted = Your current order for turn { $turn }: **{ $order }**. { $ready } of { $active } ready. You can replace it until turn { $turn } resolves.
order-accepted-complete = Your order for turn { $turn }: **{ $order }**. { $ready } of { $active } ready: the turn resolves now, and the new board will be in the tournament's channel.
order-accepted-paused = Your current order for turn { $turn }: **{ $order }**. { $ready } of { $active } ready. The tournament is paused: nothing resolves until it resumes, and you can replace your order until then.

board-title-own-order = #{ $tournament } { $battlefield } - turn { $turn }{ $order ->
        [none] {""}
        [pass] {" "}- your order: pass
       *[other] {" "}- your order: { $origin } to { $destination }
    }

refusal-damaged-prompt = This turn prompt is damaged or out of date; use /order for a fresh one with the board.
refusal-no-piece-there = You have no piece on { $tile }: choose one of the pieces in the list.
refusal-cannot-reach = The piece on { $origin } cannot reach { $tile } this turn: choose one of the listed tiles.
refusal-not-your-prompt = This turn prompt belongs to another player; use /order for your own.
refusal-choose-listed = Choose one of the listed options.
refusal-no-turn-to-order = You have no turn to order: join a tournament with /tournament join, and wait for it to start.
refusal-choose-tournament = You play in tournaments { $tournaments }: choose one with the tournament option.
refusal-name-the-piece = Name the piece that goes there too (piece:), like piece:C4 to:C6.

# The deployment prompt (R-V1c): by DM, or from /deploy (bot/views/deployment.py).
deploy-title = Tournament #{ $tournament } on { $battlefield } · your deployment
deploy-description = { $clock ->
        [ends] Ends { $deadline }.{" "}
        [paused] Paused: { $left } left once it resumes (by itself { $until } at the latest).{" "}
       *[none] {""}
    }You are dynasty **{ $seat }**. Before turn 1, place your emperor, your { $pawns } { $pawns ->
        [one] pawn
       *[other] pawns
    }{ $mountains ->
        [0] {""}
        [one] {" "}and your mountain
       *[other] {" "}and your { $mountains } mountains
    } on your home tiles. Nobody sees your deployment until every deployment is revealed at once; you can change it until then.
    Choose what to move, then where it goes (what stood there takes its place), then **Confirm**; or **Use the default** in one click.
deploy-stored = Your deployment is stored; you can still change it:
deploy-not-stored = You have not deployed yet. The default arrangement:
deploy-legend = E emperor · P pawn · ^ mountain · · free home tile
deploy-where = Where does the { deploy-what } on { $tile } go?
deploy-what = { $what ->
        [emperor] emperor
        [pawn] pawn
        [mountain] mountain
       *[none] free tile
    }
deploy-item = { deploy-what } on { $tile }
deploy-target = { $tile } · { deploy-what }
deploy-choose-what = Choose what to move
deploy-choose-where = Where does { $tile } go?
deploy-earlier = ◀ Earlier tiles
deploy-more = More tiles ▶
deploy-confirm = Confirm this deployment
deploy-default = Use the default
deploy-change = Change my deployment
deploy-accepted = Your deployment is stored (only you see it). { $ready } of { $active } deployed. You can change it until every deployment is revealed.
deploy-accepted-complete = Your deployment is stored (only you see it). { $ready } of { $active } deployed: every deployment is revealed now, and the first board will be in the tournament's channel.
deploy-accepted-paused = Your deployment is stored (only you see it). { $ready } of { $active } deployed. The tournament is paused: nothing is revealed until it resumes, and you can change your deployment until then.
refusal-damaged-deployment = This deployment prompt is damaged or out of date; use /deploy for a fresh one.
refusal-not-home-tile = { $tile } is not one of your home tiles; choose one the list offers.
refusal-not-your-deployment-prompt = This deployment prompt belongs to another player; use /deploy for your own.
refusal-choose-deployment = { $tournaments ->
        [none] You have no deployment to make now: none of your tournaments is deploying.
       *[other] You deploy in tournaments { $tournaments }: choose one with the tournament option.
    }
