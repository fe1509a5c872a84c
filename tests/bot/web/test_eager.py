"""Requests begin at once (bot/web/eager.py): the first step of a request's task runs when the
task is made, as the task's own, in its own context; the task then goes on as any task."""

from __future__ import annotations

import asyncio
import contextvars
import sys
from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiohttp import web

from bot.web.eager import eager_factory, eager_requests
from bot.web.server import Mount, WebServer

pytestmark = pytest.mark.skipif(
    sys.version_info >= (3, 12), reason="aiohttp starts its requests' tasks eagerly itself"
)

seen: contextvars.ContextVar[str] = contextvars.ContextVar("seen", default="caller's")
current: list[asyncio.Task[object] | None] = []
"""The current task as each handler saw it."""


async def handled(steps: list[str], wait: asyncio.Future[str] | None = None) -> str:
    """What a request's handler does: notes its steps, may wait, and sets a context variable."""
    steps.append("began")
    seen.set("handler's")
    current.append(asyncio.current_task())
    if wait is not None:
        try:
            steps.append(await wait)
        except asyncio.CancelledError:
            steps.append("cancelled")
            raise
    steps.append("ended")
    return "answer"


async def elsewhere(steps: list[str]) -> None:
    steps.append("began")


@pytest.fixture
async def eager_loop() -> AsyncIterator[asyncio.AbstractEventLoop]:
    loop = asyncio.get_running_loop()
    current.clear()
    factory = loop.get_task_factory()
    loop.set_task_factory(eager_factory(frozenset({handled.__code__})))
    try:
        yield loop
    finally:
        loop.set_task_factory(factory)


async def test_a_request_runs_until_its_first_wait_when_its_task_is_made(
    eager_loop: asyncio.AbstractEventLoop,
) -> None:
    steps: list[str] = []
    caller = asyncio.current_task()
    task = eager_loop.create_task(handled(steps))
    assert steps == ["began", "ended"]  # before the loop turned
    assert current == [task]  # the handler ran as its own task
    assert asyncio.current_task() is caller  # the caller is the current task again
    assert seen.get() == "caller's"  # the handler's context is its own
    assert await task == "answer"


async def test_other_coroutines_start_at_the_loops_next_turn(
    eager_loop: asyncio.AbstractEventLoop,
) -> None:
    steps: list[str] = []
    task = eager_loop.create_task(elsewhere(steps))
    assert steps == []
    await task
    assert steps == ["began"]


async def test_a_request_that_waits_goes_on_in_its_task(
    eager_loop: asyncio.AbstractEventLoop,
) -> None:
    steps: list[str] = []
    wait: asyncio.Future[str] = eager_loop.create_future()
    task = eager_loop.create_task(handled(steps, wait))
    assert steps == ["began"]
    await asyncio.sleep(0)
    wait.set_result("waited")
    assert await task == "answer"
    assert steps == ["began", "waited", "ended"]
    assert current == [task]


async def test_a_request_cancelled_before_its_tasks_first_step_hears_it(
    eager_loop: asyncio.AbstractEventLoop,
) -> None:
    steps: list[str] = []
    wait: asyncio.Future[str] = eager_loop.create_future()
    task = eager_loop.create_task(handled(steps, wait))
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert task.cancelled()
    assert steps == ["began", "cancelled"]  # the handler heard it where it waited


async def test_a_request_that_fails_at_once_fails_its_task(
    eager_loop: asyncio.AbstractEventLoop,
) -> None:
    steps: list[str] = []
    failed: asyncio.Future[str] = eager_loop.create_future()
    failed.set_exception(LookupError("no such thing"))
    task = eager_loop.create_task(handled(steps, failed))
    with pytest.raises(LookupError, match="no such thing"):
        await task


async def test_the_bots_server_begins_its_requests_at_once() -> None:
    """The server the bot runs (``API_PORT``) sets it on its loop, and answers as before."""
    loop = asyncio.get_running_loop()
    factory = loop.get_task_factory()
    began: list[bool] = []

    async def hello(request: web.Request) -> web.Response:
        task = asyncio.current_task()
        assert task is not None
        # A request task's coroutine is the begun one: it took its first step when made.
        began.append(type(task.get_coro()).__name__ == "_Begun")
        return web.json_response({"hello": seen.get()})

    server = WebServer("127.0.0.1", 0, [Mount([web.get("/api/v1/hello", hello)])])
    await server.start()
    try:
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"http://127.0.0.1:{server.port}/api/v1/hello") as response,
        ):
            assert response.status == 200
            assert await response.json() == {"hello": "caller's"}
        assert began == [True]
    finally:
        await server.stop()
        loop.set_task_factory(factory)


async def test_a_loop_with_a_task_factory_of_its_own_keeps_it() -> None:
    loop = asyncio.get_running_loop()
    factory = loop.get_task_factory()

    def own(
        loop: asyncio.AbstractEventLoop, coro: object, **kwargs: object
    ) -> asyncio.Task[object]:
        return asyncio.Task(coro, loop=loop, **kwargs)  # type: ignore[arg-type]

    loop.set_task_factory(own)  # type: ignore[arg-type]
    try:
        eager_requests(loop)
        assert loop.get_task_factory() is own
    finally:
        loop.set_task_factory(factory)
