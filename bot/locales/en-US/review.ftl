# The coach: /tournament review (issue #39 item 5).
review-intro = Your review of tournament #{ $tournament }: the hard computer replayed the { $turns ->
    [one] turn
   *[other] { $turns } turns
} you ordered, each with everyone else ordering what they really did. { $shown ->
    [0] It would not have done much better on any of them: well played.
    [one] Here is the turn that cost you the most.
   *[other] Here are the { $shown } turns that cost you the most, costliest first.
}
review-turn = **Turn { $turn }**: you ordered { $played }; the hard computer would have ordered { $suggested }.
review-move = { $origin } → { $destination }
review-pass = a pass
review-would-win = You would have won the combat on that turn.
review-would-survive = You would not have been defeated on that turn.
review-emperors = You would have kept { $suggested } { $suggested ->
    [one] emperor
   *[other] emperors
} instead of { $played }.
review-pieces = You would have had { $suggested } { $suggested ->
    [one] piece
   *[other] pieces
} instead of { $played }.
review-rivals = Your rivals would have had { $suggested } { $suggested ->
    [one] piece
   *[other] pieces
} instead of { $played }.
review-worth = Your position would have been worth { NUMBER($pawns, maximumFractionDigits: 1) } { $pawns ->
    [one] pawn
   *[other] pawns
} more after the turn.
review-arrows = On each board: your order in your colour, as it really went; the hard computer's as a dashed white arrow with a ring on where it would have gone. A position's worth is the computers' own judgement: a pawn is 1, an emperor about 9.
review-board-title = Turn { $turn }
refusal-review-not-over = The combat of tournament #{ $tournament } is not over: a review opens once it has ended.
refusal-review-not-yours = You did not play in tournament #{ $tournament }: a review is for the players who fought in it, each their own.
