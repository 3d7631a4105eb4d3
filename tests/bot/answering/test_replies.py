"""reply_for_text on the example vault's real index: routing, every kind of answer, safety of text."""

from pathlib import Path

import pytest

from bot.answering.replies import MAX_QUERY_CHARS, card_reply, question_reply, reply_for_text, shared_reply
from bot.blocks.buttons import CHOOSE_CANDIDATE, SHARE
from bot.blocks.reply import Reply
from bot.blocks.visible import first_screen
from index.wiki import Wiki
from tests.bot.block_kit import assert_valid_blocks, message_text
from tests.conftest import make_settings
from tests.vaults import entity, write_vault


def answer(text: str, wiki: Wiki, tmp_path: Path, **settings) -> Reply:
    reply = reply_for_text(text, wiki, make_settings(tmp_path, **settings))
    assert_valid_blocks(reply.blocks)
    assert reply.text and "<!" not in reply.text
    return reply


def action_ids(reply: Reply) -> list[str]:
    return [e["action_id"] for b in reply.blocks if b["type"] == "actions" for e in b["elements"]]


def share_values(reply: Reply) -> list[str]:
    return [
        e["value"]
        for b in reply.blocks
        if b["type"] == "actions"
        for e in b["elements"]
        if e["action_id"] == SHARE
    ]


def test_entity_card_names_related_products_with_links(linked_wiki, tmp_path):
    reply = answer("/entity ByteDance", linked_wiki, tmp_path)
    text = message_text(reply.blocks)
    assert reply.blocks[0] == {
        "type": "header",
        "text": {"type": "plain_text", "text": "ByteDance", "emoji": True},
    }
    assert "*関連プロダクト*" in text
    assert "<https://wiki.example.com/wiki/entities/MegaScale|MegaScale>" in text
    assert "<https://wiki.example.com/wiki/entities/Minder|Minder>" in text
    assert share_values(reply) == ["text:/entity ByteDance"]


@pytest.mark.parametrize(
    "name", ["bytedance", "ＢｙｔｅＤａｎｃｅ", "バイトダンス", "Bytedanse", "ByteDance Ltd."]
)
def test_entity_names_as_people_type_them(wiki, tmp_path, name):
    assert answer(f"/entity {name}", wiki, tmp_path).blocks[0]["text"]["text"] == "ByteDance"


def test_unresolved_name_lists_mentioning_pages(wiki, tmp_path):
    text = message_text(answer("/entity Zhuo Jiang", wiki, tmp_path).blocks)
    assert "*Zhuo Jiang* has no page yet" in text and "Minder" in text


def test_no_match_gives_nearest_names_and_hits(wiki, tmp_path):
    reply = answer("/entity Lin", wiki, tmp_path)
    text = message_text(reply.blocks)
    assert "No page is called *Lin*" in text and "Haibin Lin" in text
    assert any(action_id.startswith(CHOOSE_CANDIDATE) for action_id in action_ids(reply))


def test_ambiguous_name_offers_candidate_buttons(tmp_path):
    vault = write_vault(
        tmp_path / "vault",
        {
            "wiki/entities/Mercury (planet).md": entity("Mercury", body="太陽に最も近い惑星。"),
            "wiki/entities/Mercury (element).md": entity("Mercury", body="水銀。"),
        },
    )
    small = Wiki.open(vault, tmp_path / "index")
    small.update()
    reply = answer("/entity mercury", small, tmp_path)
    assert "Several pages match *mercury*" in message_text(reply.blocks)
    buttons = [e for b in reply.blocks if b["type"] == "actions" for e in b["elements"]]
    assert [b["action_id"].split(":")[0] for b in buttons] == [CHOOSE_CANDIDATE, CHOOSE_CANDIDATE, SHARE]
    assert sorted(b["value"] for b in buttons[:2]) == [
        "wiki/entities/Mercury (element).md",
        "wiki/entities/Mercury (planet).md",
    ]


def test_wiki_search_gives_hits_with_snippets_and_a_share_button(wiki, tmp_path):
    reply = answer("/wiki CCL ハング", wiki, tmp_path)
    sections = [b for b in reply.blocks if b["type"] == "section"]
    assert sections and all("accessory" in s for s in sections)
    assert "CCL" in message_text(reply.blocks)
    assert share_values(reply) == ["text:/wiki CCL ハング"]


@pytest.mark.parametrize("text", ["/wiki", "/wiki help", "/entity", "help", "", "   "])
def test_help(wiki, tmp_path, text):
    assert "How to use sakuin" in message_text(answer(text, wiki, tmp_path).blocks)


def test_command_names_come_from_settings(wiki, tmp_path):
    reply = answer("/who ByteDance", wiki, tmp_path, entity_command="/who", wiki_command="/kb")
    assert reply.blocks[0]["text"]["text"] == "ByteDance"
    assert "`/kb QUERY`" in message_text(answer("/kb help", wiki, tmp_path, wiki_command="/kb").blocks)


def test_a_question_gets_the_answer_first_then_its_subject_as_one_line(wiki, tmp_path):
    reply = answer("Minder を開発したのはどこ?", wiki, tmp_path)
    assert reply.blocks[0]["type"] == "rich_text"
    first = reply.blocks[0]["elements"][0]["elements"]
    assert first[0] == {"type": "text", "text": "ByteDance", "style": {"bold": True}}
    assert not any(block["type"] == "header" for block in reply.blocks)
    subject = reply.blocks[-1]
    assert subject["type"] == "section" and subject["accessory"]["value"] == "wiki/entities/Minder.md"
    assert reply.answer is not None and reply.answer.subject == "wiki/entities/Minder.md"
    assert reply.answer.fact is not None and reply.answer.fact.label == "開発元"
    assert share_values(reply) == []  # answers to questions are public already


def test_a_follow_up_is_answered_about_the_thread_subject(wiki, tmp_path):
    reply = question_reply(
        "それを本番で運用しているチームは?", wiki, make_settings(tmp_path), subject="wiki/entities/Minder.md"
    )
    assert reply.answer is not None and reply.answer.confident
    assert "high-speed network" in first_screen(reply.blocks)


def test_the_answer_carries_the_passages_a_model_would_be_given(wiki, tmp_path):
    reply = answer("XPUTimer は何 GPU の本番クラスタで動いた?", wiki, tmp_path)
    passages = reply.answer.passages
    assert passages and passages[0].path == "wiki/entities/XPUTimer.md"
    assert all(passage.text and passage.title for passage in passages)
    assert [passage.path for passage in passages] == [hit.path for hit in reply.answer.pages]


def test_question_in_english(wiki, tmp_path):
    text = message_text(answer("which system diagnoses CCL hangs?", wiki, tmp_path).blocks)
    assert "CCL-D" in text


@pytest.mark.parametrize("prefix", ["/entity ", "/wiki ", ""])
def test_a_5000_character_query_gets_a_polite_answer(wiki, tmp_path, prefix):
    reply = answer(prefix + "あ" * 5000, wiki, tmp_path)
    assert "Sorry, that is 5,000 characters long" in message_text(reply.blocks)


@pytest.mark.parametrize("prefix", ["/entity ", "/wiki ", ""])
def test_hostile_input_is_escaped_everywhere(wiki, tmp_path, prefix):
    hostile = '<!channel> <!here> <@U0BOSS> "quoted" *bold* & <https://evil.example|x>'
    reply = answer(prefix + hostile, wiki, tmp_path)
    payload = message_text(reply.blocks) + reply.text
    for raw in ("<!channel>", "<!here>", "<@U0BOSS>", "<https://evil"):
        assert raw not in payload
    assert "&lt;!channel&gt;" in payload


def test_not_ready_index_is_a_polite_answer(tmp_path):
    empty = Wiki.open(tmp_path / "vault", tmp_path / "no-index")
    for text in ("/entity ByteDance", "/wiki MegaScale", "what is Minder?"):
        assert "still being built" in message_text(answer(text, empty, tmp_path).blocks)


def test_card_reply_and_sharing_rebuild_the_answer_publicly(wiki, tmp_path):
    settings = make_settings(tmp_path)
    private = card_reply("wiki/entities/Minder.md", wiki)
    assert share_values(private) == ["page:wiki/entities/Minder.md"]
    shared = shared_reply(share_values(private)[0], wiki, settings)
    assert shared.blocks[0]["text"]["text"] == "Minder" and share_values(shared) == []
    shared_text = shared_reply("text:/entity ByteDance", wiki, settings)
    assert shared_text.blocks[0]["text"]["text"] == "ByteDance" and share_values(shared_text) == []


def test_a_page_that_is_gone(wiki):
    reply = card_reply("wiki/entities/Nobody.md", wiki)
    assert "no longer in the wiki" in message_text(reply.blocks)


def test_query_limit_is_generous_enough_for_real_questions():
    assert MAX_QUERY_CHARS >= 500


def test_the_edge_and_the_domain_share_one_query_limit():
    from index.asking import question

    assert MAX_QUERY_CHARS is question.MAX_QUERY_CHARS


@pytest.mark.parametrize("prefix", ["/wiki ", ""])
def test_a_question_just_over_the_limit_is_refused_politely(wiki, tmp_path, prefix):
    reply = answer(prefix + "あ" * (MAX_QUERY_CHARS + 1), wiki, tmp_path)
    assert f"Sorry, that is {MAX_QUERY_CHARS + 1:,} characters long" in message_text(reply.blocks)
