# The words on the board's picture (bot/render): the legend, the key to the last turn's marks,
# the titles of a replay's frames.

board-pieces = { $pieces } { $pieces ->
        [one] piece
       *[other] pieces
    }
board-out = { $grey ->
        [0] out
       *[other] out, { $grey } grey
    }
board-key-moved = moved
board-key-stopped = stopped short
board-key-taken = taken
board-key-clash = clash
board-start = start
board-deploying = deploying
board-revealed = the deployments revealed
board-title-deployment = #{ $tournament } { $battlefield } - your deployment
board-turn = turn { $turn }
board-caption = { $title } - { $heading }
# Section 10 of RULES.md: the marks of a take attempt and of a crowning, the terrain, painting.
board-key-failed = failed take
board-key-mutual = destroyed each other
board-key-crowned = crowned
board-key-mountain = mountain
board-key-monument = monument
board-key-fortress = fortress
board-key-home = home zone
board-key-painted = painted
board-painted = { $tiles } { $tiles ->
        [one] tile
       *[other] tiles
    }
board-mountains = { $mountains } { $mountains ->
        [one] mountain
       *[other] mountains
    }
# A seat a regent plays (R-T11), in the legend before its count: short, so it fits a narrow board.
board-regent = (bot)
