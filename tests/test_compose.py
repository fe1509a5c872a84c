"""The compose files (issue #40 item 1): ``compose.yaml`` runs the bot on SQLite, and
``compose.postgres.yaml`` added to it runs the game on a PostgreSQL container beside it.

No Docker daemon is needed for most of this: the files are parsed and merged as ``docker
compose -f compose.yaml -f compose.postgres.yaml`` merges them, and the environment the bot's
container gets (the image's ``ENV``, then ``.env``, then ``environment:``, each winning over
the one before, with ``${…}`` filled from ``.env``) is given to the bot's own settings
loader, exactly as ``python -m bot run`` reads it in the container. Where ``docker compose``
works, the last test starts the PostgreSQL service and opens its database from the bot's
image over the compose network; elsewhere it is skipped, saying so."""

from __future__ import annotations

import re
import shutil
import subprocess
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.config import Config, read_env_file
from tests.test_container import arguments

ROOT = Path(__file__).resolve().parents[1]
FILES = ("compose.yaml", "compose.postgres.yaml")
PASSWORD = "5f0c2b9e1d7a4c3e8b6a0f9d2e4c1b7a"
TOKEN = "MTEyMzQ1Njc4OTAxMjM0NTY3.GaBcDe.a-token-for-the-compose-test-only"
_VARIABLE = re.compile(r"\$\{(\w+)(?::\?([^}]*)|:-([^}]*))?\}")


def load(name: str) -> dict[str, Any]:
    loaded = yaml.safe_load((ROOT / name).read_text())
    assert isinstance(loaded, dict)
    return loaded


def merge(base: Any, override: Any) -> Any:
    """Compose's merge for what these files use: mappings key by key, the rest replaced."""
    if isinstance(base, Mapping) and isinstance(override, Mapping):
        merged = dict(base)
        for key, value in override.items():
            merged[key] = merge(base[key], value) if key in base else value
        return merged
    return override


def project(*names: str) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for name in names:
        merged = merge(merged, load(name))
    return merged


def interpolate(value: str, variables: Mapping[str, str]) -> str:
    """``${NAME}``, ``${NAME:-default}`` and ``${NAME:?message}`` as compose fills them."""

    def fill(found: re.Match[str]) -> str:
        name, required, default = found[1], found[2], found[3]
        if variables.get(name):
            return variables[name]
        if required is not None:
            raise ValueError(f"required variable {name} is missing a value: {required}")
        return default or ""

    return _VARIABLE.sub(fill, value)


def image_environment() -> dict[str, str]:
    """The Dockerfile's last stage's ``ENV`` (``KEY=VALUE`` pairs)."""
    found: dict[str, str] = {}
    for rest in arguments("ENV")[1:]:  # the first is the build stage's
        for pair in rest.split():
            key, _, value = pair.partition("=")
            found[key] = value
    return found


def container_environment(compose: Mapping[str, Any], dotenv: Path) -> dict[str, str]:
    """What the bot's process sees in its container: image ENV < env_file < environment."""
    bot = compose["services"]["bot"]
    assert bot["env_file"] == ".env"
    variables = read_env_file(dotenv)
    environment = {**image_environment(), **variables}
    for key, value in (bot.get("environment") or {}).items():
        environment[key] = interpolate(str(value), variables)
    return environment


def write_dotenv(folder: Path, **settings: str) -> Path:
    path = folder / ".env"
    path.write_text("".join(f"{key}={value}\n" for key, value in settings.items()))
    return path


def test_the_bot_alone_keeps_the_game_in_sqlite_on_its_volume(tmp_path: Path) -> None:
    compose = project("compose.yaml")
    assert set(compose["services"]) == {"bot"}
    environment = container_environment(compose, write_dotenv(tmp_path, DISCORD_TOKEN=TOKEN))
    config = Config.load(environment, tmp_path / "no-such-file")
    assert config.database_url is None and config.database_path == Path("/data/emperors.db")
    assert config.backup_dir == Path("/data/backups") and not config.unused_backup_dir
    text = (ROOT / "compose.yaml").read_text()
    assert "does not exist yet" not in text and "compose.postgres.yaml" in text


def test_the_postgresql_service_is_healthchecked_kept_on_a_volume_and_waited_for() -> None:
    compose = project(*FILES)
    postgres, bot = compose["services"]["postgres"], compose["services"]["bot"]
    assert re.fullmatch(r"postgres:1[4-9](\.\d+)?", postgres["image"])
    test = " ".join(postgres["healthcheck"]["test"])
    settings = postgres["environment"]
    assert "pg_isready" in test
    assert f"--username={settings['POSTGRES_USER']}" in test
    assert f"--dbname={settings['POSTGRES_DB']}" in test
    [volume] = postgres["volumes"]
    name, mount = volume.split(":")
    assert mount == "/var/lib/postgresql/data" and name in compose["volumes"]
    assert "ports" not in postgres  # reached by the bot over the compose network only
    assert bot["depends_on"]["postgres"]["condition"] == "service_healthy"
    for service in (bot, postgres):
        options = service["logging"]["options"]
        assert service["logging"]["driver"] == "json-file"
        assert options["max-size"] and int(options["max-file"]) >= 1
    assert "POSTGRES_PASSWORD" in settings["POSTGRES_PASSWORD"]  # from .env, never written here


def test_the_bot_on_postgresql_gets_settings_its_own_loader_accepts(tmp_path: Path) -> None:
    compose = project(*FILES)
    dotenv = write_dotenv(tmp_path, DISCORD_TOKEN=TOKEN, POSTGRES_PASSWORD=PASSWORD)
    environment = container_environment(compose, dotenv)
    config = Config.load(environment, tmp_path / "no-such-file")
    postgres = compose["services"]["postgres"]["environment"]
    user, database = postgres["POSTGRES_USER"], postgres["POSTGRES_DB"]
    password = interpolate(postgres["POSTGRES_PASSWORD"], read_env_file(dotenv))
    assert config.database_url == f"postgresql://{user}:{password}@postgres:5432/{database}"
    assert password == PASSWORD
    assert config.backup_dir is None and not config.unused_backup_dir  # no warning at start
    assert config.discord_token == TOKEN and config.metrics_port == 9464


def test_without_a_password_compose_refuses_to_start(tmp_path: Path) -> None:
    compose = project(*FILES)
    with pytest.raises(ValueError, match=re.escape("put POSTGRES_PASSWORD=... in .env")):
        container_environment(compose, write_dotenv(tmp_path, DISCORD_TOKEN=TOKEN))


def test_database_url_in_env_with_the_sqlite_file_starts_instead_of_crash_looping(
    tmp_path: Path,
) -> None:
    """What the issue met: DATABASE_URL added to .env while the image and compose.yaml set
    BACKUP_DIR, which .env cannot override: a refusal at every start, a restart loop. Now the
    settings load (the bot warns once that BACKUP_DIR takes no copy)."""
    url = f"postgresql://emperors:{PASSWORD}@db.example.org:5432/emperors"
    dotenv = write_dotenv(tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_URL=url)
    config = Config.load(container_environment(project("compose.yaml"), dotenv), tmp_path / "x")
    assert config.database_url == url and config.unused_backup_dir


def docker_compose() -> list[str] | None:
    docker = shutil.which("docker")
    if docker is None:
        return None
    done = subprocess.run(
        [docker, "compose", "version"], capture_output=True, text=True, timeout=60
    )
    if done.returncode != 0:
        return None
    info = subprocess.run([docker, "info"], capture_output=True, text=True, timeout=60)
    return [docker, "compose"] if info.returncode == 0 else None


OPEN_THE_DATABASE = (
    "import asyncio, os\n"
    "from data.backends import open_database\n"
    "async def main():\n"
    "    database = await open_database(os.environ['DATABASE_URL'])\n"
    "    print('schema', await database.schema_version())\n"
    "    await database.close()\n"
    "asyncio.run(main())\n"
)


@pytest.mark.slow
@pytest.mark.processes
def test_with_docker_the_bot_image_opens_the_postgresql_service(tmp_path: Path) -> None:
    compose = docker_compose()
    if compose is None:
        pytest.skip("docker compose with a running Docker daemon is not available here")
    # A copy of what the image is built from, with a .env of the test's own.
    for name in ("Dockerfile", ".dockerignore", "pyproject.toml", "setup.py", "README.md", *FILES):
        shutil.copy2(ROOT / name, tmp_path / name)
    for package in ("engine", "data", "bot", "cogs"):
        shutil.copytree(
            ROOT / package,
            tmp_path / package,
            ignore=shutil.ignore_patterns("__pycache__", "_compiled"),
        )
    write_dotenv(tmp_path, DISCORD_TOKEN=TOKEN, POSTGRES_PASSWORD=PASSWORD)
    name = f"emperors-test-{uuid.uuid4().hex[:8]}"
    # The image gets a name of the test's own: a developer's emperors-of-the-dynasty stays.
    (tmp_path / "compose.test.yaml").write_text(f"services:\n  bot:\n    image: {name}\n")
    base = [
        *compose,
        "--project-name",
        name,
        *(part for file in (*FILES, "compose.test.yaml") for part in ("-f", file)),
    ]

    def run(*words: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*base, *words], cwd=tmp_path, capture_output=True, text=True, timeout=timeout
        )

    try:
        checked = run("config", "--quiet")
        assert checked.returncode == 0, checked.stderr
        started = run("up", "--detach", "--wait", "postgres")
        assert started.returncode == 0, started.stderr
        opened = run(
            "run", "--rm", "--no-deps", "--build", "--entrypoint", "python", "bot",
            "-c", OPEN_THE_DATABASE,
        )  # fmt: skip
        assert opened.returncode == 0, opened.stderr
        from data.schema import latest_version

        assert f"schema {latest_version()}" in opened.stdout
    finally:
        run("down", "--volumes", timeout=300)
        subprocess.run(
            [compose[0], "image", "rm", "--force", name], capture_output=True, timeout=120
        )
