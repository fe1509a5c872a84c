"""The daily backup of the database, into ``BACKUP_DIR``, keeping the newest ``BACKUP_KEEP``.

Once an hour the bot looks for today's backup (``<database name>-YYYY-MM-DD.db``, by UTC
date) and takes it if it is missing, in a thread (SQLite's backup API releases the GIL while
it copies), so players' clicks are not held up. Older backups beyond the newest
``BACKUP_KEEP`` are deleted; other files in the folder are never touched. A backup that
fails is logged and tried again at the next check.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from pathlib import Path

from data.backup import back_up, prune
from data.outages import is_outage

log = logging.getLogger(__name__)

CHECK_EVERY = 3600.0
"""Seconds between two looks for today's backup."""


class DailyBackups:
    def __init__(
        self,
        database: Path,
        folder: Path,
        keep: int,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.database = database
        self.folder = folder
        self.keep = keep
        self.clock = clock
        self.prefix = f"{database.stem}-"

    def today(self) -> Path:
        """Where today's backup goes (UTC date)."""
        day = time.strftime("%Y-%m-%d", time.gmtime(self.clock()))
        return self.folder / f"{self.prefix}{day}.db"

    async def take_if_due(self) -> Path | None:
        """Take today's backup unless it exists; prune the old ones. The new backup, if any."""
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        target = self.today()
        taken = None
        if not target.exists():
            began = time.perf_counter()
            await asyncio.to_thread(back_up, self.database, target)
            log.info("Backed up the database to %s in %.1f s", target, time.perf_counter() - began)
            taken = target
        for old in prune(self.folder, self.prefix, self.keep):
            log.info("Deleted the old backup %s (BACKUP_KEEP=%d)", old, self.keep)
        return taken

    async def run_forever(self) -> None:
        while True:
            try:
                await self.take_if_due()
            except Exception as error:
                if not is_outage(error):  # an outage is logged once, by the database
                    log.exception("The daily backup failed; trying again in an hour")
            await asyncio.sleep(CHECK_EVERY)
