# Words every part of the bot shares.

# Names of the game's kinds and states, for the messages that refer to them ({ kind-name }):
# each reads the variable of that name.
kind-name = { $kind }
tournament-status-name = { $status }
emperor-status-name = { $status }
trade-status-name = { $status }

error-bug = Something went wrong (error id { $id }). The hosts have been told.
error-cooldown = Drawing takes the bot a moment, so each player may ask for this { $rate } { $rate ->
        [one] time
       *[other] times
    } in { $seconds ->
        [60] a minute
       *[other] { $seconds } seconds
    }. You can ask again { $again }.
refusal-damaged-button = This button is damaged or out of date; { $where ->
        [log] open the log with /dynasty log.
        [history] open the archive with /tournament history.
        [retire] ask again with /emperor retire.
        [help] open it again with /help.
       *[trades] see your open offers with /trade list.
    }

told-in-channel = { $notice }
    (Told in { $channel }, the tournament's channel.)
emperor-choice = { $name } · { $reputation } reputation · { emperor-status-name }
battlefield-choice = { $name } · { $players } players · { $turns } turns
tournament-label = #{ $tournament } { $battlefield } · { kind-name } · { $status ->
        [running] { $paused ->
            [yes] turn { $turn } (paused)
           *[no] turn { $turn }
        }
       *[other] { tournament-status-name }
    }
page = Page { $page }
newer = ◀ Newer
older = Older ▶

closed-dms-notice = { $mention }, I cannot send you direct messages (your privacy settings block them), so your { $deploying ->
        [yes] deployment prompt
       *[no] turn prompts
    } for tournament #{ $tournament } cannot reach you. { $deploying ->
        [yes] Use /deploy here to place your pieces before turn 1, then /order each turn: only you see their answers.
       *[no] Use /order here each turn to see the board and give your order: only you see its answers.
    } Reminders will be shown to you privately with your next command.

# What Discord's client never sends, refused all the same (bot/command_tree.py).
refusal-outside-server = /{ $command } works only in a server: use it in the channel of the server where you play.
refusal-options-damaged = The options of /{ $command } are damaged; run the command again from Discord.
refusal-option-missing = /{ $command } needs the option { $option }: fill it in.
refusal-option-type = The option { $option } takes { $kind ->
        [text] text
        [integer] a whole number
        [number] a number
       *[boolean] True or False
    }; give it that.
refusal-option-choices = The option { $option } takes one of: { $choices }. Choose one of them.
refusal-option-length = The option { $option } takes { $low } to { $high } characters.
refusal-option-range = The option { $option } takes a number from { NUMBER($low, useGrouping: 1) } to { NUMBER($high, useGrouping: 1) }; choose one in that range.

help-title = Emperors of the Dynasty
help-summary = Emperors of the Dynasty is a strategy game of simultaneous moves. Each turn every dynasty secretly orders one piece (or passes); when the turn closes, all orders resolve at once. Take the rival emperors or reach the tournament's goal to win reputation and wealth — in the harshest tournaments, the losers' emperors too.

    Found your dynasty with /dynasty found, create an emperor with /emperor create, join a tournament with /tournament join, and when a turn opens give your order with /order.
help-page = Page { $page } of { $pages }
help-previous = ◀ Previous
help-next = Next ▶
