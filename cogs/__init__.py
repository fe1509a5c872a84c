"""Thin Discord adapters: slash commands, views and embeds over the services in ``bot``."""
