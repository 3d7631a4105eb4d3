"""Answer first, on the example vault: the words that answer are within a reply's first screen.

Each row is a question as a user would type it and the words a right answer shows (NFKC, case-folded),
measured with `bot.blocks.visible.first_screen` (the first 400 visible characters), with and without
``WIKI_BASE_URL`` (links or Card buttons).
"""

from __future__ import annotations

import pytest

from bot.answering.replies import question_reply
from bot.blocks.visible import first_screen
from index.wiki import Wiki
from tests.bot.block_kit import assert_valid_blocks
from tests.conftest import make_settings

QUESTIONS = [
    # a number
    ("XPUTimer は何 GPU の本番クラスタで動いた?", ["6,000 gpu"]),
    ("CCL-D で手動診断の時間はどれだけ短くなった?", ["6 分"]),
    ("How many GPUs does ByteRobust run on?", ["20 万 gpu"]),
    ("MegaScale の MFU は?", ["55.2%"]),
    ("MegaScale の MFU はどれだけ向上した?", ["55.2%"]),
    ("How long has Mycroft been used in production?", ["6 ヶ月"]),
    ("Minder は障害に何秒で反応する?", ["3.6 秒"]),
    ("Llama 3 の学習で予期しない中断は何件あった?", ["419 件"]),
    ("How many H100 GPUs were used to pretrain Llama 3 405B?", ["16,384"]),
    ("LogPilot の 1 件あたりの診断コストは?", ["0.074 ドル"]),
    ("XPUTimer のトレーシングのオーバーヘッドはどれくらい?", ["1% 未満"]),
    ("ByteRobust の ETTR は?", ["97%"]),
    ("What share of Llama 3's unexpected interruptions were caused by hardware?", ["78%"]),
    ("How many unexpected interruptions did Llama 3 have?", ["419"]),
    ("How fast does Minder react to failures?", ["3.6 秒"]),
    # a name, a team, a relation
    ("Which team runs Minder in production?", ["high-speed network"]),
    ("Minder を開発したのはどこ?", ["bytedance"]),
    ("Who developed XPUTimer?", ["ant group"]),
    ("CCL-D を開発したのは?", ["ant group"]),
    ("Mycroft を開発した組織は?", ["bytedance"]),
    ("Which organization built LogPilot?", ["bytedance"]),
    ("DLRover を公開したのは誰?", ["ant group"]),
    ("Which university co-developed CCL-D with Ant Group?", ["university of chinese academy of sciences"]),
    ("ByteDance の共同研究先は?", ["nankai university"]),
    ("Haibin Lin が関わったプロジェクトは?", ["megascale", "minder", "byterobust"]),
    ("Which papers did Haibin Lin co-author?", ["megascale"]),
    ("Shenglin Zhang が責任著者の論文は?", ["from chaos to clarity"]),
    ("CCL のハングを診断できるシステムは?", ["ccl-d"]),
    ("Who wrote the Minder paper?", ["yangtao deng"]),
    ("Which university did Shenglin Zhang work at?", ["nankai university"]),
    ("Where is ByteDance headquartered?", ["北京"]),
    # a definition, a difference
    ("異常検知とは?", ["正常時の振る舞いと異なるパターン"]),
    ("What is root cause analysis?", ["根本的な原因"]),
    ("Who is Dingwen Tao?", ["ccl-d"]),
    ("What does Volcano Engine do?", ["クラウド"]),
    ("What does XPUTimer trace?", ["python api", "gpu カーネル"]),
    ("What does Minder monitor?", ["監視指標"]),
    ("XPUTimer の別名は?", ["flare"]),
    ("Minder と ByteRobust の違いは?", ["再開"]),
    ("Minder と Mycroft の違いは?", ["どのマシン"]),
]


@pytest.mark.parametrize("linked", [False, True], ids=["card buttons", "links"])
@pytest.mark.parametrize(("question", "words"), QUESTIONS)
def test_the_answer_is_on_the_first_screen(
    wiki: Wiki, linked_wiki: Wiki, tmp_path, question: str, words: list[str], linked: bool
) -> None:
    reply = question_reply(question, linked_wiki if linked else wiki, make_settings(tmp_path))
    assert_valid_blocks(reply.blocks)
    screen = first_screen(reply.blocks)
    missing = [word for word in words if word not in screen]
    assert not missing, f"{missing} not in the first screen:\n{screen}"


def test_a_question_the_wiki_cannot_answer_says_so(wiki: Wiki, tmp_path) -> None:
    reply = question_reply("What is the price of a banana?", wiki, make_settings(tmp_path))
    assert reply.answer is not None and not reply.answer.confident
    assert first_screen(reply.blocks).startswith(("i found no sentence", "i could not find anything"))
