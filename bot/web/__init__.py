"""The bot's web server (issue #37): the bot API for programs and the game viewer."""
