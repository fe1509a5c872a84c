# The log (/dynasty log, /emperor show, the public events behind /leaderboard): each entry is
# stored as one of these ids and its parameters (data/rows.py LogMessage), told when read.
# Names ($emperor, $dynasty, $name, $old) are as players chose them.

# An entry written before the log had ids: its English words, as they were.
log-text = { $text }
log-born = { $emperor } is born
log-conquered = { $emperor } was conquered by { $dynasty }{ $renamed ->
        [yes] {" "}and is now called { $name }
       *[no] {""}
    }
log-retired = { $emperor } retired; its { $reputation } reputation leaves the dynasty
log-renamed = { $old } is now called { $name }
log-reputation = { $emperor } { $gain ->
        [yes] +{ $delta }
       *[no] { $delta }
    } reputation: { $why }
log-inactive = inactive: no serious combat for 30 days
# A fight logged before names were lists: $contenders and $winners as English text ("none": a draw).
log-fought = { $emperor } fought a { kind-name } tournament on { $battlefield } ({ $contenders }); winner: { $winners ->
        [none] { log-nobody }
       *[other] { $winners }
    }
# $contenders, $winners: lists of names, each read in the reader's words (log-nobody if none won).
log-fight = { $emperor } fought a { kind-name } tournament on { $battlefield } ({ $contenders }); winner: { $winners }
log-nobody = nobody (a draw)
log-starting-wealth = starting wealth of a new dynasty
log-key-lent = the key to { $battlefield }, lent for this simulation
log-bought = bought { $quantity } × { $item }
log-trade = trade #{ $trade }
log-bet-placed = { $emperor } bets on tournament #{ $tournament }
log-bet-settled = bet #{ $bet } on tournament #{ $tournament } { $status ->
        [paid] paid
        [lost] lost
        [refunded] refunded
       *[other] { $status }
    }
log-prize-put-up = put up the prize of tournament #{ $tournament }
log-wealth-staked = { $emperor } stakes wealth in tournament #{ $tournament }
log-prize-share = share of the prize of tournament #{ $tournament }
log-prize-returned = the prize of tournament #{ $tournament } returned
log-stakes-share = share of the wealth stakes of tournament #{ $tournament }
log-stake-returned = the wealth stake of tournament #{ $tournament } returned
log-chest-deposited = chest deposited in tournament #{ $tournament }
log-chest-captured = captured the chest of seat { $seat } in tournament #{ $tournament }
log-chest-lost = the chest deposited in tournament #{ $tournament } was captured by { $dynasty }
log-chest-returned = chest of tournament #{ $tournament } returned
