"""`/memory me` and `/memory forget-me`: the answers are plain functions over facts, tested without a network; the
handlers are driven with a recording stand-in for Discord's interaction (defer, then one ephemeral follow-up)."""

from __future__ import annotations

from dataclasses import dataclass, field

import discord
import pytest

from memory.bot import discord_commands
from memory.bot.discord import LorekeeperBot
from memory.bot.discord_commands import (
    NO_SERVER,
    NOTHING_KNOWN,
    STAFF_ONLY,
    forget_me_text,
    member_facts_text,
    memory_commands,
    memory_forget,
    memory_forget_me,
    memory_me,
    memory_remember,
)
from memory.configuration.directory import ReportedChannel, channels_report
from memory.configuration.services import ai_settings_ensure, memory_type_set
from memory.facts.forget_requests import ForgetOutcome
from memory.facts.services import FactAuthor, fact_restore
from memory.models import (
    Audience,
    AuthorKind,
    Fact,
    ForgetMeMode,
    ForgetRequest,
    ForgetRequestVia,
    MemoryType,
    Scope,
)
from tests.discord_world import on_a_loop_of_its_own
from teams.models import AuditEntry, Team
from tests.factories import UserFactory, make_fact

GUILD_ID = 100000000000000001  # the `server` fixture's guild
UNKNOWN_GUILD_ID = 100000000000000099
ANN = 444000000000000001
MODS = "111000000000000002"


def fact(number: int, content: str, audience: str = Audience.SERVER, channel: str = "") -> Fact:
    return Fact(number=number, key=f"k{number}", content=content, audience=audience, source_channel_id=channel)


def test_the_answer_lists_both_kinds_with_each_facts_audience():
    about = [fact(3, "Ann's birthday is 3 May.", Audience.CHANNEL, MODS), fact(2, "Ann was warned.", Audience.STAFF)]
    learned = [fact(1, "The server is about retro games."), fact(4, "Bob has a cat.", Audience.CHANNEL, "999")]
    assert member_facts_text(about, learned, {MODS: "mod-chat"}) == "\n".join([
        "**What I know about you** (2)",
        "• [#3] Ann's birthday is 3 May. (only in #mod-chat)",
        "• [#2] Ann was warned. (staff only)",
        "**What I learned from your messages** (2)",
        "• [#1] The server is about retro games. (whole server)",
        "• [#4] Bob has a cat. (only in channel 999)",
    ])


def test_a_member_the_bot_knows_nothing_about_is_told_so():
    assert member_facts_text([], [], {}) == NOTHING_KNOWN
    assert member_facts_text([], [fact(1, "Something.")], {}).startswith("**What I learned from your messages** (1)")


def test_a_long_answer_fits_one_discord_message_and_counts_what_it_left_out():
    about = [fact(number, f"Fact number {number} " + "x" * 180) for number in range(1, 31)]
    learned = [fact(number, "y" * 50) for number in range(31, 41)]
    text = member_facts_text(about, learned, {})
    assert len(text) <= 2000
    shown = text.count("\n• ") + text.startswith("• ")
    assert text.endswith(f"… and {40 - shown} more.")
    assert shown >= 9  # as many as fit, not one


def test_an_answer_of_exactly_the_limit_is_not_cut():
    one = fact(1, "z" * 100)
    exact = len(member_facts_text([one], [], {}))
    assert "more." not in member_facts_text([one], [], {}, limit=exact)
    assert member_facts_text([one], [], {}, limit=exact - 1).endswith("… and 1 more.")


def test_the_forget_answer_says_what_was_done():
    assert forget_me_text(ForgetOutcome(wiped=True, facts_removed=1)) == (
        "Done: I forgot what I knew about you on this server (1 fact) and our conversations.")
    assert "(12 facts)" in forget_me_text(ForgetOutcome(wiped=True, facts_removed=12))
    request = ForgetRequest(member_id="1")
    text = forget_me_text(ForgetOutcome(wiped=False, request=request))
    assert "with this server's staff" in text and "Nothing has been removed yet." in text
    assert f"<t:{int(request.requested_at.timestamp())}:R>" in text


def test_the_commands_are_one_guild_only_group():
    tree = LorekeeperBot().tree
    group = tree.get_command("memory")
    assert group is memory_commands and group.guild_only
    assert sorted(command.name for command in group.commands) == ["forget", "forget-me", "me", "remember"]
    assert all(len(command.description) <= 100 for command in [group, *group.commands])


# The handlers, with a stand-in for Discord's interaction ----------------------------------------


@dataclass
class _User:
    id: int
    display_name: str


@dataclass
class _Response:
    deferred: list[dict] = field(default_factory=list)
    sent: list[dict] = field(default_factory=list)

    async def defer(self, **options):
        self.deferred.append(options)

    async def send_message(self, content, **options):
        self.sent.append({"content": content, **options})


@dataclass
class _Followup:
    sent: list[dict] = field(default_factory=list)

    async def send(self, content, **options):
        self.sent.append({"content": content, **options})


@dataclass
class _Bot:
    team_id: int | None


@dataclass
class FakeInteraction:
    guild_id: int
    user: _User
    client: _Bot
    permissions: discord.Permissions = field(default_factory=discord.Permissions.none)
    response: _Response = field(default_factory=_Response)
    followup: _Followup = field(default_factory=_Followup)


# The handlers' database work runs in the adapter's own threads, each with its connection: these tests commit what
# they set up, so those threads see it.
IN_DATABASE_THREADS = pytest.mark.django_db(transaction=True)
pytestmark = IN_DATABASE_THREADS


def interaction_for(guild_id: int = GUILD_ID, name: str = "Annie", *, user_id: int = ANN,
                    manage_server: bool = False) -> FakeInteraction:
    team = Team.objects.get(name="Arcade staff")
    return FakeInteraction(guild_id=guild_id, user=_User(user_id, name), client=_Bot(team.pk),
                           permissions=discord.Permissions(manage_guild=manage_server))


def run(command, guild_id: int = GUILD_ID, name: str = "Annie", *, manage_server: bool = False, **arguments) -> dict:
    interaction = interaction_for(guild_id, name, manage_server=manage_server)
    on_a_loop_of_its_own(command.callback, interaction, **arguments)
    assert interaction.response.deferred == [{"ephemeral": True, "thinking": True}]
    [answer] = interaction.followup.sent
    assert answer["ephemeral"] is True
    assert answer["allowed_mentions"].to_dict() == discord.AllowedMentions.none().to_dict()
    return answer


@pytest.fixture
def anns(server):
    channels_report(server=server, channels=[ReportedChannel(channel_id=MODS, name="mod-chat")])
    ann = FactAuthor.bot(str(ANN))
    return {
        "birthday": make_fact(server, key="ann_birthday", content="Ann's birthday is 3 May.", scope=Scope.MEMBER,
                              member_id=str(ANN), author=ann, audience=Audience.CHANNEL, source_channel_id=MODS),
        "warning": make_fact(server, key="ann_warned", content="Ann was warned for spam @everyone.",
                             scope=Scope.MEMBER, member_id=str(ANN), author=FactAuthor.staff(UserFactory()),
                             audience=Audience.STAFF),
        "theme": make_fact(server, key="theme", content="Retro gaming.", author=ann),
        "other": make_fact(server, key="bob_cat", content="Bob has a cat.", scope=Scope.MEMBER, member_id="555",
                           author=FactAuthor.bot("555")),
    }


def test_memory_me_answers_the_member_privately_with_their_facts(server, anns):
    text = run(memory_me)["content"]
    assert text == "\n".join([
        "**What I know about you** (2)",
        f"• [#{anns['warning'].number}] Ann was warned for spam @everyone. (staff only)",
        f"• [#{anns['birthday'].number}] Ann's birthday is 3 May. (only in #mod-chat)",
        "**What I learned from your messages** (1)",
        f"• [#{anns['theme'].number}] Retro gaming. (whole server)",
    ])


def test_a_guild_without_a_server_is_told_so(server, anns):
    assert run(memory_me, guild_id=UNKNOWN_GUILD_ID)["content"] == NO_SERVER
    assert run(memory_forget_me, guild_id=UNKNOWN_GUILD_ID)["content"] == NO_SERVER
    assert not ForgetRequest.objects.exists()


def test_forget_me_files_a_request_for_staff_by_default(server, anns):
    text = run(memory_forget_me)["content"]
    assert "with this server's staff" in text
    request = ForgetRequest.objects.get()
    assert (request.member_id, request.member_name, request.via) == (str(ANN), "Annie", ForgetRequestVia.DISCORD)
    assert Fact.objects.count() == 4
    run(memory_forget_me)
    assert ForgetRequest.objects.count() == 1


def test_forget_me_wipes_at_once_when_the_server_chose_so(server, anns):
    settings = ai_settings_ensure(server=server)
    settings.forget_me_mode = ForgetMeMode.WIPE
    settings.save(update_fields=["forget_me_mode"])
    assert run(memory_forget_me)["content"] == (
        "Done: I forgot what I knew about you on this server (3 facts) and our conversations.")
    assert list(Fact.objects.values_list("key", flat=True)) == ["bob_cat"]
    assert AuditEntry.objects.get(action="memory.wipe_member").actor_label == (
        f"member {ANN} (Annie) via Discord (/memory forget-me)")


def test_a_failure_still_answers_the_member(server, monkeypatch):
    def broken(*args):
        raise RuntimeError("database down")

    monkeypatch.setattr(discord_commands, "member_memory_in_guild", broken)
    assert run(memory_me)["content"] == discord_commands.FAILED


# Staff commands: /memory remember and /memory forget ------------------------------------------------------------------


def staff(command, **arguments) -> str:
    return run(command, name="Mod Mia", manage_server=True, **arguments)["content"]


def refused_without_manage_server(command, **arguments) -> str:
    interaction = interaction_for()
    on_a_loop_of_its_own(command.callback, interaction, **arguments)
    assert interaction.response.deferred == [] and interaction.followup.sent == []
    [answer] = interaction.response.sent
    assert answer["ephemeral"] is True
    return answer["content"]


MIA = f"Discord user Mod Mia ({ANN})"


def test_staff_remember_a_fact_for_the_whole_server_audited_as_the_discord_user(server):
    text = staff(memory_remember, key="raid time", content="Raids start at 8 pm on Fridays.")
    fact = Fact.objects.get(server=server)
    assert text == f"Remembered as [#{fact.number}] raid_time: Raids start at 8 pm on Fridays."
    assert (fact.author_kind, fact.author_user, fact.audience, fact.confidence) == (
        AuthorKind.STAFF, None, Audience.SERVER, 1.0)
    assert fact.versions.get().actor_label == MIA
    entry = AuditEntry.objects.get(action="fact.create")
    assert (entry.actor_id, entry.actor_label, entry.target_ids) == (None, MIA, [fact.number])


def test_an_administrator_counts_as_staff(server):
    interaction = interaction_for(name="Mod Mia")
    interaction.permissions = discord.Permissions(administrator=True)
    on_a_loop_of_its_own(memory_remember.callback, interaction, key="raid_time", content="Raids start at 8 pm.")
    assert interaction.followup.sent[0]["content"].startswith("Remembered as [#1] raid_time")


def test_a_remember_with_a_bad_key_or_no_content_says_why_and_changes_nothing(server):
    assert staff(memory_remember, key="raid!?", content="Raids start at 8 pm.").startswith(
        "Nothing was remembered: A key may only hold letters and digits")
    assert staff(memory_remember, key="raid_time", content="   ").startswith("Nothing was remembered:")
    assert not Fact.objects.exists() and not AuditEntry.objects.filter(action="fact.create").exists()


def test_without_manage_server_the_staff_commands_change_nothing(server, anns):
    audited = AuditEntry.objects.count()
    assert refused_without_manage_server(memory_remember, key="raid_time", content="Raids at 8.") == STAFF_ONLY
    assert refused_without_manage_server(memory_forget, number=anns["theme"].number) == STAFF_ONLY
    assert Fact.objects.count() == 4 and Fact.objects.filter(retracted_at__isnull=False).count() == 0
    assert AuditEntry.objects.count() == audited


def test_forget_under_ledger_retracts_restorably_audited_as_the_discord_user(server, owner, anns):
    memory_type_set(server=server, actor=owner, memory_type=MemoryType.LEDGER)
    number = anns["theme"].number
    assert staff(memory_forget, number=number) == (
        f"Forgot fact #{number}: retracted; staff can restore it from its page.")
    theme = Fact.objects.get(pk=anns["theme"].pk)
    assert theme.retracted_at is not None
    assert theme.retraction_reason == "forgotten on Discord with /memory forget by Mod Mia"
    entry = AuditEntry.objects.get(action="fact.retract")
    assert (entry.actor_id, entry.actor_label, entry.target_ids) == (None, MIA, [number])
    assert theme.versions.order_by("-version").first().actor_label == MIA
    assert fact_restore(fact=theme, actor=owner).retracted_at is None
    assert staff(memory_forget, number=anns["birthday"].number).startswith("Forgot fact")
    assert staff(memory_forget, number=anns["birthday"].number) == (
        f"Fact #{anns['birthday'].number} is already retracted; nothing was changed.")


def test_forget_under_classic_deletes_as_the_panel_does(server, anns):
    number = anns["theme"].number
    assert staff(memory_forget, number=number) == (
        f"Forgot fact #{number}: deleted, as this server's memory type keeps no retracted facts.")
    assert not Fact.objects.filter(pk=anns["theme"].pk).exists()
    assert AuditEntry.objects.get(action="fact.delete").actor_label == MIA


def test_forget_of_an_unknown_number_says_so_and_changes_nothing(server, anns):
    audited = AuditEntry.objects.count()
    for number in (999, 0, -3, 2**40):
        assert staff(memory_forget, number=number) == f"There is no fact #{number} on this server; nothing was changed."
    assert Fact.objects.count() == 4 and AuditEntry.objects.count() == audited


def test_staff_commands_in_a_guild_without_the_teams_server_are_told_so(server, other_server):
    assert run(memory_remember, guild_id=100000000000000002, manage_server=True, key="k",
               content="Something.")["content"] == NO_SERVER
    assert not Fact.objects.exists()
