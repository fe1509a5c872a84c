# Boards for every eye (issue #38, item 8): the alt text of every board picture
# (bot/views/alt_text.py) and the board palettes (/palette).

alt-board = Board { $caption }.
alt-secret = The pieces are not shown: every deployment stays secret until all are revealed.
alt-dynasty = { $name } ({ $letter }): { $pieces }.
alt-emperor = emperor on { $tile }
alt-emperor-counted = { $emperors ->
        [0] no emperor
        [one] an emperor
       *[other] { $emperors } emperors
    }
alt-pawns = { $pawns ->
        [0] no pawns
        [one] 1 pawn on { $tiles }
       *[other] { $pawns } pawns on { $tiles }
    }
alt-pawns-counted = { $pawns ->
        [0] no pawns
        [one] 1 pawn
       *[other] { $pawns } pawns
    }
alt-experienced = { $tile } (experience { $experience })
alt-painted = { $tiles ->
        [one] 1 tile painted
       *[other] { $tiles } tiles painted
    }
alt-defeated = defeated
alt-grey = { $grey ->
        [one] 1 grey pawn on { $tiles }
       *[other] { $grey } grey pawns on { $tiles }
    }
alt-grey-counted = { $grey ->
        [one] 1 grey pawn
       *[other] { $grey } grey pawns
    }
alt-more = { $count } more
alt-happened = What happened: { $events }.
alt-home-zone = Your home zone: { $tiles }.
alt-mountains = { $mountains ->
        [one] 1 mountain on { $tiles }
       *[other] { $mountains } mountains on { $tiles }
    }
alt-replay = Replay of { $caption }, { $turns ->
        [one] 1 turn
       *[other] { $turns } turns
    }, one frame a turn.

palette-name = { $palette ->
        [colour-blind] colour-blind
       *[standard] standard
    }
palette-about = { $palette ->
        [colour-blind] Colours told apart under every common colour-vision deficiency, and on each dynasty's pieces a pattern besides its letter.
       *[standard] Okabe-Ito colours, and on each piece its dynasty's letter.
    }
palette-own-chosen = Your boards (your prompts by DM, /order, /tournament status, /deploy) are now drawn in the { $palette } palette. { $about }
palette-server-chosen = The boards posted in this server's channels are now drawn in the { $palette } palette. { $about }
palette-shown = Your boards: the { $own } palette. This server's channels: the { $server } palette. Choose with /palette mine or, as a server manager, /palette server.
palette-shown-dm = Your boards: the { $own } palette. Choose with /palette mine.
refusal-palette-choices = There is no such palette. Choose one of: { $choices }.
refusal-palette-server-needs-server = A server's palette is chosen in that server: use this command in one of its channels.
