"""What a question asks for, in Japanese and in English: the vocabulary of asking.

- its **shape**: a number (どれだけ, 何倍, 何 GPU, how many), a name (誰, どこ, who, which team), a
  definition (とは, what is), a difference (違い, difference), or open; the words that ask are not
  keywords (no sentence is expected to contain 何 or ``how``);
- what it names of the answer: the unit counted (何 GPU → ``gpu``), words an answer contains
  (which team → チーム, team), the kind of page that answers (which paper → a source);
- the verbs Japanese prose says differently (``runs`` → 運用), and English stop words.

Matched on the folded question (NFKC + casefold). A new way of asking is a change to this file; the
relation a question asks for is read in `index.asking.relations`, English word forms in
`index.asking.wordforms`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from index.asking.wordforms import singular

_STOPWORD_TEXT = """
    a about after again against all already also am an and another any anybody anyone anything are around
    as at be because been before being below between both but by can could did do does doing done down
    during each either else ever every everyone everything few find for from get gets got had has have
    having he her here hers him his how i if in into is it its just know let many may maybe me might
    mine more most much must my neither no not now of off on once only or other others ought our ours
    out over own please really same say says shall she should show so some somebody someone something
    still such tell than that the their them then there these they this those though through to too
    under until up upon us very want wants was way we well were what whatever when where whether which
    while who whoever whom whose why will with would yes yet you your
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())
"""English function words: they say how a question asks, not what about (`is_stopword`)."""
_CLITICS = frozenset({"s", "t", "re", "ll", "ve", "d", "m"})
_APOSTROPHES = "'\u2019"


def is_clitic(folded: str, start: int, end: int) -> bool:
    """The Latin word at ``start:end`` is grammar an apostrophe joins to a word: the clitic itself
    (the s of What's and Price's, the re of they're) or the auxiliary a negation is written onto
    (don of don't, isn of isn't, won of won't). Neither is a word the question asks about."""
    word = folded[start:end]
    after_word = start >= 2 and folded[start - 1] in _APOSTROPHES and folded[start - 2].isalpha()
    if after_word and word in _CLITICS:
        return True
    negated = folded[end : end + 2]
    return (
        len(negated) == 2
        and negated[0] in _APOSTROPHES
        and negated[1] == "t"
        and not folded[end + 2 : end + 3].isalpha()
    )


class Shape(StrEnum):
    NUMBER = "number"
    NAME = "name"
    DEFINITION = "definition"
    DIFFERENCE = "difference"
    OPEN = "open"


# The words that ask (何, どこ, how many, which …) are matched on the folded question and are not
# keywords: no sentence is expected to contain them.
_DIFFERENCE = re.compile(
    r"(?:(?:主な|大きな|一番の|最大の)\s*)?(?:違い|違う|異なる|差異)|比較|比べ"
    r"|(?:\b(?:main|key|major|biggest|big|real|chief|primary|principal|essential|fundamental)\s+)?"
    r"\bdiffer(?!ently)\w*|\bcompar\w*|\bvs\b\.?|\bversus\b"
)
"""A difference asked, with the word that only weighs it (the *main* difference, 主な違い): the
question's frame, which no passage says, not a word of its subject."""
_NUMBER = re.compile(
    r"どれ(?:だけ|ほど|くらい|ぐらい)|どの(?:くらい|ぐらい|程度)|いくつ|いくら|いつ|何\s*(?:%|パーセント)"
    r"|何(?!\s*(?:[十百千万]\s*)?(?:[a-z][a-z0-9-]*|[ァ-ヺー]+|[一-鿿]{1,2})\s*も(?![らりるれろっつちてと]))\s*(?:[十百千万]\s*)?(?P<unit>[a-z][a-z0-9-]*|[ヶヵカかケ]月|[ァ-ヺー]{2,}|時間|議席|種類|文字|[日年週]間|段階|世代|(?![方式語色系型曜者故処物事])[一-鿿])"
    r"|\bhow\s+many(?:\s+(?!(?:{stop})\b)(?P<unit_en>[a-z][a-z0-9-]*(?:\s+(?!(?:{stop}|long|old|wide|high|deep|tall|big|large)\b)[a-z][a-z0-9-]*(?![a-z0-9-])(?<!ed))?))?"
    r"|\bhow\s+(?:much|long|fast|big|large|often|far|old|quickly|soon)\b"
    r"|\bwhat\s+(?:percentage|percent|share|fraction|proportion|ratio|number)\b|^when\b"
    r"|\bwhat(?:'s|\s+(?:is|was|are|were))?\s+(?:the\s+)?(?=(?:average|mean|median|total|maximum|minimum|max|min)\b)"
    r"|\b(?:what|which)\s+(?=(?:(?!(?:is|are|was|were)\b)[a-z]+\s+)?(?:port|temperature|size|limit|timeout|price|cost|length|duration|capacity"
    r"|threshold|width|height|depth|weight|speed|age|interval|frequency|distance|number|rate|pressure|volume"
    r"|amount|count|density|latency|bandwidth|version|release)s?\b)"
    r"|どの\s*(?:バージョン|リリース)".replace("{stop}", "|".join(sorted(STOPWORDS)))
)
"""何 asks for a number with a counter after it (何人, 何件, 何議席, 何 GPU; 何方式, 何語 ask for a
name; 何度も, 何人もの, 何年も say *many*, and ask nothing, unlike 何日もつ, 何個もらえる). The unit
of ``how many`` is its next word or two, up to a function word, a past tense or a measure (how many
production files still had …: production files; how many pages long: pages); the last is taken for
the noun, which a present-tense verb after a one-word noun may not be; a function word right after
it is no unit (how many did the SPR say …). A measure asked with *what* (what's the average
payout, the maximum size) is a number too, and so is a measure asked with *which* or *what* (which
port, what membership number, what temperature drop, what screen width); the measure stays a
keyword."""
_NAME = re.compile(
    r"誰|だれ|どこ|どちら|何者|何処|どの\s*(?P<noun>[ァ-ヺー]+|[一-鿿]+)"
    r"|(?P<focus>チーム|グループ|研究室|大学|企業|会社|組織|機関)(?:は|って)?\s*[?？]?\s*$"
    r"|何て名前|なんて名前|何という名前|(?:名前|名称)(?:は|って)\s*(?:何|なに)?\s*(?:だっけ|ですか)?\s*[?？]?\s*$"
    r"|\bwho(?:m|se)?\b|\bwhere\b|\b(?:called|named)\s*[?？]?\s*$|\b(?:which|what)\s+(?P<noun_en>[a-z]+)"
)
"""誰, どこ, which X, who …; and asking what a thing is called (何て名前, 名前は？, what was it called?)."""
_DEFINITION = re.compile(
    r"とは|って(?:何|なに)(?![のもをがでにか])|の定義|の意味|\bdefin(?:e|ition)\b|\bmeaning\s+of\b"
    r"|\bwhat(?:\s+(?:exactly|actually|really|precisely))?(?:\s+(?:is|are)|['\u2019]?s)\b"
    r"(?!\s+(?:wrong|new|up|left|next|[a-z]+ing)\b)"
)
"""What a thing is: とは, って何, what is (what exactly is, what's, whats), the definition of; not
what's wrong, new, up, left, next or going on (what's causing …), which ask what happens."""
_CLAUSED = re.compile(r"[たるいだ](?:[一-龥ァ-ヶーa-z]+)(?:の[一-龥ァ-ヶーa-z]+)*(?:とは|って(?:何|なに))")
"""A noun a verb's clause tells apart (刻ませた言葉って何?, 元ネタになった中国の古典って何?): the
question asks which one, as an open question does, not what such a thing is."""
_FRAMING = re.compile(
    r"\b(?:roughly|approximately|exactly|actually|originally|basically|supposedly|remind\s+me"
    r"|supposed\s+to|(?:we|i|you|they)(?:['\u2019]re|['\u2019]ve\s+been|\s+(?:are|were|was|get|got|have\s+been))?\s+told\s+to"
    r"|according\s+to(?:\s+(?:the|our)\s+(?:wiki|notes|docs))?|c[oa]me?\s+up\s+with"
    r"|stands?\s+for|do\s+you\s+(?:know|remember)|these\s+days|nowadays)\b"
    r"|^(?:(?:hey|hi|hello|ok(?:ay)?|so|btw|sorry|quick(?:\s+(?:one|question|q))?"
    r"|(?:dumb|silly|stupid|newbie|noob|random)\s+question)\s*(?:[,:;!.\u2014]|\s-)\s*)+"
    r"|\bin\s+(?:simple|plain|layman['\u2019]?s|lay|basic|practical)\s+terms\b"
    r"|\bin\s+[\w'\u2019-]+\s+terms\b"
    r"|^(?:ちょっと質問(?:です)?|質問です|すみません|すいません)[、,:：\s]*"
    r"|(?:wiki|ウィキ)\s*(?:によると|によれば|では|だと)"
)
"""How a question hedges or frames itself (roughly how many, we were told to, according to the log,
according to the wiki, who came up with X, what does X stand for these days, wiki では, in Kueue
terms: the frame the wiki is written in, which a sentence rarely repeats), or opens (quick
question:, hey,): no sentence is expected to say these words."""
_MEASURES = (
    (
        "time",
        re.compile(
            r"\bhow\s+(?:long|often|quickly|soon)\b"
            r"|\b(?:timeouts?|intervals?|durations?|delays?|ttls?|latency|latencies|period|half-life)\b"
            r"|タイムアウト|間隔|期間|遅延|時間"
        ),
    ),
    (
        "length",
        re.compile(
            r"\bhow\s+(?:long|far|wide|tall|high|deep)\b|\b(?:width|height|depth|length|distance)s?\b"
            r"|横幅|幅|高さ|距離|長さ"
        ),
    ),
    ("temperature", re.compile(r"\btemperatures?\b|温度|気温")),
    ("version", re.compile(r"\b(?:versions?|releases?)\b|バージョン|リリース")),
)
"""The measures a number question may ask (how long, what timeout; what width; what temperature;
which version, どのバージョン, answered by a version, not by any number or none):
each is said in its units (`index.asking.quantities.find_measured`). *how long* asks a time or a
length: either answers."""
_ASKED_NEXT = re.compile(r"の[\u30a0-\u30ff\u4e00-\u9fff]+|(?:\s*[a-z][a-z'-]*){0,2}")
"""The words right after the asking ones, which say what the number measures (what *screen width*,
what's the maximum *timeout*, どのくらいの*時間*)."""
_SHARE = re.compile(r"\b(?:percentage|percent|share|fraction|proportion|ratio|number)\b")
_ASKED_TOPIC = re.compile(r"([\u30a0-\u30ff\u4e00-\u9fffa-z]+)(?:は|って|が)\s*$")
"""The noun a Japanese question asks the number of, right before its asking words (タイムアウトは
どのくらい); not one they ask a part of (起きてる時間のどれくらい: a share of it)."""
_ASKS_WHEN = re.compile(
    r"いつ|何年(?!\s*も(?![らりるれろっつちてと]))|^when\b|\b(?:what|which)\s+(?:year|date|day)"
)
_ASKS_MONEY = re.compile(
    r"(?:費用|価格|定価|料金|金額|値段|予算|寄付|お金|円).*いくら|いくら.*(?:円|払|かか|集ま)|\bhow\s+much\b.*\b(?:pa(?:y|id|ys|ying)|costs?|spen[dt]|spending|money|rent|charged?|fees?"
    r"|earn(?:ed|s)?|raised?|worth|budget|sold\s+for|sell\s+for|br(?:ing|ought)\s+in)\b"
)
"""It asks for a sum of money: いくら with a word of money (費用, 定価 … いくら; いくら払った, かかる,
集まった: いくら alone may ask how much of anything), how much … pay, cost, rent, money …"""
_ORDINAL = frozenset({"番", "号"})
"""何番 (ポート), 何号: which number, not a count of anything."""
_ASKING = re.compile(r"何|なに|\b(?:what|which)\s+(?:year|date|day)s?\b|\bwhats?\b|\bwhich\b|\bhow\b")
"""The words that ask; ``what year`` (like 何年) asks for a year, which no sentence says as *year*."""
ANSWER_CUES: dict[str, tuple[str, ...]] = {
    "team": ("チーム", "team", "グループ", "group"),
    "group": ("グループ", "group", "チーム", "team", "研究室", "lab"),
    "lab": ("研究室", "lab", "グループ", "group"),
    "university": ("大学", "university"),
    "company": ("企業", "会社", "company"),
    "organization": (),
}
"""What an answer naming a team, a lab … contains in either language. The nouns of the question
(``which team``, どのチーム) map here through `_CUE_NOUNS`."""
PAGE_NOUNS = {
    "paper": "source",
    "論文": "source",
    "article": "source",
    "study": "source",
    "system": "entity",
    "システム": "entity",
    "tool": "entity",
    "ツール": "entity",
    "product": "entity",
    "製品": "entity",
    "framework": "entity",
    "フレームワーク": "entity",
    "library": "entity",
    "ライブラリ": "entity",
    "person": "entity",
    "researcher": "entity",
    "人物": "entity",
    "研究者": "entity",
    "organization": "entity",
    "organisation": "entity",
    "concept": "concept",
    "概念": "concept",
}
"""The kind of page a ``which X`` question is answered by (which paper → a source page)."""
_CUE_NOUNS = {
    "team": "team",
    "teams": "team",
    "チーム": "team",
    "group": "group",
    "groups": "group",
    "グループ": "group",
    "lab": "lab",
    "labs": "lab",
    "laboratory": "lab",
    "研究室": "lab",
    "university": "university",
    "universities": "university",
    "大学": "university",
    "company": "company",
    "companies": "company",
    "企業": "company",
    "会社": "company",
    "組織": "organization",
    "機関": "organization",
}


FEWER = ("削減", "短縮", "低減", "減")
MORE = ("向上", "増加", "改善", "高速")
"""How Japanese prose says that something changed: the verb of a question for a number
(どれだけ短縮された?), which prose says in many ways or with the figures alone (1.34 倍だった)."""
_CHANGED = re.compile(
    "|".join((*FEWER, *MORE, "短く", "長く", "速く", "遅く"))
    + r"|\b(?:reduc|shorten|decreas|cut|lower|sav|improv|increas|rais|boost|accelerat|speed|fast|slow)\w*"
)
"""A question of a change (短縮, shorten, faster): the changed measure is said as often relatively."""
GLOSSES = (
    (("operat", "run", "ran", "deploy"), ("運用", "稼働", "導入")),
    (("develop", "buil", "creat"), ("開発", "構築", "作成")),
    (("reduc", "shorten", "decreas", "cut", "lower", "sav"), FEWER),
    (("improv", "increas", "rais", "boost", "accelerat", "speed"), MORE),
    (("detect",), ("検知", "検出")),
    (("diagnos",), ("診断",)),
    (("trac",), ("トレース", "トレーシング", "追跡")),
    (("monitor", "observ", "watch"), ("監視", "モニタリング", "観測")),
    (("measur",), ("計測", "測定")),
    (("record", "logs", "logg"), ("記録",)),
    (("collect", "gather"), ("収集",)),
    (("predict", "forecast"), ("予測",)),
    (("analy",), ("分析", "解析")),
    (("recover", "restor"), ("復旧", "回復")),
    (("isolat",), ("隔離",)),
    (("locali", "pinpoint"), ("特定", "局所化")),
    (("schedul",), ("スケジューリング",)),
    (("propos",), ("提案",)),
    (("evaluat",), ("評価",)),
    (("production",), ("本番",)),
    (("author", "wrote", "writ"), ("著者",)),
    (("correspond",), ("責任著者",)),
    (("paper",), ("論文",)),
)
"""The verbs a question about systems asks with, as Japanese prose writes them: an English question
over Japanese passages finds ``運用`` for ``runs`` and ``短縮`` for ``shorten``. Names and concepts
translate through the wiki's own aliases (`_expansions`); this covers the words around them."""


def gloss(word: str) -> tuple[str, ...]:
    """Japanese renderings of an English word (by its stem: ``operates``, ``operated`` → 運用 …)."""
    for stems, renderings in GLOSSES:
        if any(word.startswith(stem) for stem in stems):
            return renderings
    return ()


_CLIPPINGS = (
    ("repo", "repository"),
    ("org", "organization"),
    ("config", "configuration"),
    ("info", "information"),
    ("doc", "documentation"),
    ("env", "environment"),
    ("auth", "authentication"),
    ("admin", "administrator"),
    ("dir", "directory"),
    ("app", "application"),
    ("spec", "specification"),
    ("param", "parameter"),
    ("arg", "argument"),
    ("var", "variable"),
    ("lib", "library"),
    ("pkg", "package"),
    ("msg", "message"),
    ("db", "database"),
    ("perf", "performance"),
    ("k8s", "kubernetes"),
)
"""English words as technical writing clips them, and whole: a question's *repos* are the
*21 repositories* a page counts, its *config* the *Configuration API*. Not *min*, *sec* or *dev*,
which clip more than one word."""


def clipped_or_whole(word: str) -> tuple[str, ...]:
    """The other spelling of a clipped word (``repo`` → ``repository``, ``configuration`` →
    ``config``), singular, or none."""
    pairs = ((short, whole) for short, whole in _CLIPPINGS)
    return tuple(
        other for short, whole in pairs for this, other in ((short, whole), (whole, short)) if word == this
    )


def says_a_change(word: str) -> bool:
    """The Japanese word is one of the verbs of change (`FEWER`, `MORE`)."""
    return word in FEWER or word in MORE


@dataclass(frozen=True)
class Shaped:
    shape: Shape
    asking: list[tuple[int, int]]
    unit: str | None = None
    cues: tuple[str, ...] = ()
    wants: str | None = None
    dated: bool = False
    """It asks when (いつ, 何年, when …, what year): a date or a year answers it, and only then."""
    edges: tuple[int, ...] = ()
    """Where a word of the question ends inside a run of kanji: after a counter (何本|調べた)."""
    priced: bool = False
    """It asks for a sum of money (いくら, how much did … pay): a number with a currency answers it."""
    measures: tuple[str, ...] = ()
    """The measures a number it asks may be in (`_MEASURES`): ``time`` for how long, what timeout."""
    proper: bool = False
    """It asks for a proper name (誰, どこ, who, where, what … called, 何て名前), not for a thing of a
    kind (what powder, which exit code), whose answer may be a common word or a number."""


def _measures_asked(folded: str, number: re.Match[str]) -> tuple[str, ...]:
    """The measures the number is asked in, said by the asking words (how long), the words right
    after them (what timeout) or the noun they ask of (タイムアウトは どのくらい): not a measure the
    question names elsewhere (what percentage of requests hit the timeout asks a share)."""
    if _SHARE.search(number.group()) or _CHANGED.search(folded):
        # what ratio of width to height: a share, of no unit; 応答時間はどれだけ短縮される?: a
        # change, said as often relatively (12%, 1.34 倍) as in the measure's units.
        return ()
    after = _ASKED_NEXT.match(folded, number.end())
    topic = _ASKED_TOPIC.search(folded, 0, number.start())
    said = " ".join((number.group(), after.group() if after else "", topic.group(1) if topic else ""))
    return tuple(measure for measure, asked in _MEASURES if asked.search(said))


def shape_of(folded: str) -> Shaped:
    """The question's shape, what it names of the answer (a unit, cue words, a kind of page), and
    the spans of its asking words."""
    asking = [match.span() for match in _ASKING.finditer(folded)]
    asking += [match.span() for match in _FRAMING.finditer(folded)]
    difference = _DIFFERENCE.search(folded)
    if difference:
        return Shaped(Shape.DIFFERENCE, [*asking, difference.span()])
    number = _NUMBER.search(folded)
    dated = bool(_ASKS_WHEN.search(folded))
    priced = bool(_ASKS_MONEY.search(folded))
    if number:
        for group in ("unit", "unit_en"):
            if number.group(group):
                # 何 GPU asks with 何; GPU stays a keyword, and is what the number counts.
                span = (number.start(), number.start(group))
                words = number.group(group).split()
                counted = None if words[-1] in _ORDINAL else " ".join(singular(word) for word in words)
                edges = tuple(found.end("unit") for found in _NUMBER.finditer(folded) if found.group("unit"))
                return Shaped(
                    Shape.NUMBER, [*asking, span], unit=counted, dated=dated, edges=edges, priced=priced
                )
        measures = _measures_asked(folded, number)
        return Shaped(Shape.NUMBER, [*asking, number.span()], dated=dated, priced=priced, measures=measures)
    name = next(
        (
            match
            for match in _NAME.finditer(folded)
            if match.group("noun_en") not in STOPWORDS and match.group("noun_en") not in _NOT_NAMED
        ),
        None,
    )
    if name:
        noun = name.group("noun") or name.group("noun_en") or name.group("focus")
        cue = _CUE_NOUNS.get(noun) if noun else None
        if noun and not cue and not name.group("focus"):
            # "which paper …": the noun stays a keyword, and says what kind of page answers.
            span = (name.start(), name.start("noun") if name.group("noun") else name.start("noun_en"))
            return Shaped(Shape.NAME, [*asking, span], wants=PAGE_NOUNS.get(singular(noun)))
        return Shaped(
            Shape.NAME, [*asking, name.span()], cues=ANSWER_CUES[cue] if cue else (), proper=noun is None
        )
    definition = _DEFINITION.search(folded)
    if definition and not _ATTRIBUTE.match(folded, definition.end()):
        if _CLAUSED.search(folded, 0, definition.end()):
            # 元ネタになった中国の古典って何?: which one the clause tells, not what a classic is.
            return Shaped(Shape.OPEN, [*asking, definition.span()])
        return Shaped(Shape.DEFINITION, [*asking, definition.span()])
    return Shaped(Shape.OPEN, asking)


_EXPANSION = re.compile(
    r"\bstands?\s+for\b|\bshort\s+for\b|\b(?:acronym|abbreviation)\s+(?:of|for)\b|何の略|の略(?:称|語)?\s*(?:は|って)"
)
"""Asking what an acronym stands for (what does OWASP stand for, RBAC って何の略, RBAC の略は)."""
_LETTER_IN = re.compile(r"\bthe\s+[a-z]\s+(?:in|of)\b")
"""The letter asked of an acronym (the W in OWASP): no sentence says it alone."""


def expansion_asked(folded: str) -> list[tuple[int, int]]:
    """The spans of the words that ask what an acronym stands for (and of the letter asked, the W
    in), none when the question does not ask that. Whether it names an acronym is read from the
    question as written (`index.asking.acronyms`): "what does Anthropic stand for" asks no expansion."""
    expansion = _EXPANSION.search(folded)
    return [match.span() for match in (expansion, *_LETTER_IN.finditer(folded))] if expansion else []


_NOT_NAMED = frozenset(
    {"order", "format", "way", "kind", "sort", "extent", "exactly", "actually", "really", "precisely"}
)
"""What a *which* or *what* asks that no name answers (in what order, what format, what kind of)."""
_ATTRIBUTE = re.compile(r"\s+the\s")
"""``what is the default timeout (of X)``, ``what is the gateway's port``: a property, not what a
thing is (what is a monad, what is HSTS). A thing named with *the* (what is the Blue Book) is
still answered from its page, whose lead says what it is."""


_ASKED_BY_WORD = re.compile(r"なぜ|なんで|どうして|どうやって|どのように|どんな")
"""Words that ask without giving the question a shape (why, how); the shapes' words ask too."""
_ASKED_BY_ENDING = re.compile(r"(?:ですか|ますか|でしょうか|だろうか|のか|んですか|かな|っけ)[\s。.!！…]*$")
_ASKED_BY_OPENING = re.compile(
    r"^(?:whats?|which|how|who|whom|whose|where|when|why|is|are|was|were|does|do|did|can|could"
    r"|should|would|will|has|have|had)\b"
)


def asks(folded: str) -> bool:
    """Whether a message asks a question at all: a question mark, a question's shape (どこ, 何 GPU,
    とは, who …), a word that asks (なぜ, どうやって), a Japanese question ending (…ですか, …かな) or
    an English question's opening (does …, what …). A channel message is answered without a
    mention only when it asks."""
    text = folded.strip()
    return bool(
        "?" in text
        or shape_of(text).shape is not Shape.OPEN
        or _ASKED_BY_WORD.search(text)
        or _ASKED_BY_ENDING.search(text)
        or _ASKED_BY_OPENING.match(text)
    )


@lru_cache(maxsize=8192)
def is_stopword(word: str) -> bool:
    """A function word, also with the -s it takes (*lets* of "which section lets me …", *makes*)."""
    return word in STOPWORDS or singular(word) in STOPWORDS


# -- the wiki's upkeep ----------------------------------------------------------------------------

_UPKEEP = re.compile(
    r"(?<![a-z0-9])(?:logs?|logged|lint(?:ed|ing)?|ingest\w*|enrich\w*|deep-dives?|slugs?|frontmatter"
    r"|initiali[sz]\w*|schema)(?![a-z0-9])"
    r"|ログ|初期化|取り込|取込|フロントマター|スキーマ|lint|ingest"
    r"|(?<!\d)(?:19|20)\d\d-\d\d-\d\d(?!\d)"
)
"""The words of the wiki's upkeep (its log, a lint or ingest pass, an enrichment, its set-up, its
slugs, frontmatter and schema) and a day (2026-08-23): what the agents' log records."""


def asks_about_upkeep(folded: str) -> bool:
    """Whether a (folded) question asks about the wiki's own upkeep rather than its subject: only
    such a question is answered from the wiki's log (`index.asking.answer`), so that a log line
    never passes for the answer to a question about something the wiki does not state."""
    return _UPKEEP.search(folded) is not None
