# Agreed ends of a combat (R-G5): /tournament draw, /tournament concede, /tournament unvote
# (cogs/agreements.py, bot/views/agreements.py). A vote is secret: nobody is told who voted.

vote-seat = { $name } (seat { $seat })
vote-cast = { $passed ->
        [yes] { $draw ->
            [yes] Yours was the last vote wanted: tournament #{ $tournament } ends in a draw.
           *[no] Yours was the last vote wanted: tournament #{ $tournament } ends, won by { $winner }.
        }
       *[no] { $draw ->
            [yes] Your vote for a draw in tournament #{ $tournament } is cast, in secret.
           *[no] Your vote to concede tournament #{ $tournament } to { $winner } is cast, in secret.
        } It counts until turn { $turn } resolves; take it back with /tournament unvote.
    }
vote-proposed = { $draw ->
        [yes] 🤝 A dynasty proposes that tournament #{ $tournament } end in a draw. If every dynasty still in the combat agrees before turn { $turn } resolves (/tournament draw, or the button), it does. Votes are secret.
       *[no] 🏳️ A dynasty offers to concede tournament #{ $tournament } to { $winner }. If every other dynasty still in the combat concedes to it before turn { $turn } resolves (/tournament concede, or the button), it wins. Votes are secret.
    }
vote-agreed = { $draw ->
        [yes] 🤝 Every dynasty still in tournament #{ $tournament } agreed: the combat ends in a draw.
       *[no] 🏳️ Every other dynasty still in tournament #{ $tournament } conceded: { $winner } wins.
    }
vote-agree-button = { $draw ->
        [yes] Agree to a draw
       *[no] Concede too
    }
vote-withdrawn = Your vote in tournament #{ $tournament } is taken back. Nobody is told.

outcome-agreed-draw = every dynasty still in the combat agreed to a draw
outcome-conceded = every other dynasty still in the combat conceded
end-agreed = The players agreed to end the combat.

refusal-vote-not-running = Tournament #{ $tournament } { $status ->
        [open] has not started yet
       *[other] is { tournament-status-name }
    }: there is no combat to end by agreement.
refusal-vote-defeated = Your dynasty is no longer in the combat of tournament #{ $tournament }: only the dynasties still in it vote.
refusal-vote-handed-over = Your seat in tournament #{ $tournament } was handed to a computer player: it plays on for you, and a computer does not vote.
refusal-vote-deploying = Tournament #{ $tournament } is still deploying: vote once turn 1 is open.
refusal-vote-turn-closed = A turn of tournament #{ $tournament } resolved as you voted; vote again for the new turn.
refusal-vote-turn-passed = That button was for turn { $turn }, which has resolved, and votes lapse with their turn; tournament #{ $tournament } is on turn { $current }. Vote again with /tournament draw or /tournament concede.
refusal-vote-none = You have no vote this turn in tournament #{ $tournament } to take back.
refusal-vote-damaged = This button is damaged or out of date; vote with /tournament draw or /tournament concede.
refusal-concede-to-self = You cannot concede tournament #{ $tournament } to yourself: name a rival still in the combat.
refusal-concede-not-active = That dynasty is no longer in the combat of tournament #{ $tournament }: concede to a rival still in it.
refusal-concede-unknown = Tournament #{ $tournament } has no seat '{ $to }': choose a rival from the list, or give its seat letter.
