"""Plugins for the whole suite: the ``fake_discord`` fixture (a fake Discord per test)."""

pytest_plugins = ["tests.fakediscord.pytest_plugin"]
