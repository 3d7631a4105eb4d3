"""Full-text search in both languages, on a small real vault and a real index."""

from __future__ import annotations

import pytest

from index.analysis import tokenize
from index.asking.inflections import INFLECTED_TERMS, MAX_FORMS, inflections_held
from index.asking.question import MAX_QUERY_CHARS, read_question
from index.asking.search import POSTINGS_BUDGET, unit_renderings, within_budget
from index.catalog.names import NameTable
from index.store.engine import SearchStore
from index.store.values import Chunk, QueryPlan
from index.wiki import Wiki
from tests.vaults import SMALL_VAULT, entity, write_vault


@pytest.fixture(scope="module")
def wiki(tmp_path_factory: pytest.TempPathFactory) -> Wiki:
    root = write_vault(tmp_path_factory.mktemp("vault"), SMALL_VAULT)
    built = Wiki.open(root, tmp_path_factory.mktemp("index"))
    built.update()
    return built


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Minder を開発したのはどこ?", {"wiki/entities/Minder.md", "wiki/entities/ByteDance.md"}),
        ("Who developed Minder?", {"wiki/entities/Minder.md", "wiki/entities/ByteDance.md"}),
        ("which system diagnoses CCL hangs?", {"wiki/concepts/集合通信.md"}),
        (
            "障害マシンを検出する仕組み",
            {"wiki/entities/Minder.md", "wiki/sources/@2025__NSDI__Minder - Faulty Machine Detection.md"},
        ),
        ("異常検知とは", {"wiki/concepts/異常検知.md"}),
        ("ＭＥＧＡＳＣＡＬＥ", {"wiki/entities/MegaScale.md"}),
        ("1 万 GPU で訓練する本番システム", {"wiki/entities/MegaScale.md"}),
    ],
)
def test_questions_find_a_page_holding_the_answer_in_the_top_three(
    wiki: Wiki, question: str, expected: set[str]
) -> None:
    top = [hit.path for hit in wiki.search(question, limit=3).hits]
    assert expected & set(top), top


def test_hits_carry_the_best_passage(wiki: Wiki) -> None:
    hit = wiki.search("障害マシン 検出", limit=1).hits[0]
    assert "障害マシン" in hit.snippet and len(hit.snippet) <= 220


def test_names_in_the_question_are_reported(wiki: Wiki) -> None:
    result = wiki.search("Minder を開発したのは?")
    assert [entity.path for entity in result.entities] == ["wiki/entities/Minder.md"]


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("Scalable Log Diagnosis と Scala の違いは?", ["Scalable Log Diagnosis", "Scala"]),
        ("how do scalable logs differ from Scalable Load?", ["Scalable Load"]),
        ("Scalable Log Diagnosis Plus とは", ["Scalable Log Diagnosis Plus"]),
        ("ログ診断基盤と ScalableLog は?", ["ログ診断基盤", "Scalable Log"]),  # spacing as /entity reads it
    ],
)
def test_names_sharing_their_beginning_are_told_apart_in_a_question(
    tmp_path, question: str, named: list[str]
) -> None:
    """Of names that begin alike, the longest one the text says as a whole word is the one named."""
    titles = [
        "Scala",
        "Scalable Log",
        "Scalable Log Diagnosis",
        "Scalable Log Diagnosis Plus",
        "Scalable Load",
        "Scalable Logistics",
        "ログ診断",
        "ログ診断基盤",
    ]
    files = {f"wiki/entities/{title}.md": entity(title) for title in titles}
    small = Wiki.open(write_vault(tmp_path / "vault", files), tmp_path / "index")
    small.update()
    assert [entity.title for entity in small.search(question).entities] == named


def test_a_term_is_scored_in_its_own_passage_in_the_best_field_it_is_in(tmp_path) -> None:
    """A passage with the word only in its text does not borrow the score of another passage
    that has it in its title (whoosh's DisjunctionMax matcher does: it takes the greater score of
    its fields' matchers wherever they stand)."""
    store = SearchStore(tmp_path / "store")
    store.create()
    with store.writing() as batch:
        batch.add(Chunk(path="body.md", ordinal=0, heading="", text="ゼータ の記録を残す。"))
        batch.add(Chunk(path="title.md", ordinal=0, heading="", text="記録を残す。", title="ゼータ"))
        batch.add(Chunk(path="both.md", ordinal=0, heading="", text="ゼータ の記録を残す。", title="ゼータ"))
    scores = {match.path: match.score for match in store.search(QueryPlan(terms=("ゼー", "ータ")), limit=5)}
    assert set(scores) == {"body.md", "title.md", "both.md"}
    assert scores["body.md"] < scores["title.md"]
    assert scores["both.md"] == pytest.approx(scores["title.md"], rel=0.05)  # once, in its best field


def test_a_term_finds_its_inflections_at_its_own_weight(tmp_path) -> None:
    """``port`` finds a passage that says only ``ports`` (as the answer step matches words), and a
    rarer form weighs no more than the term said as typed: the forms are one term."""
    store = SearchStore(tmp_path / "store")
    store.create()
    with store.writing() as batch:
        batch.add(Chunk(path="plural.md", ordinal=0, heading="", text="Sensitive ports: restrict them."))
        batch.add(Chunk(path="typed.md", ordinal=0, heading="", text="The port is closed."))
        batch.add(Chunk(path="other.md", ordinal=0, heading="", text="A portable radio and a porter."))
        for n in range(8):
            batch.add(
                Chunk(path=f"port{n}.md", ordinal=0, heading="", text="Another port here, and more text.")
            )
    variants = inflections_held(store, ("port",))
    assert variants == {"port": ("ports",)}  # not portable, porter
    found = store.search(QueryPlan(terms=("port",), variants=variants), limit=20)
    scores = {match.path: match.score for match in found}
    assert "plural.md" in scores and "other.md" not in scores
    assert scores["plural.md"] <= scores["typed.md"] * 1.05
    assert "plural.md" not in {match.path for match in store.search(QueryPlan(terms=("port",)), limit=20)}


class _Words:
    """A store's words, recording the prefixes they are asked for."""

    def __init__(self, words: list[str]) -> None:
        self.words, self.asked = sorted(words), []

    def words_from(self, prefix: str, kind: str = "") -> list[str]:
        self.asked.append(prefix)
        return [word for word in self.words if word.startswith(prefix)]


@pytest.mark.parametrize(
    ("term", "prefix", "forms"),
    [
        ("port", "port", ("ports",)),
        ("make", "mak", ("makes", "making")),  # a final e its -ing form drops
        ("policy", "polic", ("policies",)),  # the stem's i (polici)
        ("using", None, ()),  # us: too short to look up
    ],
)
def test_the_forms_of_a_term_are_read_from_what_it_and_its_stem_share(
    term: str, prefix: str | None, forms: tuple[str, ...]
) -> None:
    store = _Words(
        ["port", "ports", "portable", "make", "making", "makes", "maker", "policy", "policies", "use"]
    )
    held = inflections_held(store, (term,))  # type: ignore[arg-type]
    assert store.asked == ([prefix] if prefix else [])
    assert held.get(term, ()) == forms


def test_a_long_question_of_short_words_looks_up_a_bounded_number_of_prefixes() -> None:
    """A hostile question of many words reads the forms of its first `INFLECTED_TERMS` only."""
    terms = tuple(f"{a}{b}{c}x" for a in "abc" for b in "abcd" for c in "abcd")  # 48 terms
    store = _Words([f"{term}{n}" for term in terms for n in ("s", "ed", "ing")])
    held = inflections_held(store, terms)  # type: ignore[arg-type]
    assert len(store.asked) == INFLECTED_TERMS
    assert all(len(forms) <= MAX_FORMS for forms in held.values())


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ('"unbalanced', None),
        ("*", None),
        ("AND OR NOT", None),
        ("title:(x", None),
        ("<!channel>", None),
        ("a" * 5000, None),
        ("の" * 5000, None),
        ("", None),
        ("   ", None),
        ("?!", None),
        ("title:(Minder", "wiki/entities/Minder.md"),
        ('"Minder', "wiki/entities/Minder.md"),
        ("Minder*", "wiki/entities/Minder.md"),
        ("NOT Minder", "wiki/entities/Minder.md"),
        ("MegaScale OR", "wiki/entities/MegaScale.md"),
    ],
)
def test_anything_typed_is_text_never_syntax(wiki: Wiki, query: str, found: str | None) -> None:
    """Query syntax is read as text: alone it matches nothing, beside a name it is ignored (as
    syntax, ``NOT Minder`` would exclude the Minder page and ``title:(`` would be an error)."""
    result = wiki.search(query)
    assert result.query == query
    paths = [hit.path for hit in result.hits]
    assert (paths == []) if found is None else (found in paths)


@pytest.mark.parametrize("length", [MAX_QUERY_CHARS - 1, MAX_QUERY_CHARS])
def test_a_question_up_to_the_limit_is_read_whole(wiki: Wiki, length: int) -> None:
    """The limit is one number, and nothing under it is cut: a name at the very end still counts."""
    question = ("あ" * length)[: length - len(" Minder")] + " Minder"
    assert len(question) == length
    assert "wiki/entities/Minder.md" in [hit.path for hit in wiki.search(question).hits]


@pytest.mark.parametrize("text", ["a" * (MAX_QUERY_CHARS + 1), "の" * 5000])
def test_a_question_over_the_limit_is_refused_not_cut(wiki: Wiki, text: str) -> None:
    result = wiki.search(text)
    assert result.too_long and result.hits == ()
    assert wiki.answer(text).too_long


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("ByteDanceの訓練", ["bytedance", "の訓", "訓練"]),
        ("異常検知", ["異常", "常検", "検知"]),
        ("ＧＰＵクラスタ", ["gpu", "クラ", "ラス", "スタ"]),
        ("v2 で Flare", ["v2", "で", "flare"]),
        ("ｶﾀｶﾅ", ["カタ", "タカ", "カナ"]),
    ],
)
def test_tokenizer_words_and_bigrams(text: str, tokens: list[str]) -> None:
    assert [token.text for token in tokenize(text)] == tokens


def test_question_plan_drops_function_words() -> None:
    plan = read_question("Minder の開発元はどこ?", NameTable(), {}).plan()
    assert "開発" in plan.terms and "の開" not in plan.terms and "はど" not in plan.terms
    english = read_question("which system diagnoses CCL hangs?", NameTable(), {}).plan()
    # a verb of the vocabulary ranks, in its words and in Japanese prose's, and finds nothing
    assert english.terms == ("system", "ccl", "hangs")
    assert {"diagnoses", "診断"} <= set(english.ranking_terms)


@pytest.fixture(scope="module")
def kana_names(tmp_path_factory: pytest.TempPathFactory) -> NameTable:
    """The name table of a vault whose one page is named in kana and kanji."""
    root = tmp_path_factory.mktemp("kana")
    vault = write_vault(root / "vault", {"wiki/entities/石井さくら.md": entity("石井さくら")})
    wiki = Wiki.open(vault, root / "index")
    wiki.update()
    return wiki.live().graph.names


@pytest.mark.parametrize(
    ("question", "kept", "dropped"),
    [
        # a word glued to its particle (ンに, アは) is not in the statement (…ファームウェアが28%…)
        (
            "オーケストレーションによってトークン関係の問題ファームウェアはどれだけ短縮される?",
            ["オー", "ョン", "関係", "ファ", "ェア"],
            ["ンに", "てト", "係の", "の問", "アは", "け短"],
        ),
        # the words that ask are in no passage; a lone kanji keeps its glued bigram
        ("XPUTimer は何 GPU の本番クラスタで動いた?", ["xputimer", "gpu", "本番", "動い"], ["は何", "の本"]),
        ("CCL-D で手動診断の時間はどれだけ短くなった?", ["手動", "診断", "時間", "短く"], ["で手", "断の"]),
        # a name is said as written: its kana are not particles
        ("which papers did 石井さくら write?", ["石井", "井さ", "さく", "くら"], ["which", "did"]),
        # a counter ends a word: 本調 of 何本調べた, 件集 of 何件集まった are no words
        ("テストファイルを何本調べた?", ["テス", "ファ"], ["本調"]),
        ("意見は何件集まった?", ["意見"], ["件集"]),
    ],
)
def test_question_terms_are_what_passages_say(
    kana_names: NameTable, question: str, kept: list[str], dropped: list[str]
) -> None:
    terms = read_question(question, kana_names, {}).terms
    assert set(kept) <= set(terms), terms
    assert not set(dropped) & set(terms), terms


@pytest.mark.parametrize(
    ("question", "ranking"),
    [
        ("Minder はどれだけ速く障害に反応する?", ["害に"]),  # a word glued to its particle
        ("CCL-D で手動診断の時間はどれだけ短縮された?", ["短縮"]),  # a verb of change
        ("How much does 配置 reduce 集団指標のトレース?", ["reduce", "削減"]),  # reduce in all-reduce
    ],
)
def test_what_only_ranks_finds_nothing(question: str, ranking: list[str]) -> None:
    plan = read_question(question, NameTable(), {}).plan()
    assert set(ranking) <= set(plan.ranking_terms) and not set(ranking) & set(plan.terms)


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("What's the difference between AppArmor and SELinux?", {"apparmor", "selinux"}),
        ("Why don't Price's observers agree?", {"price", "observer", "agree"}),
    ],
)
def test_clitics_are_neither_terms_nor_keywords(question: str, words: set[str]) -> None:
    read = read_question(question, NameTable(), {})
    assert {keyword.text for keyword in read.keywords} == words
    assert not {"s", "t", "don"} & set(read.terms)


@pytest.mark.parametrize(
    ("question", "words"),
    [
        # the word that weighs a difference is the question's frame, which no passage says
        ("What's the main difference between AppArmor and SELinux?", {"apparmor", "selinux"}),
        ("What is the key difference between Podman and Docker?", {"podman", "docker"}),
        ("AppArmor と SELinux の主な違いは？", {"apparmor", "selinux"}),
        # elsewhere the word is the question's own
        ("What are the key features of Podman?", {"key", "feature", "podman"}),
    ],
)
def test_the_weight_of_a_difference_is_no_keyword(question: str, words: set[str]) -> None:
    assert {keyword.text for keyword in read_question(question, NameTable(), {}).keywords} == words


@pytest.mark.parametrize(
    ("question", "words"),
    [
        # the counter's edge cuts 年生 and 本調: the kanji left after it is a word of its own
        ("中島敦って何年生まれ？", {"中島", "島敦", "生"}),
        ("ログを何本調べた？", {"ログ", "調"}),
        ("何歳で亡くなった？", {"亡"}),
        # a run the edge does not cut is read as bigrams, as before
        ("何年に発表された？", {"発表"}),
    ],
)
def test_a_kanji_a_counter_leaves_is_a_keyword(question: str, words: set[str]) -> None:
    assert {keyword.text for keyword in read_question(question, NameTable(), {}).keywords} == words


def test_a_function_word_with_its_s_is_no_keyword() -> None:
    read = read_question("Which setting lets me delete them?", NameTable(), {})
    assert {keyword.text for keyword in read.keywords} == {"setting", "delete"}
    assert "lets" not in read.terms


@pytest.fixture(scope="module")
def latin_names(tmp_path_factory: pytest.TempPathFactory) -> NameTable:
    root = tmp_path_factory.mktemp("latin")
    files = {
        "wiki/entities/Marie Lairre.md": entity("Marie Lairre"),
        # a link's display is a name too: the name then ends in the clitic
        "wiki/entities/Borley.md": entity("Borley", body="[[Marie Lairre|Marie Lairre's]] spirit."),
    }
    vault = write_vault(root / "vault", files)
    wiki = Wiki.open(vault, root / "index")
    wiki.update()
    return wiki.live().graph.names


def test_a_name_is_said_without_its_clitic(latin_names: NameTable) -> None:
    """The s of Marie Lairre's is no part of the name a sentence must say."""
    read = read_question("What date did the planchette give for Marie Lairre's death?", latin_names, {})
    assert [read.folded[span.start : span.end] for span in read.names] == ["marie lairre's"]
    assert "s" not in {keyword.text for keyword in read.keywords}
    assert "s" not in read.terms and {"marie", "lairre"} <= set(read.terms)


@pytest.mark.parametrize(
    ("terms", "shares", "finding"),
    [
        # each word's rarest bigram first (団指 for 集団指標), then the budget decides
        (
            ("耐性", "アー", "ーキ", "集団", "団指", "指標"),
            {"耐性": 0.55, "アー": 0.5, "ーキ": 0.5, "集団": 0.45, "団指": 0.06, "指標": 0.4},
            ("アー", "団指"),
        ),
        # rare words all find
        (("minder", "開発"), {"minder": 0.01, "開発": 0.2}, ("minder", "開発")),
        # the rarest two whatever their spread
        (("トレ", "レー", "ース"), {"トレ": 2.2, "レー": 3.0, "ース": 2.0}, ("トレ", "ース")),
    ],
)
def test_the_rarest_terms_find_and_the_others_rank(
    terms: tuple[str, ...], shares: dict[str, float], finding: tuple[str, ...]
) -> None:
    """``shares``: each term's postings as a share of the budget."""
    postings = {term: round(share * POSTINGS_BUDGET) for term, share in shares.items()}
    plan = within_budget(QueryPlan(terms=terms), 50_000, postings)
    assert plan.terms == finding
    assert set(plan.ranking_terms) == set(terms) - set(finding)


@pytest.mark.parametrize(
    ("question", "path"),
    [
        ("Who developed minder?", "wiki/entities/Minder.md"),
        ("ＭＩＮＤＥＲ の開発元", "wiki/entities/Minder.md"),
        ("Mega Scale の GPU 数", "wiki/entities/MegaScale.md"),
        ("Sakura Compute の所在地", "wiki/entities/Sakura Compute Inc..md"),
        ("what is anomaly detection?", "wiki/concepts/異常検知.md"),
    ],
)
def test_names_typed_as_lookups_accept_them_are_named(wiki: Wiki, question: str, path: str) -> None:
    """Case, width, spacing and legal suffixes as `/entity` reads them; an alias in the other language."""
    assert path in [entity.path for entity in wiki.search(question).entities]


def test_the_one_page_a_question_names_is_the_first_hit(wiki: Wiki) -> None:
    assert wiki.search("Minder を開発したのはどこ?").hits[0].path == "wiki/entities/Minder.md"


def test_an_english_alias_finds_japanese_prose(wiki: Wiki) -> None:
    """``anomaly detection`` is an alias of 異常検知: the question gains the Japanese title's terms."""
    hit = wiki.search("How does anomaly detection work?", limit=1).hits[0]
    assert hit.path == "wiki/concepts/異常検知.md" and "正常から外れた" in hit.snippet


def test_a_hit_shows_the_sentence_that_answers_not_its_first(tmp_path) -> None:
    body = (
        "## 概要\n\n分散訓練の障害を扱うシステムの概要を述べる。設計の背景を説明する。\n\n"
        "## 実績\n\n導入の経緯を述べる。本番で障害に平均 3.6 秒で反応した。\n"
    )
    root = write_vault(tmp_path / "vault", {"wiki/entities/Watcher.md": entity("Watcher", body=body)})
    small = Wiki.open(root, tmp_path / "index")
    small.update()
    hit = small.search("Watcher は障害に何秒で反応する?", limit=1).hits[0]
    assert hit.snippet.startswith("本番で障害に平均 3.6 秒で反応した") and hit.section == "実績"


COMMON = (
    "Over the years the platform group grew from three people to forty. The engineering team was driven "
    "by a consistent culture and has shipped the storage service every quarter since its first release."
)


def test_a_phrase_of_common_words_is_found_as_a_phrase(tmp_path) -> None:
    """Every word of the query is in most passages, so none is searched alone: the phrase is."""
    files = {
        f"wiki/entities/Service {n}.md": entity(
            f"Service {n}", body=f"Culture has a driven, consistent engineering {n}, and by design."
        )
        for n in range(260)
    }
    files["wiki/entities/Needle.md"] = entity("Needle", body=COMMON)
    root = write_vault(tmp_path / "vault", files)
    small = Wiki.open(root, tmp_path / "index")
    small.update()
    for phrase in ("driven by a consistent", "consistent culture and has"):
        hits = small.search(phrase, limit=3).hits
        assert hits and hits[0].path == "wiki/entities/Needle.md", (phrase, [hit.path for hit in hits])


def test_ranking_terms_order_what_the_finding_terms_found(tmp_path) -> None:
    """Ranking terms find nothing themselves; among the passages found they rank as whoosh would."""
    store = SearchStore(tmp_path / "store")
    store.create()
    texts = {
        "a.md": "ゼータ の記録を残す。",
        "b.md": "ゼータ によって統計の温度が 40% 向上した。",
        "c.md": "統計の温度が 10% 向上した。",
    }
    with store.writing() as batch:
        for path, text in texts.items():
            batch.add(Chunk(path=path, ordinal=0, heading="", text=text, title=path))
    found = store.search(QueryPlan(terms=("ゼー", "ータ")), limit=5)
    assert {match.path for match in found} == {"a.md", "b.md"}
    ranked = store.search(QueryPlan(terms=("ゼー", "ータ"), ranking_terms=("統計", "温度", "向上")), limit=5)
    assert [match.path for match in ranked] == ["b.md", "a.md"]
    assert ranked[0].score > next(m.score for m in found if m.path == "b.md")


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("Which section deletes them after e.g. 10 minutes?", {"section", "delete", "10", "minute"}),
        (
            "Does Podman vs. Docker matter here, i.e. for rootless runs?",
            {"podman", "docker", "matter", "rootless", "run"},
        ),
    ],
)
def test_the_abbreviations_of_an_aside_are_no_keywords(question: str, words: set[str]) -> None:
    read = read_question(question, NameTable(), {})
    assert {keyword.text for keyword in read.keywords} == words
    assert not {"e", "g", "i", "vs"} & set(read.terms)


@pytest.mark.parametrize(
    ("question", "units"),
    [
        # the unit, its other spelling and each one's -ies plural as prose writes them (14 repositories)
        ("How many repos are kept?", ("repo", "repository", "repositori")),
        ("何ファイル調べた?", ("ファイル",)),
    ],
)
def test_the_unit_asked_is_written_as_prose_counts_it(question: str, units: tuple[str, ...]) -> None:
    assert unit_renderings(read_question(question, NameTable(), {})) == units
