"""The systemd unit docs/deployment.md gives runs the bot unprivileged, on a read-only system,
writing only its data folder, and the install steps create that user and folder (issue #40
item 10). ``systemd-analyze verify`` checks the unit where systemd's tools are installed."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = (ROOT / "docs" / "deployment.md").read_text()
UNIT = re.search(r"```ini\n# /etc/systemd/system/emperors\.service\n(.*?)```", DOCS, re.S)


def directives() -> dict[str, str]:
    assert UNIT is not None, "the unit is in docs/deployment.md"
    found = {}
    for line in UNIT[1].splitlines():
        key, equals, value = line.partition("=")
        if equals:
            found[key] = value
    return found


def test_the_unit_is_unprivileged_and_writes_only_its_data_folder() -> None:
    unit = directives()
    assert unit["User"] == unit["Group"] == "emperors"
    assert unit["NoNewPrivileges"] == "yes"
    assert unit["ProtectSystem"] == "strict"
    assert unit["ReadWritePaths"] == unit["WorkingDirectory"] == "/var/lib/emperors"
    assert unit["ExecStart"] == "/opt/emperors/venv/bin/emperors run"
    assert unit["RestartPreventExitStatus"] == "2"


def test_the_install_steps_create_the_user_the_folder_and_the_private_env_file() -> None:
    steps = DOCS[DOCS.index("## Install for production") : DOCS.index("## Upgrade and roll back")]
    assert "useradd --system --home-dir /var/lib/emperors" in steps
    assert "install -d -o emperors -g emperors -m 700 /var/lib/emperors" in steps
    assert "install -o emperors -g emperors -m 600 /dev/null /var/lib/emperors/.env" in steps
    assert "/opt/emperors/venv/bin/pip install /opt/emperors/src" in steps


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    assert UNIT is not None
    command = Path(sys.executable).with_name("emperors")
    assert command.is_file(), "reinstall the project (make .venv/.installed) for `emperors`"
    unit = tmp_path / "emperors.service"
    unit.write_text(UNIT[1].replace("/opt/emperors/venv/bin/emperors", str(command)))
    done = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert [line for line in done.stderr.splitlines() if unit.name in line] == []
    assert done.returncode == 0, done.stderr
