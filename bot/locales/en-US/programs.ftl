# Players' programs (issue #37): the /program commands (a thin cog over
# bot/services/programs.py) and what the API answers a program that is refused (bot/web/);
# the data layer's refusals about programs are in refusals.ftl. $register, $revoke: a command
# as the reader types it (bot.i18n.Named). The API's refusals are sent in English (their kind
# is the message id without its "api-" or "refusal-" prefix).

## /program register, list, revoke, rename, ladder

program-registered = Your program **{ $program }** is registered. Its token, shown this once (the bot keeps only a fingerprint of it, so copy it now):
    `{ $token }`
    Anyone who has this token plays as your program: keep it out of code you share, and revoke it with /{ $revoke } if it leaks. { $api ->
        [none] The bot's API is off here: the bot's host turns it on with API_PORT.
       *[other] Your program connects to { $api }.
    }
program-list-title = Your programs
program-list-line = **{ $program }** · { $skill } · registered <t:{ $since }:D> · { $seats ->
        [0] no seat
        [one] a seat in { $seats } tournament
       *[other] seats in { $seats } tournaments
    }
program-list-empty = You have no programs. Register one with /{ $register }: it plays from your own computer through the bot's API.
program-revoked = **{ $program }** is revoked: its token plays no more, and its seats in running combats miss their turns.
program-renamed = **{ $old }** is now called **{ $program }**; its token and its seats stay as they were.
program-ladder-title = Programs by skill
program-ladder-line = { $rank }. **{ $program }** of { $dynasty } · { $skill }
program-ladder-empty = No program has finished a serious combat yet.
program-ladder-footer = Page { $page } · skill is μ - 3σ, a cautious estimate
seat-name-program = { $program } ({ $dynasty })

## A token the API refuses (bot/services/programs.py)

refusal-token-unknown = This token plays as no program: check that it was copied whole, or register a program with /{ $register } to get one.
refusal-token-revoked = The program { $program } was revoked: its token plays no more. Register a new program with /{ $register } for a new token.

## What the API answers a request it refuses

api-token-missing = send your program's token in the header Authorization: Bearer <token>
api-malformed-json = the body is not JSON; send one JSON object, like {"{"}"turn": 3, "pass": true{"}"}
api-not-json = send the body as JSON, with the header Content-Type: application/json
api-not-an-object = the body must be one JSON object, like {"{"}"turn": 3, "pass": true{"}"}
api-unknown-field = there is no field '{ $field }' in an order: a move has turn, piece and to, a pass has turn and pass
api-missing-field = an order needs the field '{ $field }': a move has turn, piece and to, a pass has turn and pass
api-wrong-type = '{ $field }' must be { $expected ->
        [turn] a whole number, the turn the order is for
        [tile] a tile as [row, column], two whole numbers counted from 0
        [pass] true
       *[other] { $expected }
    }
api-move-or-pass = an order is a move (piece and to) or a pass, not both
api-no-such-tournament = there is no tournament #{ $tournament }; check its number
api-no-route = there is no { $method } { $path } in this API; docs/api/openapi.yaml in the bot's repository describes it
api-method-not-allowed = { $path } does not take { $method }; it takes { $allowed }
api-not-seated = your program has no seat in tournament #{ $tournament }; it sees and orders only in tournaments it is seated in
api-not-your-piece = the piece on { $tile } is not your program's: it orders the pieces of dynasty { $dynasty } only
api-no-turn = tournament #{ $tournament } { $status ->
        [open] has not started yet
        [finished] is over
       *[other] was cancelled
    }: there is no turn to order for
api-turn-not-open = the order is for turn { $turn }, but tournament #{ $tournament } has turn { $current } open; order for turn { $current }
api-seat-out = your program's dynasty { $status ->
        [defeated] is defeated
       *[other] forfeited
    } in tournament #{ $tournament } and gives no more orders
api-seat-handed-over = your program's seat in tournament #{ $tournament } was handed to a computer player for the rest of the combat
api-too-large = the request is larger than { $limit } bytes; an order is a few dozen
api-rate-limited = too many requests from this program; try again in { $retry_after_seconds } seconds
api-too-many-streams = this program already has { $limit } streams open, the most allowed; close one before opening another
api-stopping = the bot is restarting; try again in a minute (nothing was changed)
api-internal = something went wrong on the bot's side (error { $error }); nothing was changed, try again
