"""The bot's own HTTP server (issue #37): the programs' API and the game viewer, served by the
bot process on ``API_PORT`` (:mod:`bot.web.server`). ``/metrics`` and ``/healthz`` stay on
``METRICS_PORT`` (:mod:`bot.status`)."""
