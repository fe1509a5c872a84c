# The /tournament subcommands of their own cogs: history, pause, resume, extend, handover,
# follow and unfollow; and /away.

history-title = Finished tournaments{ $dynasty ->
        [none] {""}
       *[other] {" "}· played by { $dynasty }
    }{ $battlefield ->
        [none] {""}
       *[other] {" "}· on { $battlefield }
    }
history-entry = **#{ $tournament }** { $battlefield } · { kind-name }{ $ended ->
        [none] {""}
       *[other] {" "}· ended { $ended }
    }
    { $result }
history-empty = No finished tournament here yet.
history-none-matches = None matches.
history-footer = Page { $page } · look at one with /tournament status or /tournament replay

tournament-paused = ⏸ Tournament #{ $tournament } is paused by its host: turn { $turn } keeps the { $left } it had left until it resumes (by itself { $until } at the latest). Orders can still be given or changed; nothing resolves until then.
tournament-resumed = ▶ Tournament #{ $tournament } resumes{ $by_itself ->
        [yes] {" "}(a pause lasts 7 days at most)
       *[no] {""}
    }: turn { $turn } { clock-text }.
tournament-resumed-complete = ▶ Tournament #{ $tournament } resumes{ $by_itself ->
        [yes] {" "}(a pause lasts 7 days at most)
       *[no] {""}
    }: every order of turn { $turn } is in, so it resolves now.
tournament-extended = ⏩ Turn { $turn } of tournament #{ $tournament } is extended by { $by } ({ $extensions } of the 2 extensions a turn may have): { $paused ->
        [yes] it has { $remaining } left, counted once the tournament resumes
       *[no] it now { clock-text }
    }.

computer-level = { $level ->
        [easy] an easy
        [normal] a normal
        [hard] a hard
       *[other] a { $level }
    } computer player
handover-own = 🤖 { $by } hands seat **{ $seat }** of tournament #{ $tournament } ({ $name }) to { computer-level } for the rest of the combat.{ $counts ->
        [yes] {" "}{ $name }'s results still count for its dynasty.
       *[no] {""}
    }
handover-by-host = 🤖 The player of seat **{ $seat }** of tournament #{ $tournament } ({ $name }), { $player }, missed 2 turns in a row: { $by } hands the seat to { computer-level } for the rest of the combat.{ $counts ->
        [yes] {" "}{ $name }'s results still count for its dynasty.
       *[no] {""}
    }
handover-dm = You missed 2 turns in a row in tournament #{ $tournament }: its host handed your seat to { computer-level } for the rest of the combat. Your emperor fights on, and its results still count for your dynasty.

follow-welcome = You follow tournament #{ $tournament } on { $battlefield }: each new board comes here as its channel sees it. Stop with /tournament unfollow in its server.
follow-done = You follow tournament #{ $tournament }: its boards come by DM (a tournament has { $followers } followers at most, and you follow { $followed } at most).
unfollow-done = You no longer follow tournament #{ $tournament }.
error-follow-closed-dms = I cannot send you direct messages (your privacy settings block them), and boards come by DM: allow DMs from this server's members, then follow again.

away-until = You are away until { $date } ({ $relative }). Until then you get no reminders, and the turns you miss do not count towards the 3 missed turns in a row that defeat a dynasty (the turns you missed before stay counted). Turn prompts still come, so you can order if you like; nobody is told you are away. Back earlier? /away end.
away-end = Welcome back: reminders come again, and the turns you miss count again towards defeat.
