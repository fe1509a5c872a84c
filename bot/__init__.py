"""The application: services, scheduling, board rendering, the Discord client and ``python -m bot``.

``python -m bot …`` (and ``python -m bot.worker``) put the folder it was started from first on
``sys.path``: a host who starts it from a folder that happens to hold a ``data/``, ``engine/``
or ``cogs/`` folder would have Python import those instead of the game's packages (a traceback
at every start, a service manager restarting it forever). So when this package is being run
with ``-m`` (``sys.argv[0]`` is ``"-m"`` while Python looks for the module, as documented for
``-m``), the starting folder leaves ``sys.path`` before anything imports ``data``, ``engine`` or
``cogs`` — unless it is the project's own folder, where it is what finds this very package.
The ``emperors`` command (``[project.scripts]``) never puts the starting folder on the path.
"""

import os
import sys
from pathlib import Path


def _forget_starting_folder() -> None:
    """Drop the starting folder from ``sys.path`` when it is not the project's folder."""
    project = Path(__file__).resolve().parent.parent
    starting = Path.cwd().resolve()
    if starting == project:
        return
    sys.path[:] = [
        entry
        for entry in sys.path
        if entry not in ("", ".", os.curdir) and Path(entry).resolve() != starting
    ]


if sys.argv[:1] == ["-m"]:
    _forget_starting_folder()
