# Each player's own reminders (issue #38 item 4): /reminders (cogs/reminders.py,
# bot/views/reminders.py) and the daily digest.

reminders-settings = **Your reminders**
    • Reminders by DM: { $dms ->
        [yes] on
       *[no] off (your turn prompts still come)
    }
    • When: { $before ->
        [default] at half time, then with a tenth of the turn left
       *[other] { $before } before each deadline
    }
    • Time zone: { $zone } (it is { $clock } there now)
    • Quiet hours: { $quiet ->
        [none] none
       *[other] { $quiet } — a reminder due then comes as they end, or a minute before they begin if the deadline falls within them
    }
    • Daily digest: { $digest ->
        [none] none
       *[other] at { $digest }, one DM listing every combat waiting for you, instead of a reminder each
    }
reminders-button = { $action ->
        [on] Turn reminders on
        [off] Turn reminders off
        [nodigest] No daily digest
       *[noquiet] No quiet hours
    }
digest-dm = 📜 Your daily digest: { $count ->
        [one] 1 combat waits
       *[other] { $count } combats wait
    } for your order.
    { $lines }
digest-line = • Tournament #{ $tournament }, turn { $turn }: { $paused ->
        [yes] paused
       *[no] deadline { $deadline }
    }

refusal-reminders-clock-unreadable = '{ $typed }' is not a time of day: write it as 22:00 or 7:30 (24-hour clock, your time zone).
refusal-reminders-before-unknown = Choose how long before the deadline from the list.
refusal-reminders-zone-unknown = There is no time zone '{ $zone }': choose one from the list, like Europe/Madrid or America/Mexico_City.
refusal-reminders-quiet-both = Give both the start and the end of your quiet hours, or neither to have none.
refusal-reminders-quiet-empty = Your quiet hours must begin and end at different times.
refusal-reminders-digest-quiet = A digest at { $at } would fall in your quiet hours ({ $start }–{ $end }) and never come: choose another time, or other quiet hours.
