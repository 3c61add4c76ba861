"""Load test of the Discord adapter's message path: many channels of many servers answered at once.

Messages are simulated gateway events (discord.py's own Message objects on channels that record what is posted,
tests/discord_world.py) handed to memory.bot.discord.message_in_turn, the code the bot's on_message runs: the
channel's turn in the process's lanes (LOREKEEPER_DISCORD_CONCURRENCY at once, default 8), the reply pipeline in
the adapter's database threads against this database, a local HTTP server playing the reply model that answers
each call after 200 ms, and the reply posted. Ten servers of the Bench Discord team (guilds 100000000000000200 …
209, created when missing, 30 facts each), five reply channels each: 50 channels.

Figures:

- discord.replies rps=<x> p95_ms=<y>: open loop. Messages arrive at a constant OFFERED_RPS (22 a second, a tenth above the
  target) for SECONDS (20), one channel after the other; a reply's time runs from its message's arrival to its
  reply posted (turn, database, the model's 200 ms), so time waiting for a slot counts. rps is the replies posted
  per second over the run. Target: at least 20 replies a second with p95 ≤ 400 ms.
- discord.saturated rps=<x> p95_ms=<y>: closed loop, every one of the 50 channels sending its next message as soon
  as its reply is posted, for SECONDS: the most the process answers (about concurrency / 0.2 s at best), and the
  time a reply takes when 50 channels wait for 8 slots.

On 2026-12-03 (`make bench BENCH=discord`, the machine's 2 cores at a load average of 4 to 6 from other work):
19.1 replies a second, p95 3.3 s, 20.5 saturated (p95 3.1 s): short of the target, as the process spent 33 ms of CPU
per reply, three quarters of it building a new TLS context for each model call (memory.clients.chat calls
httpx.post, which makes a client and loads the CA bundle every time, plain HTTP or not). The same bench with one
shared httpx client (an experiment, not this code; load average 6 to 7): 21.8 replies a second of the 22 offered,
p95 271 ms, 30.4 saturated, 11 ms of CPU per reply.

Every exchange the run recorded is deleted afterwards (the facts stay: the next run reuses them). `--smoke`: two
servers of two channels, a few messages.
"""

from __future__ import annotations

import asyncio
import time

from bench import _harness
from bench._harness import percentile, run, scaled, setup_django

GUILDS = tuple(str(100000000000000200 + n) for n in range(10))
CHANNELS_PER_SERVER = 5
FACTS_PER_SERVER = 30
MODEL_SECONDS = 0.2
OFFERED_RPS = 22
SECONDS = 20
QUESTIONS = ("who won the cup last week?", "when is the next raid?", "what is this server about?",
             "any movie night soon?", "who are the moderators here?")


def _bench_servers(team, user, guilds: tuple[str, ...], model_url: str) -> list:
    # Here, not at the top: they need Django, which main() sets up first.
    from memory.configuration.services import ai_settings_update, model_endpoint_set
    from memory.facts.services import FactAuthor, fact_create
    from memory.models import ModelPurpose
    from teams.models import Server
    from teams.services import configure_grant, server_create

    servers = []
    for number, guild_id in enumerate(guilds):
        server = Server.objects.filter(guild_id=guild_id).first() or server_create(
            team=team, guild_id=guild_id, name=f"Bench Discord {number}")
        configure_grant(server=server, user=user)
        model_endpoint_set(server=server, actor=user, purpose=ModelPurpose.REPLY, base_url=model_url,
                           model_name="bench-discord", api_key=None)
        ai_settings_update(server=server, actor=user, reply_channel_ids=tuple(
            channel_id for channel_id, _ in _channels(guild_id)))
        for n in range(FACTS_PER_SERVER - server.facts.count()):
            fact_create(server=server, author=FactAuthor.bot(str(200000000000000000 + n)), key=f"bench_fact_{n}",
                        content=f"Bench fact {n}: the raid is on day {n % 7} and the cup on week {n}.")
        servers.append(server)
    return servers


def _channels(guild_id: str) -> list[tuple[int, str]]:
    return [(int(guild_id) * 10 + n, f"channel-{n}") for n in range(CHANNELS_PER_SERVER)]


async def _open_loop(lanes, channels, team_id: int, seconds: float, rate: float) -> tuple[list[float], float]:
    """Messages at `rate` a second for `seconds`, round the channels; each reply's time from its arrival."""
    # Here, not at the top: they need Django, which main() sets up first.
    from memory.bot.discord import message_in_turn
    from tests.discord_world import BOT_ID, message_in

    took: list[float] = []

    async def one(message, arrived: float) -> None:
        posted = await message_in_turn(lanes, message, bot_user_id=BOT_ID, team_id=team_id)
        if posted:
            took.append((time.perf_counter() - arrived) * 1000)

    began, tasks = time.perf_counter(), []
    for n in range(max(1, int(seconds * rate))):
        arrival = began + n / rate
        await asyncio.sleep(max(0.0, arrival - time.perf_counter()))
        channel = channels[n % len(channels)]
        message = message_in(channel.guild._state, channel, QUESTIONS[n % len(QUESTIONS)])
        tasks.append(asyncio.create_task(one(message, arrival)))
    await asyncio.gather(*tasks)
    return took, time.perf_counter() - began


async def _closed_loop(lanes, channels, team_id: int, seconds: float) -> tuple[list[float], float]:
    """Every channel sends its next message when its reply is posted, until `seconds` are over."""
    # Here, not at the top: they need Django, which main() sets up first.
    from memory.bot.discord import message_in_turn
    from tests.discord_world import BOT_ID, message_in

    took: list[float] = []
    began = time.perf_counter()

    async def channel_talks(channel, offset: int) -> None:
        n = offset
        while time.perf_counter() - began < seconds:
            sent = time.perf_counter()
            message = message_in(channel.guild._state, channel, QUESTIONS[n % len(QUESTIONS)])
            if await message_in_turn(lanes, message, bot_user_id=BOT_ID, team_id=team_id):
                took.append((time.perf_counter() - sent) * 1000)
            n += 1

    await asyncio.gather(*(channel_talks(channel, offset) for offset, channel in enumerate(channels)))
    return took, time.perf_counter() - began


def _report(name: str, took: list[float], seconds: float, cpu_seconds: float) -> None:
    rps = len(took) / seconds if seconds else 0.0
    p95 = percentile(took, 0.95) if took else float("nan")
    print(f"bench: {name} rps={rps:.1f} p95_ms={p95:.0f} p50_ms={percentile(took, 0.5) if took else 0:.0f} "
          f"n={len(took)}", flush=True)
    # The bot's process (the pipeline, its model client, the simulated gateway and the played model) on the machine's
    # cores: what one reply costs of them.
    print(f"# {name}: {cpu_seconds * 1000 / max(1, len(took)):.1f} ms of this process's CPU per reply", flush=True)


def main(*, smoke: bool) -> None:
    setup_django()
    import logging

    for noisy in ("httpx", "httpcore", "memory.bot.discord_servers"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    from bench._seed import bench_team_and_user
    from memory.bot.discord_concurrency import ChannelLanes, discord_concurrency
    from memory.models import Exchange
    from tests.discord_world import build_guild, discord_state
    from tests.model_server import FakeModelServer, Slow

    team, user = bench_team_and_user("Bench Discord", "bench-discord")
    guilds = GUILDS[:2] if _harness.SMOKE else GUILDS
    model = FakeModelServer().start()
    servers = _bench_servers(team, user, guilds, model.base_url)
    state = discord_state()
    channels = []
    for server in servers:
        guild = build_guild(state, int(server.guild_id), server.name, text_channels=_channels(server.guild_id)[
            :scaled(CHANNELS_PER_SERVER, 2)])
        channels += [guild.get_channel(channel_id) for channel_id, _ in _channels(server.guild_id)
                     if guild.get_channel(channel_id) is not None]
    concurrency = discord_concurrency()
    seconds = scaled(SECONDS, 1)
    # Enough 200 ms answers for every call either loop can make (one model call per reply).
    model.script = [Slow(MODEL_SECONDS)] * int(seconds * (OFFERED_RPS + concurrency / MODEL_SECONDS) * 2 + 100)
    print(f"# {len(servers)} servers, {len(channels)} channels, concurrency {concurrency}, model {MODEL_SECONDS} s",
          flush=True)
    try:
        suffix = ".smoke" if smoke else ""
        cpu = time.process_time()
        took, elapsed = asyncio.run(_open_loop(ChannelLanes(concurrency), channels, team.pk, seconds,
                                               OFFERED_RPS if not smoke else 4))
        _report(f"discord.replies{suffix}", took, elapsed, time.process_time() - cpu)
        cpu = time.process_time()
        took, elapsed = asyncio.run(_closed_loop(ChannelLanes(concurrency), channels, team.pk, seconds))
        _report(f"discord.saturated{suffix}", took, elapsed, time.process_time() - cpu)
    finally:
        model.stop()
        Exchange.objects.filter(server__in=servers).delete()


if __name__ == "__main__":
    run(main)
