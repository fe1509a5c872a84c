"""The reverse-proxy examples of docs/deployment.md, run as written (issue #37): nginx and
Caddy in front of the programs' API, with TLS, pass a program's event stream on line by line
and its orders through. Each example is read from the document itself, so the text a host
copies is the text tested; only the address, the port and the certificate are local.

Skipped, saying so, where nginx or Caddy is not installed (.ci/run installs both)."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import socket
import subprocess
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import aiohttp
import pytest

from bot.services import Services
from tests.bot.web.programs import Client, program_combat, register, serving, stream

DEPLOYMENT = Path(__file__).resolve().parents[3] / "docs" / "deployment.md"
ADA, BABBAGE = 101, 102
SITE = "emperors.example"


def example(language: str) -> str:
    """The one fenced block of ``language`` in docs/deployment.md."""
    blocks = re.findall(rf"```{language}\n(.*?)```", DEPLOYMENT.read_text(), re.DOTALL)
    assert len(blocks) == 1, f"docs/deployment.md should show one {language} example"
    block: str = blocks[0]
    return block


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def self_signed(folder: Path) -> tuple[Path, Path]:
    certificate, key = folder / "fullchain.pem", folder / "privkey.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-subj", "/CN=localhost", "-keyout", str(key), "-out", str(certificate)),
        ],
        check=True,
        capture_output=True,
    )
    return certificate, key


def nginx_config(folder: Path, listen: int, api: int) -> Path:
    """The documented server block, listening on a local port with a throw-away
    certificate, inside the least of a main configuration a user's nginx needs."""
    server = example("nginx")
    assert "listen 443 ssl;" in server and "proxy_pass http://127.0.0.1:8080;" in server
    certificate, key = self_signed(folder)
    server = (
        server.replace("listen 443 ssl;", f"listen 127.0.0.1:{listen} ssl;")
        .replace("127.0.0.1:8080", f"127.0.0.1:{api}")
        .replace(f"/etc/letsencrypt/live/{SITE}/fullchain.pem", str(certificate))
        .replace(f"/etc/letsencrypt/live/{SITE}/privkey.pem", str(key))
    )
    temporary = folder / "temporary"
    temporary.mkdir(mode=0o777)
    temporary.chmod(0o777)  # nginx's workers may run as another user
    config = folder / "nginx.conf"
    config.write_text(
        f"daemon off;\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'} warn;\n"
        "events {}\nhttp {\n    access_log off;\n"
        f"    client_body_temp_path {temporary}/body;\n"
        f"    proxy_temp_path {temporary}/proxy;\n"
        f"    fastcgi_temp_path {temporary}/fastcgi;\n"
        f"    uwsgi_temp_path {temporary}/uwsgi;\n"
        f"    scgi_temp_path {temporary}/scgi;\n"
        f"{server}}}\n"
    )
    return config


def caddy_config(folder: Path, listen: int, api: int) -> Path:
    """The documented site on a local port, with Caddy's own certificate authority in place
    of Let's Encrypt, its admin port off, its files in ``folder``, and a short grace on
    stopping (Caddy otherwise waits for the open stream before it exits)."""
    site = example("caddyfile")
    assert site.startswith(f"{SITE} {{") and "127.0.0.1:8080" in site
    site = site.replace(f"{SITE} {{", f"https://localhost:{listen} {{\n\ttls internal", 1)
    config = folder / "Caddyfile"
    config.write_text(
        "{\n\tadmin off\n\tgrace_period 1s\n\tskip_install_trust\n\tauto_https disable_redirects\n"
        f"\tstorage file_system {folder / 'storage'}\n}}\n\n"
        + site.replace("127.0.0.1:8080", f"127.0.0.1:{api}")
    )
    return config


def proxy_command(proxy: str, folder: Path, listen: int, api: int) -> list[str]:
    if proxy == "nginx":
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        return [nginx, "-c", str(nginx_config(folder, listen, api)), "-e", "stderr"]
    config = caddy_config(folder, listen, api)
    return ["caddy", "run", "--config", str(config), "--adapter", "caddyfile"]


def installed(proxy: str) -> bool:
    if proxy == "nginx":
        return shutil.which("nginx") is not None or os.access("/usr/sbin/nginx", os.X_OK)
    return shutil.which("caddy") is not None


@contextmanager
def running(command: list[str], folder: Path) -> Iterator[subprocess.Popen[bytes]]:
    environment = os.environ | {"HOME": str(folder), "XDG_DATA_HOME": str(folder)}
    environment["XDG_CONFIG_HOME"] = str(folder)
    process = subprocess.Popen(
        command, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def answering(
    base: str, session: aiohttp.ClientSession, process: subprocess.Popen[bytes]
) -> None:
    """Wait for the proxy to answer (any status) on its port."""
    async with asyncio.timeout(20):
        while True:
            if process.poll() is not None:
                assert process.stderr is not None
                raise AssertionError(process.stderr.read().decode(errors="replace"))
            try:
                async with session.get(base + "/api/v1/me"):
                    return
            except aiohttp.ClientError:
                await asyncio.sleep(0.1)


@asynccontextmanager
async def through(proxy: str, api_port: int, folder: Path) -> AsyncIterator[Client]:
    """A client that reaches the API only through ``proxy``, over TLS."""
    listen = free_port()
    with running(proxy_command(proxy, folder, listen, api_port), folder) as process:
        connector = aiohttp.TCPConnector(ssl=False)  # the certificate is a throw-away one
        async with aiohttp.ClientSession(connector=connector) as session:
            client = Client(session, listen)
            client.base = f"https://localhost:{listen}"
            await answering(client.base, session, process)
            yield client


@pytest.mark.parametrize("proxy", ["nginx", "caddy"])
async def test_the_documented_proxy_passes_streams_and_orders(
    proxy: str, services: Services, tmp_path: Path
) -> None:
    if not installed(proxy):
        pytest.skip(f"{proxy} is not installed (.ci/run installs it with apt-get)")
    (ada, ada_token), (babbage, babbage_token) = [
        await register(services, ADA, "Analytical"),
        await register(services, BABBAGE, "Difference"),
    ]
    tournament = await program_combat(services, [ada, babbage])
    async with serving(services) as (server, _):
        assert server.port is not None
        async with through(proxy, server.port, tmp_path) as client:
            status, me, _ = await client.call("GET", "/api/v1/me", ada_token)
            assert status == 200 and me["program"]["name"] == "Analytical"
            async with stream(client, ada_token) as events:
                # Each line arrives as written: a buffering proxy would hold these small
                # lines (and every heartbeat) back until its buffer filled.
                assert (await events.next(timeout=3))["type"] == "seated"
                assert (await events.next(timeout=3))["type"] == "turn"
                await events.beat(timeout=3)
                for token in (ada_token, babbage_token):
                    status, found = await client.order(
                        token, tournament.id, {"turn": 1, "pass": True}
                    )
                    assert status == 200 and found["accepted"] is True
                resolved = await events.until(lambda e: e["type"] == "resolved", timeout=3)
                assert resolved["turn"] == 1
