"""Plugins for the whole suite: the ``fake_discord`` fixture (a fake Discord per test) and the
session's PostgreSQL cluster (``postgres_cluster``, ``pg_store``)."""

pytest_plugins = ["tests.fakediscord.pytest_plugin", "tests.pgfixtures"]
