# Series of combats (issue #38 item 9): /series and what its channel is told
# (bot/views/series.py over bot/services/series/). $enter, $start, $status: a command as the
# reader types it (bot.i18n.Named). $result: a, b (the seat that won), draw, or playing.

series-format = { $format ->
        [round-robin] round robin
        [swiss] Swiss
       *[elimination] single elimination
    }
series-title = Series #{ $number }: { $name }
series-announced = A { $format } series of duels on **{ $battlefield }** ({ $kind }, { $hours } h per turn). Enter with one of your emperors: /{ $enter }. The host starts it with /{ $start }; the bot then pairs each round and creates its duels here. A win is worth { $win } points, a draw { $draw }, a bye { $win }.
series-state = { $status ->
        [open] Open for entries ({ $entrants } so far): /{ $enter }.
        [running] Round { $round } of { $rounds } · { $entrants } entrants.
       *[finished] Finished after { $rounds } rounds · { $entrants } entrants.
    } { $format } on { $battlefield }.
series-round = Round { $round } of { $rounds }
series-round-begun = **Round { $round } of { $rounds }** begins; the duels are below, each in its own tournament.
series-table = Table
series-table-line = { $place }. **{ $player }** · { $points } pts · { $wins }W { $draws }D { $losses }L{ $byes ->
        [0] {""}
       *[other] {" "}· { $byes } bye
    }{ $tiebreak ->
        [0] {""}
       *[other] {" "}· SB { $tiebreak }
    }{ $out ->
        [true] {" "}· out
       *[other] {""}
    }
series-no-entrants = Nobody has entered yet.
series-tiebreaks = Points: win { $win }, draw { $draw }, bye { $win }. Ties: Sonneborn-Berger (SB), then wins, then the earlier entry. Single elimination: how far each came first.
series-bye = **{ $player }** rests this round (a bye counts as a win)
series-walkover = **{ $a }** vs **{ $b }**: { $result ->
        [a] { $a } wins, { $b }'s emperor could not sit
        [b] { $b } wins, { $a }'s emperor could not sit
       *[draw] neither emperor could sit: a draw
    }
series-duel = **{ $a }** vs **{ $b }** · tournament #{ $tournament } · { $result ->
        [a] { $a } won
        [b] { $b } won
        [draw] a draw
       *[playing] playing
    }
series-final = 🏆 The series is over after { $rounds } rounds: **{ $champion }** wins it. The final table:
series-list-title = Series of this server
series-list-line = #{ $number } **{ $name }** · { $format } · { $status ->
        [open] open for entries
        [running] round { $round } of { $rounds }
       *[finished] finished
    }
series-list-empty = No series here yet. A host announces one with /series create; see one with /{ $status }.
series-entered = You entered series #{ $number } ({ $name }) with **{ $emperor }**, seed { $seed }. Its duels will be created in this channel, round by round.
series-left = You left series #{ $number } ({ $name }).
series-started = The host started series #{ $number } ({ $name }).

## Refusals (their kinds are raised by bot/services/series/ and data/repositories/series.py)

refusal-series-in-a-server = A series is announced in a server's channel, where its duels will be played: use /series create there.
refusal-series-duels-only = A series is a string of duels, and { $battlefield } seats more than two: choose one of { $battlefields }.
refusal-series-name-empty = Give the series a name.
refusal-series-unknown = There is no series #{ $number } here; /series list shows this server's series.
refusal-series-other-server = Series #{ $number } belongs to another server: it can be entered and played only there.
refusal-series-not-open = Series #{ $number } ({ $series }) has started: entries are closed, and entrants play to its end.
refusal-series-full = Series #{ $number } ({ $series }) has 32 entrants, the most a series takes.
refusal-series-entered = You have already entered series #{ $number } ({ $series }).
refusal-series-emperor-entered = That emperor already plays in series #{ $number } ({ $series }).
refusal-series-not-entered = You have not entered series #{ $number } ({ $series }).
refusal-series-host-only = Only the host of series #{ $number } ({ $series }), or a member with Manage Server, may start it.
refusal-series-too-few = Series #{ $number } ({ $series }) needs at least two entrants to start.

## /tournament history: the series over (bot/views/history.py)

history-series = Series over
history-series-entry = #{ $number } **{ $name }** · { series-format } · { $entrants } entrants · won by **{ $champion }** (/series status)
