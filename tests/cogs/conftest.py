"""Fixtures for cog tests: the fake Discord the real discord.py client runs against."""

from tests.fakediscord.pytest_plugin import fake_discord

__all__ = ["fake_discord"]
