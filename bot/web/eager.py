"""Requests begin at once: aiohttp's per-request task takes its first step when it is made,
as Python 3.12's eager tasks do, instead of a turn of the event loop later.

aiohttp's server parses a request in ``data_received``, wakes the connection's ``start()``
task (one turn of the loop), which makes a task for the request's handler; on Python 3.11
that task's first step waits for the loop's next turn too. Under load every turn of the loop
runs the handlers of the requests that came before, so each turn a request waits for costs
it their work. On 3.12 aiohttp makes that task with ``eager_start=True``; here
:func:`eager_requests` gives the same to the requests of aiohttp's server alone (every other
task of the bot starts as before): the handler runs until its first real wait inside the
``start()`` task's own step, as the current task of its own, in its own context; the task
then carries on from where the handler stopped.

It relies on ``RequestHandler._handle_request`` (the coroutine of a request's task, told apart
by its code object) and on ``asyncio.tasks._enter_task``/``_leave_task``, checked against
aiohttp 3.14 (``pyproject.toml`` pins ``aiohttp>=3.14.5,<3.15``) and Python 3.11
(``tests/bot/web/test_eager.py``, ``tests/bot/web/test_server_connections.py``).
"""

from __future__ import annotations

import asyncio
import contextvars
import sys
from asyncio.tasks import _enter_task, _leave_task  # swapped as 3.12's eager start does
from collections.abc import Callable, Coroutine, Generator
from types import CodeType
from typing import Any

from aiohttp import web_protocol

TaskFactory = Callable[..., "asyncio.Task[Any]"]

_STARTED = object()


class _Begun(Coroutine[Any, Any, Any]):
    """A coroutine whose first step has run: the task's first step gives what that step gave
    (the future it waits for, its result or its error); every later step goes to it."""

    def __init__(self, coro: Coroutine[Any, Any, Any]) -> None:
        self._coro = coro
        self._first: Any = _STARTED
        self._error: BaseException | None = None
        self._result: Any = _STARTED

    def begin(self) -> None:
        try:
            self._first = self._coro.send(None)
        except StopIteration as stop:
            self._result = stop.value
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as error:  # the task's first step raises it, as the task would
            self._error = error

    def send(self, value: Any) -> Any:
        if self._result is not _STARTED:
            result, self._result = self._result, _STARTED
            raise StopIteration(result)
        if self._error is not None:
            error, self._error = self._error, None
            raise error
        if self._first is not _STARTED:
            first, self._first = self._first, _STARTED
            return first
        return self._coro.send(value)

    def throw(self, *error: Any) -> Any:
        self._first = _STARTED  # cancelled before the task's first step: the handler hears it
        return self._coro.throw(*error)

    def close(self) -> None:
        self._coro.close()

    def __await__(self) -> Generator[Any, None, Any]:
        raise TypeError("a begun request is run by its task, not awaited")


def eager_factory(codes: frozenset[CodeType]) -> TaskFactory:
    """A task factory that gives the first step at once to coroutines of these functions'
    ``codes`` (see the module), and makes every other task as asyncio does."""

    def factory(
        loop: asyncio.AbstractEventLoop,
        coro: Coroutine[Any, Any, Any],
        *,
        context: contextvars.Context | None = None,
        **kwargs: Any,
    ) -> asyncio.Task[Any]:
        if getattr(coro, "cr_code", None) not in codes:
            return asyncio.Task(coro, loop=loop, context=context, **kwargs)
        context = context if context is not None else contextvars.copy_context()
        begun = _Begun(coro)
        task: asyncio.Task[Any] = asyncio.Task(begun, loop=loop, context=context, **kwargs)
        previous = asyncio.current_task(loop)
        if previous is not None:
            _leave_task(loop, previous)
        _enter_task(loop, task)
        try:
            context.run(begun.begin)
        finally:
            _leave_task(loop, task)
            if previous is not None:
                _enter_task(loop, previous)
        return task

    return factory


_REQUESTS = eager_factory(frozenset({web_protocol.RequestHandler._handle_request.__code__}))
"""For what aiohttp's server runs in each request's task."""


def eager_requests(loop: asyncio.AbstractEventLoop) -> None:
    """Let the requests of aiohttp's server begin at once on ``loop`` (see the module). Where
    aiohttp does so itself (Python 3.12 on), or the loop has a task factory of its own, this
    leaves the loop as it is."""
    if sys.version_info >= (3, 12) or loop.get_task_factory() not in (None, _REQUESTS):
        return
    loop.set_task_factory(_REQUESTS)
