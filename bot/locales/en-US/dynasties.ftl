# /dynasty, /emperor and /leaderboard.

dynasty-house-of = House of { $name }
dynasty-house-number = House { $number }
dynasty-founded = Your dynasty is **{ $name }**. Create an emperor with /emperor create.
dynasty-summary = { $reputation } reputation · { $rank ->
        [0] unranked
       *[other] rank { $rank }
    }
dynasty-living-emperors = Living emperors
dynasty-no-emperors = None: create one with /emperor create.
log-title = Log of { $name }
log-empty = Nothing written yet.

emperor-line = **{ $name }** · { $reputation } reputation · { emperor-status-name }
emperor-born = **{ $name }** is born into **{ $dynasty }**. Take a seat in a tournament with /tournament join.
emperor-list-title = Your emperors
emperor-list-empty = None yet: create one with /emperor create.
emperor-title = { $name } of { $dynasty }
emperor-record = { $reputation } reputation · { emperor-status-name } · { $wins } wins · { $takes } takes
    { $skill }
emperor-membership = { $since } { $reason ->
        [birth] birth
        [conquest] conquest
       *[other] { $reason }
    }{ $tournament ->
        [none] {""}
       *[other] {" "}(tournament #{ $tournament })
    }
emperor-dynasties = Dynasties
emperor-latest = Latest
skill-none = no skill rating yet (it comes with the first serious combat)
skill-rating = skill { NUMBER($estimate, minimumFractionDigits: 1, maximumFractionDigits: 1) } (μ { NUMBER($mu, minimumFractionDigits: 1, maximumFractionDigits: 1) } ± { NUMBER($sigma, minimumFractionDigits: 1, maximumFractionDigits: 1) }, { $combats } { $combats ->
        [one] combat
       *[other] combats
    })

leaderboard-title = Leaderboard of { $scope ->
        [server] this server
       *[world] the world
    }
leaderboard-line = { $rank }. **{ $name }** · { $reputation } reputation · { $emperors } { $emperors ->
        [one] emperor
       *[other] emperors
    }
leaderboard-empty = Nobody here yet.
skill-leaderboard-title = Emperors by skill
skill-leaderboard-line = { $rank }. **{ $name }** of { $dynasty } · { $skill }
skill-leaderboard-empty = No emperor has finished a serious combat yet.
skill-leaderboard-footer = Page { $page } · skill is μ - 3σ, a cautious estimate
retire-ask = Retire **{ $name }**? It dies and cannot come back. { $fate }
retire-done = **{ $name }** has retired. { $fate }
retire-fate-served = It fought serious combats, so the log keeps it, as retired; its { $reputation } reputation leaves your dynasty's sum.
retire-fate-unserved = It never fought a serious combat, so it vanishes from every log.
refusal-retire-not-yours = Only the player who asked can confirm this retirement.
retire-button = Retire
