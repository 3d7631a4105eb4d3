import pytest

from bot.blocks.mrkdwn import clip, escape, escape_clipped, link, strip_mention, unescape


@pytest.mark.parametrize(
    ("raw", "escaped"),
    [
        ("plain", "plain"),
        ("<!channel>", "&lt;!channel&gt;"),
        ("<!here> <@U123> <#C1|general>", "&lt;!here&gt; &lt;@U123&gt; &lt;#C1|general&gt;"),
        ("a & b", "a &amp; b"),
        ("&amp;", "&amp;amp;"),
        ('"quoted" *bold* _it_', '"quoted" *bold* _it_'),
        ("<https://evil.example|click>", "&lt;https://evil.example|click&gt;"),
        ("日本語 <タグ>", "日本語 &lt;タグ&gt;"),
    ],
)
def test_escape_exactly_three_characters(raw, escaped):
    assert escape(raw) == escaped
    assert unescape(escaped) == raw


@pytest.mark.parametrize(
    ("slack_text", "typed"),
    [
        ("a &amp; b", "a & b"),
        ("&lt;!channel&gt;", "<!channel>"),
        ("&amp;lt;", "&lt;"),  # one pass: what the user typed was the five characters "&lt;"
        ("&quot;", "&quot;"),  # Slack only escapes & < >
    ],
)
def test_unescape_undoes_slacks_escaping_once(slack_text, typed):
    assert unescape(slack_text) == typed


@pytest.mark.parametrize(
    ("url", "label", "expected"),
    [
        (
            "https://wiki.example/wiki/entities/ByteDance",
            "ByteDance",
            "<https://wiki.example/wiki/entities/ByteDance|ByteDance>",
        ),
        ("https://wiki.example/a b|c>d", "x", "<https://wiki.example/a%20b%7Cc%3Ed|x>"),
        ("https://wiki.example/p", "<!channel> & co", "<https://wiki.example/p|&lt;!channel&gt; &amp; co>"),
        (None, "<b>", "&lt;b&gt;"),
        ("javascript:alert(1)", "x", "x"),
        ("", "name", "name"),
    ],
)
def test_link_escapes_label_and_keeps_url_inside_the_link(url, label, expected):
    assert link(url, label) == expected


@pytest.mark.parametrize(
    ("text", "bot", "expected"),
    [
        ("<@U0BOT> Minder を開発したのはどこ?", "U0BOT", "Minder を開発したのはどこ?"),
        ("<@U0BOT|sakuin>: help", "U0BOT", "help"),
        ("  <@U0BOT>   ", "U0BOT", ""),
        ("<@U0OTHER> what is X", "U0BOT", "<@U0OTHER> what is X"),
        ("<@U0OTHER> what is X", None, "what is X"),
        ("what is <@U0BOT>", "U0BOT", "what is <@U0BOT>"),
        ("no mention", "U0BOT", "no mention"),
    ],
)
def test_strip_mention_removes_only_the_leading_bot_mention(text, bot, expected):
    assert strip_mention(text, bot) == expected


@pytest.mark.parametrize(
    ("text", "limit", "expected"),
    [
        ("short", 10, "short"),
        ("abcdefghij", 10, "abcdefghij"),
        ("abcdefghijk", 10, "abcdefghi…"),
        ("abcdef&amp;gh", 10, "abcdef…"),  # never half an entity
        ("abcdefg&lt;", 10, "abcdefg…"),
    ],
)
def test_clip(text, limit, expected):
    assert clip(text, limit) == expected
    assert len(clip(text, limit)) <= limit


def test_escape_clipped_counts_the_escaped_length():
    clipped = escape_clipped("<" * 100, 20)
    assert len(clipped) <= 20
    assert clipped.endswith("…") and "&lt;" in clipped and "<" not in clipped
