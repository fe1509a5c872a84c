# The /tournament subcommands of their own cogs: history, pause, resume, extend, handover,
# follow and unfollow; and /away.

history-title = Finished tournaments{ $by_dynasty ->
        [yes] {" "}· played by { $dynasty }
       *[no] {""}
    }{ $on_battlefield ->
        [yes] {" "}· on { $battlefield }
       *[no] {""}
    }
history-entry = **#{ $tournament }** { $battlefield } · { kind-name }{ $ended ->
        [none] {""}
       *[other] {" "}· ended { $ended }
    }{ $link ->
        [none] {""}
       *[other] {" "}· [watch]({ $link })
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
handover-program = 🤖 The program of seat **{ $seat }** of tournament #{ $tournament } ({ $name }) missed 2 turns in a row: { $by } hands the seat to { computer-level } for the rest of the combat.
handover-dm = You missed 2 turns in a row in tournament #{ $tournament }: its host handed your seat to { computer-level } for the rest of the combat. Your emperor fights on, and its results still count for your dynasty.

follow-welcome = You follow tournament #{ $tournament } on { $battlefield }: each new board comes here as its channel sees it. Stop with /tournament unfollow in its server.
follow-done = You follow tournament #{ $tournament }: its boards come by DM (a tournament has { $followers } followers at most, and you follow { $followed } at most).
unfollow-done = You no longer follow tournament #{ $tournament }.
refusal-follow-closed-dms = I cannot send you direct messages (your privacy settings block them), and boards come by DM: allow DMs from this server's members, then follow again.

away-until = You are away until { $date } ({ $relative }). Until then you get no reminders, and the turns you miss do not count towards the 3 missed turns in a row that defeat a dynasty (the turns you missed before stay counted). Turn prompts still come, so you can order if you like; nobody is told you are away. Back earlier? /away end.
away-end = Welcome back: reminders come again, and the turns you miss count again towards defeat.

# Refusals of /tournament follow, unfollow, handover and history, and of /away.
refusal-follow-playing = You play in tournament #{ $tournament }: your turn prompts bring you every board already.
refusal-follow-already = You follow tournament #{ $tournament } already: its boards come by DM. Stop with /tournament unfollow.
refusal-unfollow-not-following = You do not follow tournament #{ $tournament }.

level-name = { $level }
seat-status-name = { $status }
refusal-handover-player-or-program = Name the player or the program whose seat you hand over, not both.
refusal-handover-no-program = That program has no seat in tournament #{ $tournament }: choose one of its programs.
refusal-handover-not-seated = That player has no seat in tournament #{ $tournament }: choose a seated player.
refusal-handover-played-by-computer = { $whose ->
        [own] Your seat
       *[other] Seat { $seat }
    } in tournament #{ $tournament } is already played by a computer player ({ level-name }).
refusal-handover-seat-over = { $whose ->
        [own] Your seat
       *[other] Seat { $seat }
    } in tournament #{ $tournament } is { seat-status-name }: there is nothing left to hand over.
refusal-handover-too-soon = Seat { $seat } has missed { $misses } { $misses ->
        [one] turn
       *[other] turns
    } in a row: a host hands a seat over only once its player has missed { $needed } turns in a row. Its player can hand it over any time.
refusal-handover-player-away = The player of seat { $seat } is away: their missed turns are excused until they are back, so the seat stays theirs.
refusal-forfeit-handed-over = Your seat in tournament #{ $tournament } was handed to a computer player for the rest of the combat: it plays on for you.
refusal-tournament-busy = The tournament is busy; try again in a moment.

refusal-history-no-server = The archive belongs to a server: ask for it in that server.
refusal-history-no-battlefield = There is no battlefield '{ $battlefield }'; choose one of: { $battlefields }.
refusal-history-no-page = The archive has no page { $page } to show (pages go up to { NUMBER($pages, useGrouping: 1) }). Open it again with /tournament history.

away-when-help = { $start ->
        [lower] write
       *[upper] Write
    } when you are back as a date like 2026-12-24 (the day begins at 00:00 UTC), a date and time like 2026-12-24 18:00 (UTC), or a time from now like 3d, 36h, 1w or 2d12h
refusal-away-no-date = There is no date '{ $typed }'. { away-when-help }.
refusal-away-unreadable = { away-when-help }; at most { $days } days.
refusal-away-past = That moment has passed; { away-when-help }.
refusal-away-too-far = You can be away at most { $days } days at a time (your missed turns are excused only that long); choose a moment within { $days } days.
refusal-away-beyond = Your absence began { $since } and can last { $days } days at most: until { $until }. Choose that or earlier.
refusal-away-not-away = You are not away: your missed turns count and you get reminders. Go away with /away until.
