"""The application: services, scheduling, board rendering, the Discord client and ``python -m bot``."""
