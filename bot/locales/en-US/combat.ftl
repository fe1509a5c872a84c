# A tournament as its players meet it (issue #15, phase B): the announcement and its rules,
# /tournament create, join, leave, start, status, rules, forfeit, cancel, replay, and what the
# announcer posts in the channel and sends by DM (the board's embeds, reminders, the end).

## The announcement and its exact rules

announce-heading = Tournament #{ $tournament } on { $battlefield }: { $seats } seats, { kind-name } ({ kind-meaning }).
kind-meaning = { $kind ->
        [training] nothing is recorded; emperors cannot die or change dynasty
        [gift] winners { $reputation ->
            [0] { $wealth ->
                [none] earn the glory
               *[other] share { $wealth }, put up by the host's dynasty (returned to it on a draw or a cancel)
            }
           *[other] earn { $reputation } reputation{ $wealth ->
                [none] {""}
               *[other] {" "}and share { $wealth }, put up by the host's dynasty (returned to it on a draw or a cancel)
            }
        }; losing costs nothing
        [honour] every emperor stakes { $stake } reputation; winners share the losers' stakes{ $wealth ->
            [none] {""}
           *[other] ; every dynasty also pays { $wealth } into the pot as it takes its seat, and the winners share the pot (returned on a draw or a cancel)
        }
        [conquer] an emperor taken in combat joins the dynasty that took it, with its reputation
       *[death] an emperor taken in combat dies; its taker earns its reputation
    }
announce-turn-length = Each turn lasts { $length }.
announce-computers = Empty seats are filled by { $level ->
        [easy] easy computer players (they play any legal move)
        [normal] normal computer players (they take what they can and guard their pieces, one turn ahead)
        [hard] hard computer players (they search every player's likely orders for the best mix of their own)
       *[other] computer players ({ $level })
    } when the host starts.
announce-programs = Open to players' programs: their owners enter them with /{ $command }, and each program plays from its owner's computer through the bot's API.
announce-chests = Chests: every player deposits a secret { NUMBER($minimum, useGrouping: 1) } to { NUMBER($maximum, useGrouping: 1) } gold coins when taking a seat, in a chest on its emperor's start tile. The first rival piece to end a turn there captures it (a defeated dynasty's pieces capture nothing). At the end each captured chest's gold goes to its captor's dynasty and the others return unopened; a chest a computer player captures returns too.{ $reputation ->
        [0] {""}
       *[other] {" "}Of the captured chests, the emperor who deposited the most gains { $reputation } reputation (generous) and the one who deposited the least loses { $reputation } (stingy), if they differ.
    }
wealth-amount = { $amount } { $code }
list-and = { $first } and { $last }

rules-policy = Conflicts ({ $policy }): { $policy ->
        [rollback] pieces that collide on a tile all go back to where they started
        [bounce] pieces that collide on a tile each step back one tile along their path
        [rollback-and-stay] when pieces collide, the first order submitted reaches the tile; the others go back to where they started
       *[bounce-and-stay] when pieces collide, the first order submitted reaches the tile; the others step back one tile along their path
    }.
rules-emperor-taken = Emperor taken ({ $option }): { $option ->
        [convert] a taken emperor stays on the board as a second emperor of the taker
        [remove] a taken emperor leaves the board
        [replace] a taken emperor is replaced by a pawn of the taker (experience 1)
       *[replace-veteran] a taken emperor is replaced by a pawn of the taker that keeps the experience the emperor had at the start of the turn
    }.
rules-emperor-takes = Emperor takes a pawn ({ $option }): { $option ->
        [as-pawn] as a pawn does: the pawn joins the emperor's dynasty and the emperor bounces back
        [push] the emperor ends on the pawn's tile and the pawn, now its own, is pushed one tile further in the direction of the charge; if that tile is missing, occupied, the origin of a piece still moving, or wanted by another piece that round, the emperor bounces back as a pawn does
        [precedence] as a pawn does, but while the emperor bounces back it wins every collision on its way (the other pieces are treated as the conflict policy treats losers; two such emperors in one collision cancel out)
       *[costly] as a pawn does, and the dynasty's most experienced pawn at the start of the turn (ties: the first in reading order) ends the turn with experience 1
    }.
rules-emperor-duel = Emperor takes an emperor ({ $option }): { $option ->
        [as-type] the tournament type decides what happens to the taken emperor
        [reputation] the taking emperor gets the taken emperor's reputation (the taken one keeps 0), and the taken emperor stays in its dynasty, alive
        [combat] the taken emperor plays for the taker for the rest of this combat only; afterwards both dynasties keep their emperors
       *[permanent] the taken emperor joins the taker's dynasty for good, with its reputation
    }; training ignores this.
rules-setup = Setup ({ $option }): { $option ->
        [hidden] before turn 1 each player secretly places its emperor, its pawns and its mountains on its own home tiles; everything is revealed at once
       *[other] every piece starts where the battlefield draws it
    }.
rules-fortress = Fortress ({ $option }): { $option ->
        [on] a dynasty's piece standing on its own emperor start tile (its fortress) can be taken only by an emperor; a pawn's attempt fails and it bounces back
       *[other] an emperor start tile is a tile like any other
    }.
rules-emperor-lost = Last emperor lost ({ $option }): { $option ->
        [crown] a dynasty that loses its last emperor has one turn to stand a pawn on its emperor start tile: that pawn is crowned its new emperor; otherwise the dynasty is defeated
       *[other] a dynasty with no emperor left on the board is defeated
    }.
rules-takes = Takes ({ $option }): { $option ->
        [by-experience] a piece takes only a piece with no more experience than its own (both as they were at the start of the turn); against a stronger one the attempt fails and it bounces back
       *[other] every take attempt takes
    }.
rules-equal-takes = Equal experience ({ $option }): { $option ->
        [mutual] between pieces of equal experience both pieces leave the board (mutual destruction)
       *[other] between pieces of equal experience the attempt takes
    }.
rules-goal = Goal ({ $goal }): { $kind ->
        [last-emperor] the last dynasty with an emperor on the board wins
        [reach-opposite] the first emperor to end a turn on the opposite emperor's start tile wins
        [treasure] the first emperor to end a turn on a treasure tile wins
        [survive] after { $turns } turns, every dynasty with more than { $pieces } { $pieces ->
            [one] piece
           *[other] pieces
        } wins
        [take-stronger] the first dynasty to take a rival emperor with more experience than its own emperor wins
        [monuments] the first dynasty whose pieces stand on every monument tile at the end of a turn wins, or the last dynasty left undefeated
        [domains] every tile where a piece ends a turn takes its dynasty's colour; the first dynasty whose colour covers at least { $percent }% of the tiles wins, or the last dynasty left undefeated
       *[emperor-strike] the first dynasty whose emperor, with its own move, takes the emperor opposite it (the one whose start tile is nearest the mirror image of its own) wins
    }.
rules-turn-limit = Turn limit: { $limit } turns; then { $goal ->
        [domains] the dynasty with the most painted tiles wins
       *[other] the dynasty with the most pieces wins
    }, and a tie is a draw.
rules-misses = A player who misses 3 turns in a row is defeated; passing is not missing.

## The variants of section 10 as a host chooses them (bot/services/variants.py)

variant-short = { $word ->
        [hidden] secret set-up on your home tiles, mountains too
        [fortress] only an emperor takes a piece on its own fortress
        [crown] lose your last emperor: crown a pawn next turn
        [by-experience] only an equal or stronger piece takes
        [mutual] equals destroy each other
       *[none] the rules as written
    }
variant-choice = { $variants }{ $preset ->
        [cyvasse] {" "}(Cyvasse)
        [chess] {" "}(Emperor Chess)
       *[none] {""}
    } · { $explained }
refusal-unknown-variant = There is no variant '{ $word }': the variants are { $words } (or none). Choose one of the combinations the list offers.
refusal-variant-mutual-alone = mutual (equal experience destroys both pieces) needs by-experience: only pieces compared by experience can be equal (R-V0a). Add by-experience, or leave mutual out.
refusal-no-monument-tile = { $battlefield } has no monument tile, so the monuments goal cannot be won there (R-V5b): choose a battlefield with monuments, such as monuments-4, or another goal.
refusal-home-zone-too-small = On { $battlefield }, dynasty { $dynasty }'s home zone has { $zone } tiles, fewer than the { $needed } pieces and mountains it must deploy (R-V1b): choose another battlefield, or leave hidden out.
refusal-domains-percent-only = domains_percent is for the domains goal only: choose goal domains, or leave it out.
refusal-domains-percent = The domains goal needs a percentage from 1 to 100, not { $percent } (R-V6c).

## The hidden deployment in the channel (R-V1c)

deploy-line = Deployment before turn { $turn }: { $ready } of { $active } deployed{ $clock ->
        [none] {""}
       *[other] {" "}· { clock-text }
    }
deploy-field = Deployment
deploy-explained = Each player places its emperor, pawns and mountains on its own home tiles, secretly, with the prompt it gets by DM (or /deploy). Everything is revealed at once when all have deployed or the time is up; a dynasty that has not deployed keeps the setup the battlefield draws, without mountains.
reveal-title = Tournament #{ $tournament } on { $battlefield }: the deployments revealed
reveal-description = Every deployment is revealed at once; turn 1 is open.{ $count ->
        [0] {""}
       *[other] {" "}{ $fixed } kept the setup the battlefield draws.
    }
combat-seat-name = **{ $letter }** { $name }

## How a combat ends

effect-reason = { $reason ->
        [took] took { $pawns ->
            [0] { $emperors ->
                [one] 1 emperor
               *[other] { $emperors } emperors
            }
            [one] 1 pawn{ $emperors ->
                [0] {""}
                [one] {" "}and 1 emperor
               *[other] {" "}and { $emperors } emperors
            }
           *[other] { $pawns } pawns{ $emperors ->
                [0] {""}
                [one] {" "}and 1 emperor
               *[other] {" "}and { $emperors } emperors
            }
        } in tournament #{ $tournament } on { $battlefield }
        [won] won tournament #{ $tournament } on { $battlefield }
        [prize] prize of tournament #{ $tournament } on { $battlefield }
        [stake-lost] lost the stake of tournament #{ $tournament } on { $battlefield }
        [stakes-won] won the stakes of tournament #{ $tournament } on { $battlefield }
        [killed] killed an emperor in tournament #{ $tournament } on { $battlefield }
        [taken] taken in tournament #{ $tournament } on { $battlefield }
        [destroyed] destroyed with its attacker or target (equal experience) in tournament #{ $tournament } on { $battlefield }
        [conquered] conquered in tournament #{ $tournament } on { $battlefield }
        [duel-won] took the reputation of the emperor it took in tournament #{ $tournament } on { $battlefield }
        [duel-lost] lost its reputation to the emperor that took it in tournament #{ $tournament } on { $battlefield }
        [generous] the most generous of the captured chests in tournament #{ $tournament } on { $battlefield }
        [stingy] the stingiest of the captured chests in tournament #{ $tournament } on { $battlefield }
       *[duel-joined] taken by an emperor in tournament #{ $tournament } on { $battlefield }, joins its dynasty for good
    }
effect-reputation = { $name } { $delta } reputation: { $reason }
effect-conquest = { $name } joins the dynasty of { $taker }: { $reason }
effect-death = { $name } dies: { $reason }
emperor-number = emperor { $emperor }
payout = { $purpose ->
        [prize] { $reason ->
            [share] { $dynasty } receives { $amounts }: its share of the prize
           *[return] { $dynasty } gets its prize back: { $amounts }
        }
       *[stake] { $reason ->
            [share] { $dynasty } receives { $amounts }: its share of the wealth stakes
           *[return] { $dynasty } gets its wealth stake back: { $amounts }
        }
    }
chest-captured = { $captor } captured { $owner }'s chest: { NUMBER($amount, useGrouping: 1) } gold { $amount ->
        [one] coin
       *[other] coins
    }
chest-unopened = { $owner }'s chest goes home unopened

## The channel, the followers and the players, unasked

combat-begun-title = Tournament #{ $tournament } has begun on { $battlefield }
combat-seat = **{ $letter }** · { $name }{ $owner }
turn-title = Tournament #{ $tournament } · turn { $turn } of { $limit }
turn-quiet = Every piece held its tile.
end-title = Tournament #{ $tournament } · the end
end-forfeit = The last rival gave up.
end-over = Tournament #{ $tournament } is over: { $result }
field-result = Result
field-changes = Reputation and fortunes
field-chests = Chests
ready-line = Turn { $turn } is open: { $ready } of { $active } ready{ $clock ->
        [none] {""}
       *[other] {" "}· { clock-text }
    }
ready-line-again = Tournament #{ $tournament }: { $line }
turn-heading = **Tournament #{ $tournament }** on { $battlefield } · turn { $turn } of { $limit }{ $clock ->
        [none] {""}
       *[other] {" "}· { clock-text }
    }
    Give your order with /order.
follower-heading = Tournament #{ $tournament } on { $battlefield }, which you follow{ $content ->
        [none] {""}
       *[other] :{"\u000A"}{ $content }
    }
reminder-dm = Turn { $turn } of tournament #{ $tournament } ends { $deadline }; you have not ordered yet. Use the turn prompt above, or /order.
reminder-private = Reminder: turn { $turn } of tournament #{ $tournament } ends { $deadline } and you have not ordered yet. Use /order.
host-channel-refuses = I cannot post the board of tournament #{ $tournament } in { $channel }: Discord refuses it. Please give me { $permissions } in that channel (its settings → Permissions), or ask someone with Manage Channels to. The combat goes on meanwhile: players get their turn prompts by DM, and /tournament status shows the board.
permission-name = { $permission ->
        [view_channel] View Channel
        [send_messages] Send Messages
        [send_messages_in_threads] Send Messages in Threads
        [embed_links] Embed Links
        [attach_files] Attach Files
       *[other] { $name }
    }

## /tournament create, join, leave, start, status, rules, forfeit, cancel, replay

tournament-title = Tournament #{ $tournament } on { $battlefield }
tournament-kind-status = { kind-name } · { tournament-status-name }
announce-footer = Join with /tournament join tournament:{ $tournament }; the host starts it with /tournament start.
announce-post = { $ping }{ $host } announces a tournament.
seat-taken = { $player } takes seat **{ $seat }** of tournament #{ $tournament } { $how ->
        [casual] as a casual player
        [chest] with { $emperor }; their chest is filled, its amount secret
       *[emperor] with { $emperor }
    }.{ $started ->
        [yes] {" "}Every seat is taken: the combat begins! Turn prompts arrive by DM.
       *[no] {""}
    }
seat-taken-program = { $player } { $by_owner ->
        [yes] enters their program
       *[no] seats the program
    } { $program } in seat **{ $seat }** of tournament #{ $tournament }.{ $started ->
        [yes] {" "}Every seat is taken: the combat begins! Turn prompts arrive by DM, and programs hear of the turn through the bot's API.
       *[no] {""}
    }
seat-left = { $player } leaves tournament #{ $tournament }.
tournament-begins = Tournament #{ $tournament } begins: turn 1 is open{ $deadline ->
        [none] {""}
       *[other] {" "}until { $deadline }
    }. Turn prompts arrive by DM; /order works too.
tournament-cancelled = Tournament #{ $tournament } is cancelled by { $host }: nothing is recorded, and stakes, prizes, chests and bets return.
status-none-open = No tournament is open here: announce one with /tournament create.
status-history-hint = Finished tournaments are in /tournament history.
seats-forgotten = Seats { $letters }: who played a training combat is not kept once it is over.
seat-line = **{ $letter }** { $name }{ $owner }{ $status ->
        [none] {""}
        [active] {" "}· active
        [defeated] {" "}· defeated
       *[forfeited] {" "}· forfeited
    }{ $computer ->
        [none] {""}
       *[other] {" "}· played by a computer ({ $computer })
    }
seats-free = { $free ->
        [one] 1 seat free
       *[other] { $free } seats free
    }
field-seats = Seats
field-turn = Turn
field-bets = Bets, all bettors together
field-your-chest = Your chest
rules-title = Rules of tournament #{ $tournament }
forfeit-ask = Forfeit tournament #{ $tournament }? Your dynasty is defeated at once.
forfeit-button = Forfeit
forfeit-done = You forfeited tournament #{ $tournament }.
forfeit-told = { $player } forfeits tournament #{ $tournament }: their dynasty is defeated.
replay-done = Tournament #{ $tournament }: { $turns } { $turns ->
        [one] turn
       *[other] turns
    }.
refusal-forfeit-damaged = This button is damaged or out of date; ask again with /tournament forfeit.
refusal-forfeit-not-yours = Only the player who asked can confirm this forfeit.
refusal-channel-refuses = I cannot post the tournament's boards in this channel. Give me { $permissions } here (the channel's settings → Permissions), or announce the tournament in a channel where I can post.
refusal-server-chose = { $refusal } (This server's defaults chose { $choices }; give those options yourself to choose otherwise.)
refusal-chest-options = chest_min, chest_max and chest_reputation are for the chests variant: add chests:True, or leave them out.
refusal-chest-range = A chest cannot hold at least { NUMBER($minimum, useGrouping: 1) } and at most { NUMBER($maximum, useGrouping: 1) } gold coins: make chest_max at least chest_min.
refusal-not-wealth = The option { $option } takes coins, gems or metals (like "100 gold"), not items such as keys.
refusal-survive-turns = The survive goal needs survive_turns (and survive_pieces, default 0).
refusal-survive-only = survive_pieces and survive_turns are for the survive goal only.
refusal-join-how = Choose one of your emperors (emperor:), or play casually with casual:True (training tournaments only).

## What the tournament service refuses

refusal-not-seated = You have no seat in tournament #{ $tournament }: join it with /tournament join.
refusal-other-server = Tournament #{ $tournament } belongs to another server: it can be joined, followed and managed only there. See this server's tournaments with /tournament status.
refusal-host-only = Only the host of tournament #{ $tournament } or a member with Manage Server can { $action ->
        [start] start
        [cancel] cancel
        [pause] pause
        [resume] resume
        [extend] extend
        [seat-a-program] seat a program in
       *[hand-over] hand over
    } it.
refusal-no-turn = Tournament #{ $tournament } { $status ->
        [open] has not started yet
       *[other] is { tournament-status-name }
    }: there is no turn to order for.
refusal-turn-resolved = That order was for turn { $turn }, which has resolved; tournament #{ $tournament } is on turn { $current }. Look at the new board and order again.
refusal-no-computer-level = There is no computer level '{ $level }' here; choose one of: { $levels }.
refusal-training-terms = A training tournament has no prize and no stake: nothing about it is recorded (R-T4). Leave prize and stake options out, or choose another type.
refusal-prize-for-gift = Only a gift tournament has a prize; leave the prize options out.
refusal-stake-for-honour = Only an honour tournament has stakes; leave the stake options out.
refusal-prize-needs-dynasty = A wealth prize is paid by your dynasty, and you have none yet: found one with /dynasty found (or create an emperor), or announce the prize without wealth.
refusal-prize-unpaid = Your dynasty must put the prize up now, and it needs { $needed } × { $what } but holds only { $available }: announce a smaller prize, or gather more first (/trade).
refusal-stake-unpaid = Tournament #{ $tournament } makes every dynasty stake { $needed } × { $what } when it takes its seat, and yours holds only { $available }: gather more first (/trade), or join another.
refusal-no-battlefield = There is no battlefield '{ $battlefield }'; choose one of: { $battlefields }.
refusal-turn-length = A turn lasts between 1 minute and 7 days; choose another turn length.
refusal-battlefield-locked = The battlefield { $battlefield } is locked: hosting it needs its key ({ $key }) in your dynasty. Buy one with /shop, or trade for it with /trade.
refusal-casual-training-only = Tournament #{ $tournament } is { kind-name }: casual players join training tournaments only. Create an emperor with /emperor create to play it.
refusal-seats-closed = { $status ->
        [running] Tournament #{ $tournament } has already begun (its last seat was taken, or its host started it), so its seats are closed.
       *[other] Tournament #{ $tournament } is { tournament-status-name }, so its seats are closed.
    } Look for an open tournament with /tournament status.
refusal-deposit-unwanted = Tournament #{ $tournament } has no chests: join it without a deposit.
refusal-deposit-needed = Tournament #{ $tournament } is played with chests: your seat needs a secret deposit of { NUMBER($minimum, useGrouping: 1) } to { NUMBER($maximum, useGrouping: 1) } gold coins. Join with /tournament join and enter the amount in the form it opens.
refusal-not-startable = { $status ->
        [running] Tournament #{ $tournament } has already begun: its last free seat was taken (or it was started) just before you asked, so there is nothing to start. Its turn prompts are on their way by DM.
       *[other] Tournament #{ $tournament } is { tournament-status-name }: there is nothing to start.
    }
refusal-chests-too-poor = Tournament #{ $tournament } is played with chests of { NUMBER($minimum, useGrouping: 1) } to { NUMBER($maximum, useGrouping: 1) } gold coins, but your dynasty holds only { NUMBER($gold, useGrouping: 1) }: gather at least { NUMBER($minimum, useGrouping: 1) } gold coins (see /wealth, /trade) before you join.
refusal-no-chests = Tournament #{ $tournament } has no chests: join it with /tournament join.
refusal-emperor-engaged = { $emperor } is already { $role ->
        [bettor] betting on
       *[other] playing in
    } tournament #{ $tournament }; wait until it ends, or choose another emperor.
refusal-emperor-gone = That emperor is no longer one of your dynasty's living emperors: see /emperor list and join again.
refusal-seat-out = Your dynasty is { $status ->
        [defeated] defeated
       *[forfeited] forfeited
    } in tournament #{ $tournament }: it gives no more orders.
refusal-own-pieces = You can only order your own pieces.
refusal-not-a-tile = There is no tile '{ $tile }' on { $battlefield }: name tiles like C4 (a column letter and a row).
refusal-seat-handed = Your seat in tournament #{ $tournament } was handed to a computer player for the rest of the combat: it gives the orders now.
refusal-nothing-to-replay = Tournament #{ $tournament } has not started: there is nothing to replay yet.
refusal-paused-already = Tournament #{ $tournament } is paused already; /tournament resume starts its clock again (it resumes by itself 7 days after the pause began).
refusal-pause-too-late = Turn { $turn } of tournament #{ $tournament } is over: it resolves now. Pause the next turn if the combat needs a break.
refusal-not-paused = Tournament #{ $tournament } is not paused: its turn { $turn } is running. Pause it with /tournament pause.
refusal-extend-positive = Extend a turn by a positive time, like 1 hour.
refusal-extended-enough = Turn { $turn } of tournament #{ $tournament } was already extended { $times } times, the most a turn may be; the next turn can be extended again.
refusal-extra-time-spent = Turn { $turn } of tournament #{ $tournament } has had all the extra time a turn may have: a turn never lasts more than twice its length.
refusal-extend-at-most = A turn never lasts more than twice its length ({ $longest } here): turn { $turn } can be extended by at most { $left } more.
refusal-extend-resolved = Turn { $turn } of tournament #{ $tournament } has just resolved; extend the new turn if it needs more time.
refusal-no-clock = { $status ->
        [open] Tournament #{ $tournament } has not started: its turns have no clock yet.
       *[other] Tournament #{ $tournament } is { tournament-status-name }: it has no turn to time.
    }
board-end = end
text-as-is = { $text }
refusal-deposit-format = Write the deposit as a whole number of gold coins from { NUMBER($minimum, useGrouping: 1) } to { NUMBER($maximum, useGrouping: 1) }, like { NUMBER($minimum, useGrouping: 1) }. Nothing was deposited and no seat was taken: use /tournament join again.

# The deposit form of a chests tournament (cogs/chests.py), and the deposit as its player alone reads it.
chest-form-title = Your chest in tournament #{ $tournament }
chest-form-label = Gold coins, { NUMBER($minimum, useGrouping: 1) } to { NUMBER($maximum, useGrouping: 1) }
chest-form-placeholder = Secret until captured. Your dynasty holds { NUMBER($gold, useGrouping: 1) } gold coins.
chest-deposited = Your chest in tournament #{ $tournament } holds { NUMBER($amount, useGrouping: 1) } gold { $amount ->
        [one] coin
       *[other] coins
    }, taken from your dynasty into escrow. Nobody else learns it unless a rival captures your chest; /tournament status shows it to you.
chest-own = { NUMBER($amount, useGrouping: 1) } gold { $amount ->
        [one] coin
       *[other] coins
    } (only you see this)
