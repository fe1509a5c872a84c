# The game viewer, the web page of a tournament (bot/web/viewer.py, issue #37). The page's own
# words are sent to it in the reader's language; $time, $step and $steps are filled in by the
# page itself.

viewer-title = Tournament #{ $tournament } on { $battlefield }
viewer-turn-title = Turn { $turn } of { $limit }
viewer-start-title = The start
viewer-status-open = Waiting for players: { $seated } of { $seats } seats taken
viewer-status-running = Turn { $turn } of { $limit } is open: { $ready } of { $active } orders ready
viewer-status-paused = Turn { $turn } of { $limit } is paused
viewer-status-cancelled = This tournament was cancelled
viewer-deadline = This turn ends { $time }.
viewer-first = First turn
viewer-previous = Previous turn
viewer-next = Next turn
viewer-last = Latest turn
viewer-slider = Turn
viewer-live = Live
viewer-loading = Loading the board…
viewer-waiting = No turn yet: the board fills when the combat begins.
viewer-offline = No answer from the server; trying again…
viewer-gone = This tournament is no longer shared on the web.
viewer-noscript = This page draws the board with JavaScript: turn it on to watch the combat.
viewer-narration = What happened
viewer-legend = Dynasties
viewer-words = The board in words
viewer-patterns = Patterns for colour-blind eyes
viewer-keys = Arrow keys ← → step through the turns (or the steps); Home and End jump to the first and the latest turn.

# The step-through mode: one turn's resolution move by move (RULES.md §4).
viewer-steps-open = Step through the conflicts
viewer-steps-close = Back to the turns
viewer-step-previous = Previous step
viewer-step-next = Next step
viewer-step-count = Step { $step } of { $steps }
viewer-steps-orders = The orders of this turn, revealed at once: each dashed arrow aims where its piece was ordered.
viewer-steps-end = The end of the turn: every piece stands where it stays, experience is counted and defeats are settled.
viewer-steps-none = Nothing moved in this turn.
viewer-step-return = { $piece } goes back to { $at } and stays there
viewer-step-slide = { $piece } slides back to { $at }: the tile ahead is held
viewer-step-failed = { $piece } attacks { $tile }, but the take fails: it bounces back to { $at }
viewer-step-bounce = { $piece } bounces back to { $at }
viewer-step-wait = { $piece } waits: { $tile } is still another moving piece's origin
viewer-step-fix = { $piece } ends on { $at }
viewer-step-rotation = { $pieces } move round at once, each into the tile the next one leaves
viewer-step-mutual = { $piece } and { $target } are equally strong: both leave the board at { $tile }

# The board in words, for readers who cannot see it.
viewer-alt-board = { $title }. { $dynasties }.
viewer-alt-dynasty = { $name } ({ $letter }){ $defeated ->
        [yes] , defeated
       *[no] {""}
    }: { $pieces }
viewer-alt-piece = { $kind ->
        [emperor] emperor
       *[pawn] pawn
    } { $tile }{ $experience ->
        [1] {""}
       *[other] {" "}(experience { $experience })
    }
viewer-alt-neutral = neutral pawns: { $pieces }
viewer-alt-nothing = no pieces

# What the page says instead of a tournament it may not show (unknown or not shared: the same).
viewer-refusal-heading = Nothing to watch here
viewer-refusal-not-found = There is no tournament #{ $tournament } to watch here: it does not exist, or its server does not share its combats on the web. Check the link, or ask the server's managers to share them with /{ $command }.
viewer-refusal-bad-turn = This page asked for the turns after "{ $since }", which is not a turn number: reload the page.
