# The services' refusals (UserError): what went wrong and what to do instead.

refusal-no-dynasty = You have no dynasty yet: found one with /dynasty found (or create an emperor).
refusal-no-such-emperor = Your dynasty has no living emperor called '{ $name }': see /emperor list, or create one with /emperor create.
refusal-name-a-dynasty = Name a dynasty, or ask for your own.
refusal-no-log-page = The log has no page { $page } to show (pages go up to { NUMBER($last, useGrouping: 1) }). Open it again with /dynasty log.

refusal-bet-short = Your dynasty holds only { $available } × { $asset }: bet at most { $available }, or stake another asset.
refusal-trade-own-dynasty = That is your own dynasty: offer the trade to another one.
refusal-offer-time = An offer stays open between 1 minute and 7 days; choose another time.
refusal-offer-short = Your dynasty holds only { $held } × { $what }: offer at most that.
refusal-too-many-open-offers = Your dynasty already has { $limit } open offers to { $dynasty }, the most allowed: wait for its answers, or withdraw one with /trade cancel.
refusal-too-many-offers = Your dynasty has made { $limit } trade offers in the last hour, the most allowed: you can offer again in { $minutes } { $minutes ->
        [one] minute
       *[other] minutes
    }.
refusal-no-such-thing = There is no asset or item called '{ $what }': write amounts like "5 gold, 2 ruby, 1 key:fortress-4"; see /wealth and /shop for the names.
refusal-trade-at-least-one = Trade at least 1 { $what }.
refusal-too-much = No dynasty ever holds more than { NUMBER($limit, useGrouping: 1) } of one asset or item, so no trade can ask or give more; write a smaller amount.
refusal-shop-sells-no = The shop sells no '{ $item }'; see /shop for what is on sale.
refusal-buy-short = The { $item } costs { $price }, but your dynasty holds only { $available } × { $what }. Trade for what is missing first.
refusal-no-such-asset = There is no asset '{ $asset }'; choose one of: { $choices }.
refusal-accept-short = Trade #{ $trade } asks for { $asks }, but your dynasty holds only { $held } × { $what }. Gather it first, or decline.
refusal-offerer-short = { $dynasty } no longer holds what it offered ({ $gives }), so trade #{ $trade } cannot go through now; decline it or try again later.
refusal-no-such-contender = Nobody called '{ $backed }' sits in tournament #{ $tournament }; back one of: { $seated }.

refusal-not-manager = Only a member with Manage Server can change this server's settings; ask one of them.
refusal-channels-gone = The channels this server named for tournaments no longer exist: a member with Manage Server names others with /settings channels.
refusal-create-elsewhere = Tournaments on this server are announced in { $channels }: create it there. (A member with Manage Server chooses these channels with /settings channels.)
refusal-no-default-option = /tournament create has no option '{ $option }' with a server default; choose one of: { $choices }.
refusal-default-choices = { $option } takes one of: { $choices }. Choose one of them.
refusal-too-many-channels = This server already names { $limit } channels for tournaments, the most it may: remove one with /settings channels remove first.
refusal-channel-not-named = { $channel } is not one of the channels named for tournaments; see them with /settings show.
refusal-everyone-role = @everyone cannot be pinged by announcements; choose a role that players take to hear of new tournaments.
refusal-language-choices = The language is one of: { $choices }. Choose one of them.
refusal-settings-need-server = Settings belong to a server: use /settings in that server.

refusal-command-gone = This command no longer exists as your Discord shows it: Discord may still show an old list of commands for a minute or so. Try again in a minute.
