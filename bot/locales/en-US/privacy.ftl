# A player's data erased on request (issue #40 item 11): /privacy delete (cogs/privacy.py,
# bot/views/privacy.py); what boards and the log call an erased player.

privacy-ask = Erase what the bot keeps about you? This cannot be undone.
    {"**"}Erased:** your Discord id, your language, palette, reminder settings, tutorial, absences, regent, followed combats, open trade offers (called off), your dynasty's wealth and keys, your emperors' skill ratings and your programs (revoked).
    {"**"}Kept, anonymised:** { $combats ->
        [0] no combat: you took no seat in one.
        [one] the combat you played, for the other players' records: its boards, log and results.
        *[other] the { $combats } combats you played, for the other players' records: their boards, log and results.
    } { $dynasty ->
        [yes] { $emperors ->
            [0] Your dynasty stays
            [one] Your dynasty and its emperor stay
            *[other] Your dynasty and its { $emperors } emperors stay
        }, named “deleted player” ({ $entries } log entries).
        *[no] { $combats ->
            [0] {""}
            *[other] Your seats there are named “deleted player”.
        }
    }
    A command you use later starts afresh, as a new player.
privacy-confirm = Erase my data
privacy-cancel = Cancel
privacy-erased = Done: what the bot kept about you is erased, and the rest anonymised.
privacy-kept = Nothing was erased.
privacy-deleted-player = deleted player
log-deleted-player = a deleted player

refusal-privacy-not-yours = Only the member who asked can answer this question.
refusal-privacy-in-combat = you still play in tournament #{ $tournament } (or host it): finish it, forfeit it or leave it (a host cancels it), then ask again
refusal-privacy-wealth-held = your dynasty still has wealth held in tournament #{ $tournament } (a bet, a stake, a chest or a prize): wait until it ends, then ask again
refusal-privacy-in-series = you still take part in series #{ $series }: leave it while it is open, or wait until it ends, then ask again
