# The data layer's refusals (data/errors.py): what the database refused and what to do.
# They start in lower case; the bot capitalises the sentence it shows.

refusal-not-found = there is no { $what ->
        [dynasty] dynasty
        [dynasty-named] dynasty named
        [emperor] emperor
        [living-emperor-named] living emperor named
        [tournament] tournament
        [trade] trade
        [asset] asset
        [item] item
        [seat] seat
        [filled-seat-numbered] filled seat numbered
        [player] player
        [turn] turn
        [resolved-turn] resolved turn
       *[other] { $what_text }
    } { $key }; check the name or number and try again
refusal-amount-too-large = no dynasty ever holds more than { NUMBER($limit, useGrouping: 1) } of one asset or item; ask for a smaller amount
refusal-number-too-large = a number in this request is larger than any the game uses; check it and try again
refusal-already-applied = this was already done: the same request reached the game twice and counts once, so nothing changed the second time
refusal-name-taken = the { $what ->
        [dynasty] dynasty
        [emperor] emperor
       *[other] { $what_text }
    } name '{ $name }' is already taken; choose another name
refusal-emperor-busy = { $emperor } is already { $role ->
        [bettor] betting on
       *[other] playing in
    } { $tournament ->
        [none] a tournament
       *[other] tournament #{ $tournament }
    }; wait until it ends, leave it, or choose another emperor
refusal-emperor-dead = { $emperor } is dead; choose a living emperor or create a new one
refusal-not-your-emperor = { $emperor } does not belong to your dynasty; choose one of your emperors
refusal-insufficient-funds = this needs { $needed } × { $what } but the dynasty holds only { $available }; lower the amount or gather more first
refusal-not-enough-reputation = { $emperor } has { $reputation } reputation but this honour tournament stakes { $stake }; choose an emperor with more reputation
refusal-tournament-closed = tournament #{ $tournament } is { $status ->
        [open] open
        [running] running
        [finished] finished
        [cancelled] cancelled
       *[other] { $status_text }
    }, so you cannot { $action ->
        [follow-it] follow it
        [hand-a-seat-over] hand a seat over
        [start-it] start it
        [finish-it] finish it
        [cancel-it] cancel it
        [leave] leave
        [forfeit] forfeit
        [join] join
        [order] order
        [resolve-a-turn] resolve a turn
       *[other] { $action_text }
    } now; look for an open tournament
refusal-tournament-not-ready = tournament #{ $tournament } still has { $empty } empty { $empty ->
        [one] seat
       *[other] seats
    }; wait for players or fill them with computer players before starting
refusal-seat-taken = seat { $seat } of tournament #{ $tournament } is taken; choose a free seat
refusal-tournament-full = tournament #{ $tournament } has no free seat left; look for another one with /tournament status
refusal-already-seated = you already have a seat in tournament #{ $tournament }; one seat per player
refusal-computers-not-allowed = tournament #{ $tournament } does not allow computer players; wait for human players to fill the seats
refusal-programs-not-allowed = tournament #{ $tournament } is not open to programs; ask its host to open it to programs, or enter a tournament that is
refusal-program-revoked = the program '{ $program }' was revoked and plays no more; register a new program instead
refusal-program-hidden-setup = tournament #{ $tournament } hides its setup (each player deploys in secret before turn 1), and programs cannot deploy through the API yet: seat '{ $program }' in a tournament with the fixed setup
refusal-programs-hidden-setup = a tournament open to programs cannot hide its setup (each player deploys in secret before turn 1): programs cannot deploy through the API yet. Leave the hidden setup out of the variants, or do not open the tournament to programs
refusal-program-already-seated = the program '{ $program }' already has a seat in tournament #{ $tournament }; one seat per program
refusal-owner-already-seated = in a serious tournament a player and their programs take one seat between them, and one of them already sits in tournament #{ $tournament }; a training tournament allows both
refusal-too-many-programs = you already have { $limit } programs, the most allowed; revoke one you no longer use with /program revoke first
refusal-seat-not-active = dynasty { $seat } is { $status ->
        [defeated] defeated
        [forfeited] forfeited
       *[other] { $status_text }
    } and gives no more orders (R-C6)
refusal-order-for-closed-turn = turn { $turn } is closed: { $open ->
        [0] no turn is open
       *[other] turn { $open } is open
    }; look at the board again and reorder
refusal-deployment-over = tournament #{ $tournament } is not deploying: its deployments were revealed (or it has no hidden setup), so a deployment changes nothing now (R-V1c)
refusal-not-deployed = tournament #{ $tournament } is still deploying: orders start with turn 1, once every deployment is revealed (R-V1c)
refusal-turn-already-resolved = turn { $turn } of tournament #{ $tournament } was already resolved; reload the tournament
refusal-orders-changed = orders for turn { $turn } of tournament #{ $tournament } changed while it was being resolved; load it again and resolve again
refusal-betting-closed = bets on tournament #{ $tournament } closed when its first turn resolved (R-T6); bet on a tournament that has not started yet
refusal-trade-closed = trade #{ $trade } is { $status ->
        [accepted] accepted
        [declined] declined
        [expired] expired
        [cancelled] cancelled
       *[other] { $status_text }
    }; make a new offer instead
refusal-not-your-trade = your dynasty cannot { $action ->
        [accept] accept
        [decline] decline
        [cancel] cancel
       *[other] { $action_text }
    } trade #{ $trade }: that is for the other side
refusal-chest-out-of-range = a chest in this tournament holds between { NUMBER($minimum, useGrouping: 1) } and { NUMBER($maximum, useGrouping: 1) } gold coins; deposit an amount in that range
refusal-chest-unaffordable = your dynasty holds only { NUMBER($available, useGrouping: 1) } gold coins, less than that deposit; deposit at most what it holds
refusal-tournament-paused = tournament #{ $tournament } is paused: its turn resolves once it is resumed
refusal-turn-extended-twice = turn { $turn } of tournament #{ $tournament } was already extended twice, the most allowed; the next turn can be extended again
refusal-extension-too-long = a turn never lasts more than twice its length: turn { $turn } of tournament #{ $tournament } can be extended { $minutes ->
        [0] no more
       *[other] by at most { $minutes } more minutes
    }
refusal-seat-handed-over = seat { $seat } was handed over to a computer player for the rest of the combat; its player gives it no more orders
refusal-seat-still-played = seat { $seat } has missed { $misses } { $misses ->
        [one] turn
       *[other] turns
    } in a row; only its player can hand it over, or the host once it has missed 2 in a row
refusal-already-away = you are already away; change when you come back with /away until, or end it with /away end
refusal-away-too-long = a player is away at most 14 days in any 30 days (counting earlier absences); choose an earlier date
refusal-too-many-followers = tournament #{ $tournament } already has { $limit } followers, the most allowed; watch its boards in its channel instead
refusal-following-too-many = you already follow { $limit } tournaments, the most allowed; unfollow one with /tournament unfollow first
refusal-too-many-announcements = you have announced { $limit } tournaments in the last hour, the most allowed; you can announce another <t:{ $again }:R>
refusal-channel-announcements = this channel has heard { $limit } announcements in the last hour, the most it may; the next can be made here <t:{ $again }:R>, or now in another channel
refusal-too-many-computer-combats = you already host { $limit } running combats of computer players only, the most at once; wait for one to end, or call one off with /tournament cancel
refusal-database-busy = the game is busy with another change; try again in a moment

# Names of what a dynasty holds (data/assets.toml codes, and the shop's keys).
asset-name = { $asset ->
        [copper-coin] copper coin
        [silver-coin] silver coin
        [gold-coin] gold coin
        [emerald] emerald
        [ruby] ruby
        [diamond] diamond
        [silver-ingot] silver ingot
        [gold-ingot] gold ingot
       *[other] { $name }
    }
item-key = key to { $battlefield }
refusal-training-leaves-no-trace = { $tournament ->
        [none] this is
       *[other] tournament #{ $tournament } is
    } a training tournament: it takes no { $what ->
        [bets] bets
        [prizes] prizes
        [stakes] stakes
        [chests] chests
       *[other] { $what_text }
    }, since nothing about a training combat is recorded; choose a serious type

# Values the game cannot store (data/errors.py InvalidValue, by kind).
invalid-what = { $what }
refusal-invalid-too-many-channels = a server names at most { $limit } channels for tournaments
refusal-invalid-computer-pace = a pace is 0 to { $limit } seconds between two turns
refusal-invalid-no-treasure-tile = { $battlefield } has no treasure tile; choose another goal or battlefield
refusal-invalid-stake-not-honour = only an honour tournament has a stake, and it is 0 or more
refusal-invalid-prize-takes-reputation = a prize gives reputation; it cannot take it
refusal-invalid-training-chests = a training tournament has no chests (nothing changes hands in training); choose a serious type or leave chests out
refusal-invalid-chest-range = a chest holds at least 1 gold coin, and its maximum is at least its minimum; check the chest deposit range
refusal-invalid-chest-reputation = the generous and stingy reputation of chests is 0 or more
refusal-invalid-seat-computer-already = seat { $seat } is a computer player's already
refusal-invalid-order-other-dynasty = seat { $seat } orders dynasty { $seat }, not { $dynasty }
refusal-invalid-report-other-turn = this report is for turn { $reported }, but tournament #{ $tournament } has turn { $turn } open
refusal-invalid-no-seat-number = seats are lettered a to h; there is no seat number { $wanted }
refusal-invalid-seat-out-of-range = { $battlefield } has seats a to { $last }; there is no seat { $seat }
refusal-invalid-send-to-itself = a dynasty cannot send wealth to itself; choose another dynasty
refusal-invalid-key-code = a key's code is { $prefix }<battlefield>, not { $code }
refusal-invalid-buy-none = buy at least one
refusal-invalid-trade-nothing = a trade moves something; offer or request at least one thing
refusal-invalid-trade-with-itself = a dynasty cannot trade with itself; choose another dynasty
refusal-invalid-trade-expiry = a trade must stay open for some time; give a later expiry
refusal-invalid-stake-not-positive = a stake is a positive whole number of coins
refusal-invalid-chest-not-positive = a chest holds a positive whole number of gold coins
refusal-invalid-chest-not-player-seat = seat { $seat } is not a seat your dynasty's emperor holds
refusal-invalid-name-blank = the { invalid-what } needs a name; write one
refusal-invalid-name-too-long = { invalid-what } names have at most { $limit } characters; shorten it
refusal-invalid-name-not-plain = { invalid-what } names must be plain text; remove the special characters
refusal-invalid-amount-not-positive = { invalid-what } amounts are positive whole numbers, not { $amount }
refusal-invalid-reputation-private = reputation history is public (R-L2); log reputation events as public
