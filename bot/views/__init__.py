"""What Discord shows: every embed, prompt, text and component the game sends, in the reader's
language, one module per kind of view.

Views are built from the services' answers and hold no state and do no I/O (a board is drawn
by the worker process, :mod:`bot.views.boards`); the cogs send them as answers and the
announcer (:mod:`bot.announcer`) delivers them to channels and DMs. Discord's limits and the
game's colour are :mod:`bot.views.markup`'s, defined there once.
"""
