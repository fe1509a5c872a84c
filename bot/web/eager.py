"""Requests answered in the turn of the event loop that reads them, as far as aiohttp lets.

aiohttp 3.14's server takes a request through several turns of the loop on Python 3.11: the
turn whose ``select`` found the bytes parses them in ``RequestHandler.data_received`` and
wakes the connection's ``start()`` task with a future, whose wakeup ``call_soon`` puts behind
every callback already ready; the next turn runs ``start()``, which makes a task for the
request's handler, whose first step waits for the turn after; when the handler ends,
``start()`` hears of it another turn later. Under load each turn runs the work of every other
request that was ready before, so each turn a request waits for costs it their work. Two
parts take the waits away, for the bot's HTTP server only (:class:`PromptRunner`, used by
:class:`bot.web.server.WebServer`; the status port keeps aiohttp's own):

- **Requests begin at once** (:func:`eager_requests`, Python 3.11; 3.12's eager tasks do it
  there and aiohttp asks for them): a task factory gives aiohttp's per-request task its first
  step when ``start()`` makes it, with that task as the current task and its own context;
  every other task of the bot starts as before. A handler that answers in that first step
  (an order: one statement on the loop's thread) gives ``start()`` a future already done, so
  ``start()`` goes on without waiting a turn for the task to say it has ended (the task still
  takes its step a turn later, which hands the same answer to nobody).
- **A request read is taken at once** (:class:`PromptRequestHandler`): when the connection's
  ``start()`` task is idle, waiting for a request, and no other task is running,
  ``data_received`` runs that task's wakeup itself (in the task's context) instead of letting
  the future schedule it: ``start()`` takes the request, its handler answers and ``start()``
  waits again, all inside the read. Everything else stays aiohttp's: errors (a malformed
  request's 400), keep-alive, pipelined requests (``start()`` takes them one after another,
  as always), closing, shutdown, a request that arrives while ``start()`` is busy (it is
  queued and taken by ``start()`` as before).

What they rely on of aiohttp's and asyncio's private parts, checked against aiohttp 3.14
(``pyproject.toml`` pins ``aiohttp>=3.14.5,<3.15``) and Python 3.11; the tests in
``tests/bot/web/test_eager.py`` and ``test_prompt_requests.py`` fail if any of it changes:

- ``RequestHandler._waiter`` (the future ``start()`` waits on for a request; ``None`` while it
  works) and ``BaseProtocol._loop``; ``RequestHandler._handle_request`` (the coroutine of a
  request's task, told apart by its code object); ``AppRunner._make_server`` and ``Server``'s
  ``_loop`` and ``_kwargs`` (to make connections of this class);
- ``Future._callbacks`` (the ``(callback, context)`` pairs a future will schedule; the one
  callback of a waiting task is its wakeup, which steps the task when called) and
  ``asyncio.tasks._enter_task``/``_leave_task`` (swapped as 3.12's eager start does).

Where any of it is not as expected (another callback on the waiter, a task already running),
the request takes aiohttp's own way.
"""

from __future__ import annotations

import asyncio
import contextvars
import sys
from asyncio.tasks import _enter_task, _leave_task  # swapped as 3.12's eager start does
from collections.abc import Callable, Coroutine, Generator
from types import CodeType
from typing import Any

from aiohttp import web, web_protocol

TaskFactory = Callable[..., "asyncio.Future[Any]"]
Wakeup = tuple[Callable[["asyncio.Future[None]"], object], contextvars.Context]

_STARTED = object()


class _Begun(Coroutine[Any, Any, Any]):
    """A coroutine whose first step has run: the task's first step gives what that step gave
    (the future it waits for, its result or its error); every later step goes to it."""

    def __init__(self, coro: Coroutine[Any, Any, Any]) -> None:
        self._coro = coro
        self._first: Any = _STARTED
        self._error: BaseException | None = None
        self._result: Any = _STARTED
        self.ended = False
        """Whether the coroutine returned in its first step (its result is :attr:`result`)."""
        self.result: Any = None

    def begin(self) -> None:
        try:
            self._first = self._coro.send(None)
        except StopIteration as stop:
            self._result = self.result = stop.value
            self.ended = True
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
    ``codes`` (see the module), and makes every other task as asyncio does. Such a coroutine
    that returns in that step gives a future already done with its result, so its caller's
    ``await`` goes on at once."""

    def factory(
        loop: asyncio.AbstractEventLoop,
        coro: Coroutine[Any, Any, Any],
        *,
        context: contextvars.Context | None = None,
        **kwargs: Any,
    ) -> asyncio.Future[Any]:
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
        if not begun.ended:
            return task
        ended: asyncio.Future[Any] = loop.create_future()
        ended.set_result(begun.result)
        return ended

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


class PromptRequestHandler(web_protocol.RequestHandler):
    """aiohttp's connection, which takes a request in the turn of the loop that read it when
    its ``start()`` task is idle (see the module)."""

    __slots__ = ()

    def data_received(self, data: bytes) -> None:
        waiter = self._waiter
        wakeup = _idle_wakeup(waiter, self._loop)
        if waiter is None or wakeup is None:
            super().data_received(data)
            return
        callback, context = wakeup
        waiter.remove_done_callback(callback)
        try:
            super().data_received(data)
        except BaseException:
            waiter.add_done_callback(callback, context=context)  # aiohttp's way: a turn later
            raise
        if waiter.done():  # a request came (or the connection closes): start() takes it now
            context.run(callback, waiter)
        else:  # not a whole request yet
            waiter.add_done_callback(callback, context=context)


def _idle_wakeup(
    waiter: asyncio.Future[None] | None, loop: asyncio.AbstractEventLoop
) -> Wakeup | None:
    """The wakeup of the ``start()`` task waiting on ``waiter``, when that task may be stepped
    here: it waits, nothing else waits on its future, and no task is running."""
    if waiter is None or waiter.done() or asyncio.current_task(loop) is not None:
        return None
    callbacks = getattr(waiter, "_callbacks", None)
    if not callbacks or len(callbacks) != 1:
        return None
    wakeup: Wakeup = callbacks[0]
    return wakeup


class PromptServer(web.Server):
    """aiohttp's server, whose connections are :class:`PromptRequestHandler`."""

    def __call__(self) -> web_protocol.RequestHandler:
        return PromptRequestHandler(self, loop=self._loop, **self._kwargs)


class PromptRunner(web.AppRunner):
    """aiohttp's runner of an application, serving it with :class:`PromptServer`."""

    __slots__ = ()

    async def _make_server(self) -> web.Server:
        made = await super()._make_server()
        return PromptServer(
            made.request_handler,
            request_factory=made.request_factory,
            handler_cancellation=made.handler_cancellation,
            loop=made._loop,
            **made._kwargs,
        )
