# /wealth, /bet, /trade and /shop.

economy-amount = { $amount } × { $what }
economy-nothing = nothing
economy-contender = { $seat } ({ $name })
economy-nobody-yet = nobody yet

wealth-title = Wealth of { $name }
wealth-line = { $amount } × { $what } · worth { $value }
wealth-empty = Nothing yet.
wealth-total-name = Total
wealth-total = worth { $total } copper coins
wealth-items = Items
wealth-footer = Only you see this; your wealth log is private to your dynasty.
asset-held-choice = { $what } · you hold { $amount }

shop-title = Shop
shop-line = **{ $item }** · { $price } (worth { $value }){ $held ->
        [0] {""}
       *[other] {" "}· you hold { $held }
    }
shop-empty = Nothing is on sale.
shop-footer = A key lets your dynasty host tournaments on its locked battlefield.
shop-placeholder = Buy a key…
shop-choice = { $item } · { $price }
shop-bought = Your dynasty bought a { $item } for { $price } and now holds { $held }: you may host tournaments on { $battlefield }.
refusal-choose-a-key = Choose a key from the list.

bet-title = Bet on tournament #{ $tournament }
bet-placed = { $bettor } stakes { $stake } × { $asset } on { $seat } ({ $name }). The stake is held until the tournament ends: the winners' backers share the pool by stake; a draw or a cancelled tournament refunds it.
bet-pools = Pools, all bettors together
pool-line = **{ $seat }** { $name }: { $stakes }

trade-title = Trade #{ $trade } · { trade-status-name }
trade-description = { $offerer } offers { $receiver } a trade.
trade-gives = { $name } gives
trade-open-until = Open until
trade-answer-button = { $answer ->
        [accept] Accept
       *[decline] Decline
    } #{ $trade }
trade-offer-sent = Offer #{ $trade } sent to { $receiver }.
trade-offer-closed-dms = { $mention }, { $offerer } offers your dynasty trade #{ $trade }. I cannot send you direct messages: see it privately and answer with /trade list.
trades-title = Open trades
trades-empty = No open trades.
trades-incoming = Offered to you: { $trade }
trades-outgoing = You offered: { $trade }
trade-line = #{ $trade } { $offerer } gives { $gives }; { $receiver } gives { $asks }
refusal-bet-on-training = Tournament #{ $tournament } is a training tournament: it takes no bets, since nothing about a training combat is recorded (R-T6). Bet on a serious one.
