"""Slash commands and buttons through the real server, signed as Slack signs them, against a fake Slack."""

from __future__ import annotations

import pytest

from bot.blocks.buttons import CHOOSE_CANDIDATE, OPEN_PAGE, OPEN_PAGE_SELECT, SHARE
from tests.bot.block_kit import assert_valid_blocks, message_text
from tests.bot.conftest import RunningBot, running_bot
from tests.bot.fake_slack import OTHER_TEAM_ID, USER_ID, elements
from tests.conftest import eventually

ACK_LIMIT_S = 3.0


async def command(bot: RunningBot, text: str, name: str = "r1", command: str = "/entity") -> dict:
    """Send a slash command; check the ack is an empty 200 in time; return the one response_url post."""
    sent = await bot.sender.command(command, text, response_url=bot.slack.response_url(name))
    assert sent.status == 200 and sent.text == ""
    assert sent.seconds < ACK_LIMIT_S
    posts = await bot.slack.wait_for_responses(name)
    assert len(posts) == 1
    assert_valid_blocks(posts[0].body["blocks"])
    return posts[0].body


def action_ids(blocks: list[dict]) -> list[str]:
    return [element["action_id"] for _, element in elements(blocks)]


async def test_entity_card_with_related_products_as_links(bot):
    body = await command(bot, "ByteDance")
    text = message_text(body["blocks"])
    assert body["response_type"] == "ephemeral" and body["replace_original"] is False
    assert body["blocks"][0]["text"]["text"] == "ByteDance"
    assert "<https://wiki.example.com/wiki/entities/MegaScale|MegaScale>" in text
    assert "<https://wiki.example.com/wiki/entities/Minder|Minder>" in text
    assert "*関連プロダクト*" in text and "*Linked from*" in text
    assert SHARE in action_ids(body["blocks"])
    assert bot.slack.calls_to("auth.test")  # Bolt authorised the request against the fake Web API


async def test_share_to_channel_posts_for_everyone_and_removes_the_private_copy(bot):
    body = await command(bot, "ByteDance")
    sent = await bot.sender.click(body["blocks"], SHARE, response_url=bot.slack.response_url("share"))
    assert sent.status == 200 and sent.seconds < ACK_LIMIT_S
    shared, deleted = await bot.slack.wait_for_responses("share", count=2)
    assert shared.body["response_type"] == "in_channel" and shared.body["replace_original"] is False
    assert shared.body["blocks"][0]["text"]["text"] == "ByteDance"
    assert "MegaScale" in message_text(shared.body["blocks"])
    assert SHARE not in action_ids(shared.body["blocks"])
    assert f"Shared by <@{USER_ID}>" in message_text(shared.body["blocks"])
    assert deleted.body["delete_original"] is True
    assert_valid_blocks(shared.body["blocks"])


async def test_related_page_select_opens_its_card_in_place(bot):
    body = await command(bot, "ByteDance")
    select = next(e for _, e in elements(body["blocks"]) if e["action_id"] == OPEN_PAGE_SELECT)
    index = next(i for i, option in enumerate(select["options"]) if option["text"]["text"] == "Minder")
    await bot.sender.click(
        body["blocks"], OPEN_PAGE_SELECT, option_index=index, response_url=bot.slack.response_url("o")
    )
    (opened,) = await bot.slack.wait_for_responses("o")
    assert opened.body["replace_original"] is True and opened.body["response_type"] == "ephemeral"
    assert opened.body["blocks"][0]["text"]["text"] == "Minder"
    assert "ByteDance" in message_text(opened.body["blocks"])
    assert_valid_blocks(opened.body["blocks"])


async def test_related_page_button_opens_its_card_in_place(bot):
    body = await command(bot, "Volcano Engine")
    button = next(e for _, e in elements(body["blocks"]) if e["action_id"].startswith(OPEN_PAGE + ":"))
    await bot.sender.click(body["blocks"], button["action_id"], response_url=bot.slack.response_url("b"))
    (opened,) = await bot.slack.wait_for_responses("b")
    assert opened.body["replace_original"] is True
    assert opened.body["blocks"][0]["text"]["text"].startswith(button["text"]["text"].rstrip("…"))


async def test_button_in_a_public_message_answers_only_the_clicker(bot):
    body = await command(bot, "ByteDance")
    await bot.sender.click(
        body["blocks"], OPEN_PAGE_SELECT, ephemeral=False, response_url=bot.slack.response_url("pub")
    )
    (opened,) = await bot.slack.wait_for_responses("pub")
    assert opened.body["replace_original"] is False and opened.body["response_type"] == "ephemeral"


async def test_candidate_buttons_choose_a_page(bot):
    body = await command(bot, "Lin")
    assert "No page is called *Lin*" in message_text(body["blocks"])
    candidates = [e for _, e in elements(body["blocks"]) if e["action_id"].startswith(CHOOSE_CANDIDATE)]
    chosen = next(e for e in candidates if e["text"]["text"].startswith("Haibin Lin"))
    await bot.sender.click(body["blocks"], chosen["action_id"], response_url=bot.slack.response_url("c"))
    (card,) = await bot.slack.wait_for_responses("c")
    assert card.body["replace_original"] is True
    assert card.body["blocks"][0]["text"]["text"] == "Haibin Lin"


async def test_unresolved_name_says_no_page_yet(bot):
    body = await command(bot, "Zhuo Jiang")
    assert "*Zhuo Jiang* has no page yet" in message_text(body["blocks"])


async def test_wiki_search_and_help(bot):
    body = await command(bot, "CCL ハング 診断", command="/wiki")
    assert "CCL-D" in message_text(body["blocks"])
    help_body = await command(bot, "help", name="h", command="/wiki")
    assert "How to use sakuin" in message_text(help_body["blocks"])


@pytest.mark.parametrize("command_name", ["/entity", "/wiki"])
async def test_hostile_input_never_reaches_slack_unescaped(bot, command_name):
    hostile = '&lt;!channel&gt; <!here> <@U0BOSS|boss> "quoted" *bold* &amp; `code`'
    body = await command(bot, hostile, command=command_name)
    payload = message_text(body["blocks"]) + body["text"]
    for raw in ("<!channel>", "<!here>", "<@U0BOSS"):
        assert raw not in payload
    assert "&lt;!channel&gt;" in payload


@pytest.mark.parametrize("command_name", ["/entity", "/wiki"])
async def test_a_5000_character_query_gets_a_polite_answer(bot, command_name):
    body = await command(bot, "長い質問" * 1250, command=command_name)
    assert "Sorry, that is 5,000 characters long" in message_text(body["blocks"])


async def test_the_largest_page_of_the_example_vault_respects_block_kit_limits(bot, linked_wiki):
    largest = max(
        linked_wiki.live().catalog.pages.values(),
        key=lambda page: (
            len(linked_wiki.card(page.path).groups)
            + len(linked_wiki.card(page.path).backlinks)
            + len(page.summary)
        ),
    )
    body = await command(bot, largest.title)
    assert body["blocks"][0]["text"]["text"] == largest.title[:150]
    for page in linked_wiki.live().catalog.pages.values():  # and every other page's card, built the same way
        await bot.sender.click(
            [
                {
                    "type": "actions",
                    "elements": [
                        {
                            "type": "button",
                            "action_id": f"{OPEN_PAGE}:0",
                            "value": page.path,
                            "text": {"type": "plain_text", "text": "x"},
                        }
                    ],
                }
            ],
            f"{OPEN_PAGE}:0",
            response_url=bot.slack.response_url("all"),
        )
    posts = await bot.slack.wait_for_responses("all", count=len(linked_wiki.live().catalog.pages.values()))
    for post in posts:
        assert_valid_blocks(post.body["blocks"])


async def test_other_workspaces_are_refused(tmp_path, fake_slack, linked_wiki):
    async with running_bot(tmp_path, fake_slack, linked_wiki, slack_team_id="T0FAKE") as bot:
        sent = await bot.sender.command(
            "/entity", "ByteDance", response_url=fake_slack.response_url("x"), team_id=OTHER_TEAM_ID
        )
        assert sent.status == 200 and "not available in this workspace" in sent.text
        await command(bot, "ByteDance", name="ours")  # our own workspace still gets answers
    assert fake_slack.responses_to("x") == []


async def test_response_url_failure_is_logged_with_context(tmp_path, fake_slack, linked_wiki, caplog):
    async with running_bot(tmp_path, fake_slack, linked_wiki) as bot:
        fake_slack.drop("response:dead", times=4)  # the answer, the apology and their retries
        sent = await bot.sender.command("/entity", "ByteDance", response_url=fake_slack.response_url("dead"))
        assert sent.status == 200
        await eventually(lambda: "listener failed on command /entity" in caplog.text, what="the log line")
    record = next(r for r in caplog.records if "listener failed" in r.getMessage())
    assert "team T0FAKE" in record.getMessage() and f"user {USER_ID}" in record.getMessage()


async def test_wiki_digest_previews_a_day_privately(bot):
    body = await command(bot, "digest 2026-10-14", command="/wiki")
    text = message_text(body["blocks"])
    assert body["response_type"] == "ephemeral"
    assert "2026-10-14" in text and "Mycroft" in text and "CCL-D" in text


async def test_wiki_digest_of_an_empty_day_says_so(bot):
    body = await command(bot, "digest 2026-10-15", command="/wiki")
    assert "No sources were added that day" in message_text(body["blocks"])


@pytest.mark.parametrize("day", ["2026-13-01", "yesterday", "<!channel>"])
async def test_wiki_digest_with_a_bad_date_is_a_polite_answer(bot, day):
    body = await command(bot, f"digest {day}", command="/wiki")
    text = message_text(body["blocks"])
    assert "is not a date" in text and "<!channel>" not in text


async def test_a_failing_command_tells_the_user_politely(bot, caplog):
    bot.slack.drop("response:r1", times=2)  # the answer and the SDK's own retry of it are both cut off
    sent = await bot.sender.command("/entity", "ByteDance", response_url=bot.slack.response_url("r1"))
    assert sent.status == 200
    (apology,) = await bot.slack.wait_for_responses("r1")
    assert apology.body["response_type"] == "ephemeral"
    assert "Sorry, something went wrong" in message_text(apology.body["blocks"])
    assert "listener failed on command /entity (team T0FAKE, user U0ALICE, channel C0GENERAL)" in caplog.text
