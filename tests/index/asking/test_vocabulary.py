"""How questions ask: shapes, units, answer cues, kinds of page and relations (table-driven)."""

from __future__ import annotations

import re

import pytest

from index.analysis import fold
from index.asking.vocabulary import (
    Shape,
    asks,
    asks_about_upkeep,
    clipped_or_whole,
    gloss,
    is_clitic,
    shape_of,
)


@pytest.mark.parametrize(
    ("question", "shape", "unit"),
    [
        ("XPUTimer は何 GPU の本番クラスタで動いた?", Shape.NUMBER, "gpu"),
        ("CCL-D で手動診断の時間はどれだけ短くなった?", Shape.NUMBER, None),
        ("MegaScale は Megatron-LM の何倍速い?", Shape.NUMBER, "倍"),
        ("Mycroft は何ヶ月運用された?", Shape.NUMBER, "ヶ月"),
        ("Mycroft の誤検知率って何%?", Shape.NUMBER, None),  # a share: any number, of no unit
        ("誤検知率は何パーセント?", Shape.NUMBER, None),
        ("How many GPUs does ByteRobust run on?", Shape.NUMBER, "gpu"),
        # a measure asked with what or which, after a word of its own too, is a number
        ("Below what screen width does the sidebar collapse?", Shape.NUMBER, None),
        ("What membership number did Underwood get?", Shape.NUMBER, None),
        ("What data rate does the radio link reach?", Shape.NUMBER, None),
        ("Which pressure class is the deepwater workhorse?", Shape.NUMBER, None),
        ("What is bandwidth estimation?", Shape.DEFINITION, None),  # what a thing called so is
        ("What is port forwarding?", Shape.DEFINITION, None),
        ("Which team runs the sidebar?", Shape.NAME, None),
        ("how much did CCL-D shorten diagnosis?", Shape.NUMBER, None),
        ("Minder を開発したのはどこ?", Shape.NAME, None),
        ("誰が CCL-D の最終著者?", Shape.NAME, None),
        ("Who developed XPUTimer?", Shape.NAME, None),
        ("Which team runs Minder in production?", Shape.NAME, None),
        ("異常検知とは?", Shape.DEFINITION, None),
        ("根本原因分析って何?", Shape.DEFINITION, None),
        # a noun a clause tells apart asks which one, not what such a thing is
        ("元ネタになった中国の古典って何?", Shape.OPEN, None),
        ("メダルに刻ませた言葉って何?", Shape.OPEN, None),
        ("What is root cause analysis?", Shape.DEFINITION, None),
        ("Minder と ByteRobust の違いは?", Shape.DIFFERENCE, None),
        ("model tracking vs cache evaluation: what is the difference?", Shape.DIFFERENCE, None),
        ("XPUTimer は何を診断する?", Shape.OPEN, None),
        ("CCL のハングを診断できるシステムは?", Shape.OPEN, None),
        ("MegaScale の MFU は?", Shape.OPEN, None),
        # 何 + a counter asks for a number; 何 + a noun that counts nothing asks what it is
        ("現地で何人にインタビューした?", Shape.NUMBER, "人"),
        ("チームみらいは何議席取った?", Shape.NUMBER, "議席"),
        ("何種類あって、それぞれ何?", Shape.NUMBER, "種類"),
        ("政治会計を何方式に変える?", Shape.OPEN, None),
        ("管理画面は何番ポートで動く?", Shape.NUMBER, None),  # 何番: which number, counting nothing
        # 何度も, 何人もの say *many*: they ask for no number (the field is the name asked)
        ("何度も evict されたワークロードを止める設定はどのフィールド?", Shape.NAME, None),
        ("何年も前からある機能って何?", Shape.OPEN, None),
        ("バッテリーは何日もつ?", Shape.NUMBER, "日"),  # もつ, もらえる are verbs, not *many*
        ("何個もらえる?", Shape.NUMBER, "個"),
        # how many: the noun its words end on, before a verb, a function word or a measure
        ("How many production files still had /tmp hard-coded?", Shape.NUMBER, "production file"),
        ("How many H100 GPUs were used to pretrain Llama 3?", Shape.NUMBER, "h100 gpu"),
        ("How many people answered the ad?", Shape.NUMBER, "people"),
        ("How many pages long was the Blue Book?", Shape.NUMBER, "page"),
        # a property of a thing is not its definition; a when-clause does not ask when
        ("What is the default timeout of a command hook?", Shape.OPEN, None),
        ("What is the gateway's default port?", Shape.OPEN, None),
        (
            "オードリー・タンが初めて日本に来たのって何の大会だった？",
            Shape.OPEN,
            None,
        ),  # 何の: which, not what
        # a measure asked with what is a number
        ("What's the average bug bounty payout on HackerOne?", Shape.NUMBER, None),
        ("What is the maximum runtime of a job?", Shape.NUMBER, None),
        ("Which port does the viewer listen on?", Shape.NUMBER, None),
        ("What temperature drop did the students record?", Shape.NUMBER, None),
        # what a which or what asks that no name answers
        ("In what order does flow-state.sh resolve the session_id?", Shape.OPEN, None),
        ("What format are log entry headings written in?", Shape.OPEN, None),
        ("Where was Hastings based when he wrote it?", Shape.NAME, None),
        ("When was the crypt found?", Shape.NUMBER, None),
        ("How many GPUs pre-trained the model?", Shape.NUMBER, "gpu"),  # no unit cut inside a word
        ("何十人が参加した?", Shape.NUMBER, "人"),
        ("What is a monad in Haskell?", Shape.DEFINITION, None),
        # what's, whats and what exactly is ask what a thing is; what's the … asks a property
        ("What's a cohort?", Shape.DEFINITION, None),
        ("what\u2019s a cohort?", Shape.DEFINITION, None),
        ("whats a cohort", Shape.DEFINITION, None),
        ("What exactly is a cohort?", Shape.DEFINITION, None),
        ("What's the default timeout?", Shape.OPEN, None),
        ("Is WhatsApp supported?", Shape.OPEN, None),
        ("What's causing the relay timeouts?", Shape.OPEN, None),
        ("what's wrong with the relay", Shape.OPEN, None),
        # a function word after how many is no unit; asking what a thing is called asks a name
        ("Of the incidents, how many did the SPR say depended on her?", Shape.NUMBER, None),
        ("What were Harry Price's goldfish called?", Shape.NAME, None),
        ("その展示って何て名前だっけ？", Shape.NAME, None),
        ("展示の名前は？", Shape.NAME, None),
        # "differently" tells how, it does not ask for a difference
        ("Which two grep builds treated the line differently?", Shape.NAME, None),
    ],
)
def test_shapes(question: str, shape: Shape, unit: str | None) -> None:
    shaped = shape_of(fold(question))
    assert (shaped.shape, shaped.unit) == (shape, unit)


@pytest.mark.parametrize(
    ("question", "cues", "wants"),
    [
        ("Which team runs Minder in production?", ("チーム", "team"), None),
        ("Minder を本番で運用しているチームは?", ("チーム", "team"), None),
        ("どの大学と共同で開発した?", ("大学", "university"), None),
        ("which paper proposes adaptive failure detection?", (), "source"),
        ("Which system diagnoses CCL hangs?", (), "entity"),
    ],
)
def test_what_a_name_question_says_of_its_answer(
    question: str, cues: tuple[str, ...], wants: str | None
) -> None:
    shaped = shape_of(fold(question))
    assert shaped.shape is Shape.NAME
    assert set(cues) <= set(shaped.cues) and shaped.wants == wants


@pytest.mark.parametrize(
    ("word", "rendering"),
    [
        ("runs", "運用"),
        ("operated", "運用"),
        ("shorten", "短縮"),
        ("trace", "トレーシング"),
        ("tracks", "追跡"),
        ("monitors", "監視"),
        ("measured", "計測"),
        ("team", None),
    ],
)
def test_question_verbs_have_their_japanese_renderings(word: str, rendering: str | None) -> None:
    assert (rendering in gloss(word)) if rendering else gloss(word) == ()


@pytest.mark.parametrize(
    ("message", "asked"),
    [
        ("Minder を開発したのはどこ", True),  # a shape, without a question mark
        ("XPUTimer は何を診断する?", True),
        ("XPUTimer は何を診断する？", True),  # full-width
        ("Minder は本番で使われていますか", True),
        ("MegaScale って誰が作ったんだっけ", True),
        ("なぜ CCL-D はハングを検知できる", True),
        ("Who developed XPUTimer", True),
        ("does Minder run in production", True),
        ("異常検知とは", True),
        ("Minder のリリースノートを更新しました。", False),
        ("thanks, merged the fix", False),
        ("明日の定例は 10 時からです", False),
        ("LGTM 👍", False),
        ("no idea what's wrong with CI, rerunning", False),
        ("whats a cohort", True),
        ("", False),
    ],
)
def test_whether_a_message_asks(message: str, asked: bool) -> None:
    assert asks(fold(message)) is asked


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("Roughly how many people showed up?", ("roughly",)),
        ("Who came up with Futarchy?", ("came up with",)),
        ("What does GFM stand for?", ("stand for",)),
        ("When did the wiki start, according to the log?", ("according to",)),
        ("What is the default timeout, according to the wiki?", ("according to the wiki",)),
        ("wiki では何て名前になってる?", ("wiki では",)),
        ("What am I supposed to write instead?", ("supposed to",)),
        ("Why are we told to switch off TLS compression?", ("we told to",)),
        ("I was told to pin the image. Why?", ("i was told to",)),
        ("quick one: what's a cohort?", ("quick one: ",)),
        ("Hey, which port does it use?", ("hey, ",)),
        ("Explain borrowing in simple terms", ("in simple terms",)),
        ("What's a cohort in Kueue terms?", ("in kueue terms",)),  # the frame, which sentences leave unsaid
        ("hey, quick question: what is a cohort?", ("hey, quick question: ",)),
        ("Who developed Minder?", ()),
    ],
)
def test_hedges_and_framing_are_asking_words(question: str, asked: tuple[str, ...]) -> None:
    folded = fold(question)
    spans = shape_of(folded).asking
    said = {folded[start:end] for start, end in spans}
    assert set(asked) <= said
    assert not any(
        word in said for word in ("people", "futarchy", "gfm", "log", "minder", "cohort", "borrowing")
    )


@pytest.mark.parametrize(
    ("question", "word"),
    [
        ("Quick sort vs merge sort?", "quick"),  # an opener is framing only before punctuation
        ("hi-res images for the docs?", "hi"),
        ("Hello world sample in Go?", "hello"),
    ],
)
def test_an_opening_word_that_is_the_subject_stays_a_keyword(question: str, word: str) -> None:
    folded = fold(question)
    assert not any(folded[start:end].startswith(word) for start, end in shape_of(folded).asking)


@pytest.mark.parametrize(
    ("question", "word", "clitic"),
    [
        ("What's the main difference?", "s", True),
        ("Roughly how many answered Price's ad?", "s", True),
        ("Who’s the author?", "s", True),  # a typographic apostrophe
        ("They're asking", "re", True),
        ("We'll see", "ll", True),
        ("Why don't the tests pass?", "don", True),
        ("Why don't the tests pass?", "t", True),
        ("It won’t start", "won", True),
        ("Who won the 2022 World Cup?", "won", False),
        ("What is the S in SOLID?", "s", False),
        ("Who is O'Brien?", "brien", False),
        ("Who is O'Brien?", "o", False),
    ],
)
def test_what_an_apostrophe_joins_to_a_word_is_grammar(question: str, word: str, clitic: bool) -> None:
    folded = fold(question)
    start = next(m.start() for m in re.finditer(rf"(?<![a-z]){word}(?![a-z])", folded))
    assert is_clitic(folded, start, start + len(word)) is clitic


@pytest.mark.parametrize(
    ("question", "measures"),
    [
        ("How long is that LongTimeout actually?", ("time", "length")),
        ("What timeout does the webhook use?", ("time",)),
        ("Below what screen width does the sidebar collapse?", ("length",)),
        ("What temperature drop did they record?", ("temperature",)),
        ("Which Python version does the plugin need?", ("version",)),
        ("signal-cli はどのバージョン以上が必要?", ("version",)),
        ("タイムアウトは何秒?", ()),  # a counter asked: the unit is 秒
        ("How many GPUs does ByteRobust run on?", ()),
        ("Who wrote the timeout patch?", ()),  # no number asked
        ("タイムアウトはどのくらい?", ("time",)),  # the noun asked of, before the asking words
        ("処理にはどのくらいの時間がかかる?", ("time",)),
        # a measure the question names elsewhere than the number asked
        ("What percentage of requests hit the timeout?", ()),
        ("Which port does the timeout proxy listen on?", ()),
        ("What ratio of width to height is used?", ()),
        ("キャンペーン期間中の参加者はどのくらい?", ()),
        ("幅広い分野で使われる手法はいくつある?", ()),
        ("起きてる時間のどれくらいぼーっとしてる?", ()),  # a share of the time, not a time
        # a change of a measure is said as often relatively (12%, 1.34 倍)
        ("ワークロードの応答時間はどれだけ短縮される?", ()),
        ("How much did the timeout shrink, how long faster?", ()),
    ],
)
def test_the_measure_a_number_is_asked_in(question: str, measures: tuple[str, ...]) -> None:
    assert shape_of(fold(question)).measures == measures


@pytest.mark.parametrize(
    ("question", "dated"),
    [
        ("When was the crypt found?", True),
        ("Kite はいつ公開された?", True),
        ("山形浩生さんって何年生まれ?", True),
        ("何年も使われている設定は?", False),  # 何年も: for many years
        ("Where was Hastings based when he wrote it?", False),
        ("How many GPUs does ByteRobust run on?", False),
    ],
)
def test_questions_that_ask_when(question: str, dated: bool) -> None:
    assert shape_of(fold(question)).dated is dated


@pytest.mark.parametrize(
    ("question", "upkeep"),
    [
        ("When did the wiki get initialised according to the log?", True),
        ("How many pages got enriched in the NotebookLM pass?", True),
        ("Which page did the lint pass find completely empty?", True),
        ("How many new pages did the deep-dive on The End of Borley Rectory create?", True),
        ("What prefix do the source slugs use?", True),
        ("When was the page frontmatter migrated to OKF v0.2?", True),
        ("2026-08-23 の lint で stale は何件と報告された？", True),
        ("2026-08-10 の説明文補完の作業では何ページが対象になった？", True),
        ("この wiki が初期化されたのはいつ？", True),
        ("log.md を更新したあと log.txt を作り直すのはどのスクリプト？", True),
        ("PR #789 の review は wiki ingest で skip されてる？", True),
        ("Who opened the Psychic Fête in June 1939?", False),
        ("rite の review 結果を Slack に通知する設定ってどうやるの？", False),
        ("How many pages long was the Blue Book?", False),  # a page of a book is no page of the wiki
        ("What does the catalog say about blogs and dialogues?", False),  # log only as a word
        ("Minder は 2024 年に何を発表した?", False),  # a year is not a day of the log
    ],
)
def test_a_question_about_the_wikis_upkeep(question: str, upkeep: bool) -> None:
    assert asks_about_upkeep(fold(question)) is upkeep


@pytest.mark.parametrize(
    ("question", "priced"),
    [
        ("How much did Price pay to get the Blue Book printed?", True),
        ("How much rent was Price paying for the rectory?", True),
        ("How much money did the fete bring in?", True),
        ("渋谷区がトライアルにかけた費用はいくらだった？", True),
        ("How much RAM do you need to run it locally?", False),
        ("How much of the SHA-1 hash do we send?", False),
        ("何人からいくら集まったって？", True),
        ("いくつのルールがある？", False),
        ("このキャラの体力はいくら？", False),
    ],
)
def test_questions_that_ask_a_sum_of_money(question: str, priced: bool) -> None:
    assert shape_of(fold(question)).priced is priced


@pytest.mark.parametrize(
    ("question", "proper"),
    [
        ("Who is OWASP's executive director?", True),
        ("PR #548 を最終的にマージしたのは誰？", True),
        ("What were Harry Price's goldfish called?", True),
        ("What powder did Glanville put in his cup?", False),
        ("Which exit code does GNU sed use for an I/O error?", False),
    ],
)
def test_questions_that_ask_a_proper_name(question: str, proper: bool) -> None:
    assert shape_of(fold(question)).proper is proper


@pytest.mark.parametrize(
    ("word", "others"),
    [
        ("repo", ("repository",)),
        ("repository", ("repo",)),
        ("config", ("configuration",)),
        ("k8s", ("kubernetes",)),
        # a clipping of more than one word is left alone (minutes or minimum, security or seconds)
        ("min", ()),
        ("sec", ()),
        ("harbour", ()),
    ],
)
def test_a_clipped_word_and_its_whole_spelling(word: str, others: tuple[str, ...]) -> None:
    assert clipped_or_whole(word) == others
