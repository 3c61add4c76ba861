"""The bot's hand-written reads (config/rows.py) hand back what the ORM would."""

from __future__ import annotations

import pytest
from psycopg import _queries as psycopg_queries

from config.rows import compact_sql
from memory.bot.exchanges import IncomingMessage, exchange_open
from memory.bot.selectors import (_TOKEN_AND_SERVER_SQL_BY_CONTEXT, bot_token_and_server, exchange_facts_in_force,
                                  exchange_for_bot)
from memory.configuration.selectors import ai_settings_for_server
from memory.configuration.services import ai_settings_ensure
from memory.facts.selectors import summary_text
from memory.facts.services import FactAuthor
from memory.facts.summary import summary_set
from memory.models import AISettings, Exchange, Fact, MemoryType
from memory.retrieval.audience import Reader
from memory.configuration.directory import SeenMember, members_seen
from memory.facts.services import fact_pin_set
from memory.retrieval.context import ContextFor, context_choice, context_read
from teams.models import BotToken, Server
from teams.selectors import bot_token_active_by_hash
from teams.services import bot_token_hash, bot_token_revoke
from tests.factories import make_fact

pytestmark = pytest.mark.django_db
HERE = Reader.for_message("300000000000000001")


def test_the_token_and_its_server_load_settings_and_current_summary_as_the_orm_would(server, owner, team, bot_token):
    ai_settings_ensure(server=server)
    AISettings.objects.filter(server=server).update(memory_type=MemoryType.LEDGER, read_all_channels=False,
                                                    read_channel_ids=["123456789012345678"])
    summary_set(server=server, content="First wording.", author=FactAuthor.staff(owner))
    summary_set(server=server, content="A friendly retro gaming server.", author=FactAuthor.staff(owner))
    token, loaded = bot_token_and_server(bot_token_hash(bot_token), server.guild_id)
    assert token.team_id == team.pk
    expected = AISettings.objects.get(server=server)
    assert (loaded.pk, loaded.name, loaded.guild_id, loaded.team_id) == (server.pk, server.name, server.guild_id, team.pk)
    assert {field.attname: getattr(loaded.ai_settings, field.attname) for field in AISettings._meta.concrete_fields} == \
        {field.attname: getattr(expected, field.attname) for field in AISettings._meta.concrete_fields}
    assert summary_text(loaded) == "A friendly retro gaming server."


def test_another_teams_guild_is_no_server_and_a_server_works_without_settings_or_summary(server, other_server, team,
                                                                                          bot_token, owner):
    token, found = bot_token_and_server(bot_token_hash(bot_token), other_server.guild_id)
    assert (token.team_id, found) == (team.pk, None)
    assert bot_token_and_server(bot_token_hash(bot_token), "900000000000000999")[1] is None  # no such guild
    AISettings.objects.filter(server=server).delete()
    _, loaded = bot_token_and_server(bot_token_hash(bot_token), server.guild_id)
    assert summary_text(loaded) == ""
    assert ai_settings_for_server(loaded).memory_type == MemoryType.CLASSIC  # the defaults, unsaved


def test_exchange_for_bot_round_trips_every_field_and_stays_within_the_team(server, other_server, team):
    opened = exchange_open(server=server, message=IncomingMessage(channel_id="300000000000000001",
                                                                 author_id="200000000000000001", content="hello"))
    Exchange.objects.filter(pk=opened.exchange.pk).update(actions=[{"op": "remember", "status": "applied"}])
    loaded = exchange_for_bot(team.pk, opened.exchange.pk)
    expected = Exchange.objects.get(pk=opened.exchange.pk)
    assert {f.attname: getattr(loaded, f.attname) for f in Exchange._meta.concrete_fields} == \
        {f.attname: getattr(expected, f.attname) for f in Exchange._meta.concrete_fields}
    assert loaded.server.pk == server.pk
    assert exchange_for_bot(other_server.team_id + 1000, opened.exchange.pk) is None


def test_a_revoked_token_is_not_found(bot_token, owner, team, server):
    found = bot_token_active_by_hash(bot_token_hash(bot_token))
    assert found.team_id == team.pk
    bot_token_revoke(token=found, revoked_by=owner)
    assert bot_token_active_by_hash(bot_token_hash(bot_token)) is None
    assert bot_token_and_server(bot_token_hash(bot_token), server.guild_id) == (None, None)


def test_instances_built_from_rows_load_deferred_fields_and_save_like_the_orms(server, team, bot_token):
    """config/rows.py builds instances without Model.__init__: unlisted fields still load on first use,
    and save() updates the row instead of inserting one."""
    token, loaded = bot_token_and_server(bot_token_hash(bot_token), server.guild_id)
    assert "name" in token.get_deferred_fields() and token.name == BotToken.objects.get(pk=token.pk).name
    assert loaded._state.adding is False and loaded._state.db == "default"
    loaded.name = "Renamed from a row"
    loaded.save(update_fields=["name"])
    assert Server.objects.get(pk=server.pk).name == "Renamed from a row"
    assert Server.objects.filter(guild_id=server.guild_id).count() == 1


def test_ranked_context_facts_built_from_the_rankings_rows_match_the_orm(server):
    make_fact(server, key="paul_birthday", content="Paul's birthday is on 3 May.", scope="member",
              member_id="200000000000000011", confidence=0.7, importance=0.9)
    make_fact(server, key="server_theme", content="Retro gaming.")
    ai_settings = ai_settings_for_server(server)
    ai_settings.memory_type = MemoryType.RANKED
    facts = context_choice(server, ai_settings, "Paul's birthday", HERE).facts
    shown = ["id", "server_id", "number", "key", "content", "scope", "member_id", "confidence", "changed_at",
             "audience", "source_channel_id", "kind"]
    assert [{name: getattr(fact, name) for name in shown} for fact in facts] == [
        {name: getattr(expected, name) for name in shown} for expected in
        [Fact.objects.get(pk=fact.pk) for fact in facts]]
    assert facts[0].key == "paul_birthday" and facts[0].importance == 0.9  # deferred fields still load


def test_a_model_with_an_init_signal_is_loaded_through_from_db_with_each_value_in_its_field(server):
    """loaded_instance skips Model.__init__ only for models nothing listens to at init time; otherwise
    from_db builds the instance, with the values put in the model's field order first."""
    from django.db.models.signals import post_init

    from config.rows import loaded_instance

    initialised = []

    def listen(sender, instance, **kwargs):
        initialised.append(instance)

    post_init.connect(listen, sender=Server)
    try:
        loaded = loaded_instance(Server, ["name", "id", "guild_id"], ["Named here", server.pk, server.guild_id])
    finally:
        post_init.disconnect(listen, sender=Server)
    assert initialised == [loaded]
    assert (loaded.pk, loaded.name, loaded.guild_id) == (server.pk, "Named here", server.guild_id)
    assert loaded._state.adding is False and "team_id" in loaded.get_deferred_fields()


def test_the_exchange_insert_stores_what_the_orms_create_would(server):
    for number in range(3):
        make_fact(server, key=f"fact_{number}", content=f"Fact number {number}.")
    opened = exchange_open(server=server, message=IncomingMessage(channel_id="300000000000000001",
                                                                 author_id="200000000000000001", content="hello"))
    inserted = Exchange.objects.get(pk=opened.exchange.pk)
    assert len(inserted.shown_numbers) == 3
    names = [field.attname for field in Exchange._meta.concrete_fields if field.attname != "id"]
    created = Exchange.objects.get(pk=Exchange.objects.create(**{name: getattr(opened.exchange, name)
                                                                 for name in names}).pk)
    assert {name: getattr(inserted, name) for name in names} == {name: getattr(created, name) for name in names}


def test_insert_values_go_as_postgresqls_text_input_only_where_that_is_exact():
    from django.db import connection

    from config.rows import _db_value as db_value

    def _db_value(field, value):
        return db_value(field, value, connection)

    shown_numbers, actions = Exchange._meta.get_field("shown_numbers"), Exchange._meta.get_field("actions")
    assert _db_value(shown_numbers, [3, 1, 2]) == "{3,1,2}"
    assert _db_value(shown_numbers, []) == "{}"
    assert _db_value(shown_numbers, [3, "1"]) == [3, 1]  # anything else is converted the way save() does
    assert _db_value(actions, [{"op": "remember", "content": "\u00e9 'quoted' \\"}]) == \
        '[{"op": "remember", "content": "\\u00e9 \'quoted\' \\\\"}]'


def test_an_exchange_with_actions_and_odd_text_inserts_exactly(server):
    """JSON with quotes, backslashes and non-ASCII text, and numbers, arrive as save() would store them."""
    from memory.bot.exchanges import _EXCHANGE_INSERT

    exchange = Exchange(server=server, channel_id="1", author_id="2", message="it's \\ ünï", memory_type="classic",
                        shown_numbers=[5, 3], found_numbers=[], actions=[{"op": "x", "reason": "a \"b\" \\ 'c' é"}])
    _EXCHANGE_INSERT.insert(exchange)
    stored = Exchange.objects.get(pk=exchange.pk)
    assert (stored.message, stored.shown_numbers, stored.found_numbers, stored.actions) == \
        ("it's \\ ünï", [5, 3], [], [{"op": "x", "reason": "a \"b\" \\ 'c' é"}])


def test_a_new_instance_is_what_the_models_constructor_gives(server):
    from django.db.models.signals import post_init

    from config.rows import new_instance

    values = dict(channel_id="1", author_id="2", message="hello", memory_type="classic", shown_numbers=[4, 2])
    built, constructed = new_instance(Exchange, server=server, **values), Exchange(server=server, **values)
    names = [field.attname for field in Exchange._meta.concrete_fields if field.attname not in ("id", "created_at")]
    assert {name: getattr(built, name) for name in names} == {name: getattr(constructed, name) for name in names}
    assert built.server is server and built._state.adding and built.pk != constructed.pk
    with pytest.raises(TypeError, match="no field colour"):
        new_instance(Exchange, server=server, colour="red", **values)

    seen = []

    def listener(sender, instance, **kwargs):
        seen.append(instance)

    post_init.connect(listener, sender=Exchange)
    try:  # a model something listens to is built by its constructor, so the listener runs
        assert seen == [new_instance(Exchange, server=server, **values)]
    finally:
        post_init.disconnect(listener, sender=Exchange)


def _context_values(facts):
    from memory.retrieval.shown_facts import CONTEXT_FIELDS

    return [[(name, getattr(fact, name), type(getattr(fact, name))) for name in CONTEXT_FIELDS] for fact in facts]


def _read_values(read):
    return [_context_values(part) for part in (read.pinned, read.speaker, read.general)] + [read.names]


SPEAKER = "200000000000000001"
HERE_FOR = ContextFor(HERE, (SPEAKER,))


@pytest.mark.parametrize("memory_type", [MemoryType.CLASSIC, MemoryType.LEDGER, MemoryType.ARCHIVE, MemoryType.RANKED])
def test_the_context_calls_lookup_reads_the_context_exactly_as_the_separate_query(server, owner, bot_token,
                                                                                    memory_type):
    ai_settings_ensure(server=server)
    AISettings.objects.filter(server=server).update(memory_type=memory_type, max_injected_items=4, speaker_share=0.5)
    facts = [make_fact(server, key=f"fact_{n}", content=f"Fact <{n}> \"quoted\" ünïcode.") for n in range(7)]
    Fact.objects.filter(pk=facts[1].pk).update(confidence=0.75, member_id=SPEAKER, scope="member")
    Fact.objects.filter(pk=facts[2].pk).update(confidence=1.0)  # a whole float comes back a float
    Fact.objects.filter(pk=facts[5].pk).update(retracted_at=facts[5].changed_at)
    fact_pin_set(fact=facts[0], pinned=True, actor=owner)
    members_seen(server=server, members=[SeenMember(SPEAKER, "Paul")])

    _, plain = bot_token_and_server(bot_token_hash(bot_token), server.guild_id)
    _, with_context = bot_token_and_server(bot_token_hash(bot_token), server.guild_id, context_for=HERE_FOR)
    expected = context_read(plain, plain.ai_settings, HERE_FOR)
    assert [fact.number for fact in expected.pinned] == [facts[0].number]
    assert [fact.number for fact in expected.speaker] == [facts[1].number]
    newest = memory_type != MemoryType.RANKED
    # The newest, deep enough for the four slots once the pinned fact is left out (those chosen are, in Python).
    assert [fact.number for fact in expected.general] == (
        [facts[n].number for n in (6, 4, 3, 2, 1)] if newest else [])
    assert expected.names == {SPEAKER: "Paul"}
    ahead_for, ahead = with_context.context_read
    assert ahead_for == HERE_FOR and _read_values(ahead) == _read_values(expected)
    chosen = context_choice(with_context, with_context.ai_settings, "hello", HERE_FOR)
    assert [fact.number for fact in chosen.facts] == [fact.number for fact in context_choice(
        plain, plain.ai_settings, "hello", HERE_FOR).facts]
    if newest:  # pinned, Paul's, then the newest three others
        assert [fact.number for fact in chosen.facts] == [facts[n].number for n in (0, 1, 6, 4, 3)]
    assert "context_read" not in plain.__dict__


def test_the_context_read_with_the_token_is_what_the_bodys_channel_may_see_and_no_other_reader_takes_it(
        server, bot_token):
    from memory.models import Audience

    ai_settings_ensure(server=server)
    everywhere = make_fact(server, key="everywhere", content="For every channel.")
    here = make_fact(server, key="here", content="Learned here.", audience=Audience.CHANNEL,
                     source_channel_id=HERE.channel_id)
    make_fact(server, key="elsewhere", content="Learned elsewhere.", audience=Audience.CHANNEL,
              source_channel_id="300000000000000002")
    make_fact(server, key="staff_only", content="For staff.", audience=Audience.STAFF)

    _, with_context = bot_token_and_server(bot_token_hash(bot_token), server.guild_id, context_for=HERE_FOR)
    assert [fact.pk for fact in with_context.context_read[1].general] == [here.pk, everywhere.pk]
    elsewhere = Reader.for_message("300000000000000003")  # not the reader the facts were read for: asks again
    assert [fact.pk for fact in context_choice(with_context, with_context.ai_settings, "hi", elsewhere).facts] == [
        everywhere.pk]
    other_speaker = ContextFor(HERE, ("200000000000000009",))  # nor another speaker
    assert context_read(with_context, with_context.ai_settings, other_speaker) is not with_context.context_read[1]


def test_servers_without_settings_read_their_context_on_their_own(server, bot_token):
    make_fact(server)
    AISettings.objects.filter(server=server).delete()
    _, without_settings = bot_token_and_server(bot_token_hash(bot_token), server.guild_id, context_for=HERE_FOR)
    assert "context_read" not in without_settings.__dict__
    assert [fact.key for fact in context_choice(without_settings, ai_settings_ensure(server=without_settings),
                                                "hello", HERE_FOR).facts] == ["server_theme"]  # settings created
    AISettings.objects.filter(server=server).update(memory_type=MemoryType.RANKED)
    _, ranked = bot_token_and_server(bot_token_hash(bot_token), server.guild_id, context_for=HERE_FOR)
    assert ranked.context_read[1].general == []  # ranking chooses the rest
    assert [fact.key for fact in context_choice(ranked, ranked.ai_settings, "theme", HERE_FOR).facts] == [
        "server_theme"]


def test_an_exchanges_facts_are_those_it_showed_or_found_still_in_force_and_visible_from_its_channel(server, owner):
    from memory.bot.exchanges import exchange_search
    from memory.facts.services import fact_audience_set, fact_retract
    from memory.models import Audience
    from tests.memory.bot.api.helpers import configure

    configure(server, memory_type=MemoryType.ARCHIVE, max_injected_items=3)
    found = make_fact(server, key="dragon", content="The dragon sleeps under the castle.")
    shown = [make_fact(server, key=f"shown_{n}", content=f"Shown fact {n}.") for n in range(3)]  # the newest three
    make_fact(server, key="elsewhere", content="Learned elsewhere.", audience=Audience.CHANNEL,
              source_channel_id="300000000000000002")
    exchange = exchange_open(server=server, message=IncomingMessage(channel_id=HERE.channel_id,
                                                                    author_id="200000000000000001", content="hi")).exchange
    exchange_search(exchange=exchange, query="dragon")
    assert (exchange.shown_numbers, exchange.found_numbers) == ([fact.number for fact in shown], [found.number])
    assert [fact.pk for fact in exchange_facts_in_force(exchange)] == [*(fact.pk for fact in shown), found.pk]
    fact_retract(fact=shown[2], reason="outdated")
    fact_audience_set(fact=shown[1], audience=Audience.CHANNEL, channel_id="300000000000000002",
                      actor=owner)  # narrowed since, to another channel
    fact_audience_set(fact=found, audience=Audience.STAFF, actor=owner)
    assert [fact.pk for fact in exchange_facts_in_force(exchange)] == [shown[0].pk]  # shown oldest first


def test_the_context_calls_select_is_short_enough_for_psycopg_to_cache_its_conversion():
    """Past psycopg's limit the statement's placeholders are converted anew on every message (0.1-0.2 ms)."""
    for sql in _TOKEN_AND_SERVER_SQL_BY_CONTEXT.values():
        assert len(sql.encode()) <= psycopg_queries.MAX_CACHED_STATEMENT_LENGTH


def test_compacted_sql_keeps_its_literals_and_names():
    assert compact_sql('SELECT  f."id",\n   f."order" FROM t f WHERE f.k = \'a b\'') == (
        "SELECT f.id, f.order FROM t f WHERE f.k = 'a b'")
