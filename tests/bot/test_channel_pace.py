"""The bot's posts in a channel within Discord's rate (issue #35 item 6): every post waits its
turn in its channel's queue, in order, none dropped, and other channels never wait for it. On a
clock that moves only when the pace sleeps, so what is checked is the schedule, not a speed."""

from __future__ import annotations

import asyncio

from bot.delivery import CHANNEL_MESSAGES, CHANNEL_SECONDS, ChannelPace


class VirtualTime:
    """A clock the pace reads, moved only by the pace's sleeps and the posts' length (one clock
    for every channel: a sleep moves it for all)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)


async def test_a_channel_gets_five_posts_every_five_seconds_in_order_and_others_wait_not() -> None:
    time = VirtualTime()
    pace = ChannelPace(clock=time, sleep=time.sleep)
    posted: list[tuple[str, int, float]] = []

    async def post(channel: int, name: str, number: int) -> None:
        async with pace.turn(channel):
            posted.append((name, number, time.now))
            time.now += 0.1  # Discord takes a moment to answer

    busy = [post(1, "busy", number) for number in range(23)]
    quiet = [post(2, "quiet", number) for number in range(3)]
    await asyncio.gather(*busy[:12], *quiet, *busy[12:])

    in_busy = [(number, at) for name, number, at in posted if name == "busy"]
    assert [number for number, _ in in_busy] == list(range(23))  # every post, in order
    times = [at for _, at in in_busy]
    for first, later in zip(times, times[CHANNEL_MESSAGES:], strict=False):
        assert later - first >= CHANNEL_SECONDS  # never a sixth within five seconds
    assert times[-1] <= (23 // CHANNEL_MESSAGES) * (CHANNEL_SECONDS + 0.1) + 1  # no idling
    # the quiet channel posted before the busy one had to wait: never queued behind it
    order = [(name, number) for name, number, _ in posted]
    last_quiet = max(index for index, (name, _) in enumerate(order) if name == "quiet")
    assert last_quiet < order.index(("busy", CHANNEL_MESSAGES))


async def test_a_failed_post_still_counts_and_frees_the_turn() -> None:
    time = VirtualTime()
    pace = ChannelPace(messages=2, seconds=5.0, clock=time, sleep=time.sleep)
    started: list[float] = []

    async def post(fails: bool) -> None:
        async with pace.turn(7):
            started.append(time.now)
            if fails:
                raise ConnectionError("Discord hiccuped")

    results = await asyncio.gather(
        post(True), post(False), post(True), post(False), return_exceptions=True
    )
    assert [isinstance(result, ConnectionError) for result in results] == [
        True,
        False,
        True,
        False,
    ]
    assert started == [0.0, 0.0, 5.0, 5.0]
