# Undo of the last resolved turn (issue #38 item 6): /tournament undo, /settings undo-window
# (cogs/undo.py, bot/views/undo.py).

undo-ask = Undo turn { $turn } of tournament #{ $tournament }? The board, experience, misses and defeats go back to what they were before it, every order of it is dropped, and the turn is played again with a full turn's time. Everyone is told, and the undo is kept on record.
undo-button = Undo turn { $turn }
undo-done = Turn { $turn } of tournament #{ $tournament } is undone.
undo-title = Tournament #{ $tournament } · turn { $turn } undone
undo-told = ↩️ { $by } undid turn { $turn }: the board is as it was before it, and turn { $turn } is open again until { $deadline }. Give your orders again.
undo-dm = ↩️ Turn { $turn } of tournament #{ $tournament } was undone by its host: it is open again until { $deadline }, and the orders given for it were dropped. Give yours again.
undo-window = { $changed ->
        [yes] Done: from now on
       *[no] In this server,
    } { $minutes ->
        [0] no turn can be undone.
       *[other] a host (or a member with Manage Server) may undo the last turn of a combat for { $minutes } { $minutes ->
            [one] minute
           *[other] minutes
        } after it resolves, until someone orders for the next one.
    }
board-undone = turn { $turn } again

refusal-undo-host-only = Only the host of tournament #{ $tournament } or a member with Manage Server can undo its turns.
refusal-undo-not-running = Tournament #{ $tournament } is not running: only the last turn of a running combat can be undone (a turn that ended a combat never is).
refusal-undo-nothing = Tournament #{ $tournament } has no resolved turn to undo yet.
refusal-undo-not-last = Only the last resolved turn can be undone: tournament #{ $tournament } has resolved turn { $last } since you asked to undo turn { $turn }.
refusal-undo-too-late = Turn { $turn } of tournament #{ $tournament } resolved more than { $minutes } { $minutes ->
        [one] minute
       *[other] minutes
    } ago: this server's undo window (/settings undo-window) has passed.
refusal-undo-next-turn-begun = Turn { $turn } of tournament #{ $tournament } has begun: someone ordered for it (or forfeited, or handed a seat over), so the turn before it can no longer be undone.
refusal-undo-damaged = This button is damaged or out of date; ask again with /tournament undo.
refusal-undo-not-yours = Only the member who asked can confirm this undo.
refusal-undo-window-manager = Only a member with Manage Server can change how long turns may be undone, in the server itself.
refusal-undo-window-range = The undo window is between 0 (no undo) and { $most } minutes.
