"""Word lists the synthetic vault is made of.

Everything here is plain data. Pairs are Japanese/English (or English/katakana) so a name or a concept can
carry a realistic alias in the other script. The lists are small on purpose: the generator combines them, and
the combinations give the long tail of a Zipf-like vocabulary.
"""

from __future__ import annotations


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def _pairs(text: str) -> tuple[tuple[str, str], ...]:
    """``"異常:anomaly 集団通信:collective_communication"`` -> pairs; ``_`` stands for a space."""
    return tuple(tuple(part.replace("_", " ") for part in item.split(":", 1)) for item in text.split())


# Everyday technical words of the wiki's prose (kanji compounds and katakana loanwords).
JA_WORDS = _words(
    """
    訓練 推論 障害 異常 検知 診断 分散 通信 集団 性能 遅延 帯域 資源 割当 計算 記憶 設計 評価 実験 手法
    提案 問題 課題 構成 制御 監視 予測 最適化 効率 精度 規模 環境 基盤 運用 本番 負荷 分析 原因 特定
    隔離 復旧 故障 冗長 容量 転送 経路 統計 確率 学習 強化学習 探索 検索 索引 圧縮 符号化 暗号 認証 権限
    整合性 同期 非同期 並列 逐次 演算 行列 勾配 損失 収束 発散 初期化 更新 保存 復元 再開 停止 待機 閾値
    指標 観測 記録 追跡 履歴 変更 影響 依存 関係 構造 階層 粒度 単位 区間 周期 頻度 分布 偏り 外れ値
    雑音 信号 特徴 表現 埋め込み 注意機構 言語 画像 音声 文書 知識 推定 近似 誤差 検証 試験 測定 計測
    較正 調整 設定 構築 配置 移行 拡張 縮退 劣化 回復 耐性 信頼性 可用性 安全性 保守 自動化 人手 工数
    費用 電力 冷却 温度 装置 回路 配線 論理 物理 仮想化 需要 供給 待ち時間 応答時間 処理量 利用率 稼働率
    再現性 汎化 頑健性 解釈性 公平性 効果 限界 前提 仮説 根拠 反証 留保 事例 傾向 比較 分類 集約 抽出
    変換 正規化 重複 欠損 異種 均質 動的 静的 局所 大域 長期 短期 段階 工程 クラスタ ノード ジョブ
    スケジューラ キャッシュ メモリ ストレージ ネットワーク スループット レイテンシ ボトルネック
    ストラグラー チェックポイント パイプライン テンソル モデル パラメータ ワークロード トレース ログ
    メトリクス アラート ダッシュボード コンテナ カーネル ドライバ ファームウェア スイッチ リンク
    トポロジ プロファイラ ベンチマーク データセット アーキテクチャ フレームワーク ライブラリ インフラ
    サービス リクエスト バッチ シャーディング レプリカ フェイルオーバー ハートビート タイムアウト
    リトライ デッドロック ハング クラッシュ エラー バグ パッチ デプロイ ロールバック
    オーケストレーション クラスタリング セグメント インデックス クエリ トークン エンコーダ デコーダ
    アテンション エキスパート ルーティング シミュレーション ヒューリスティック プロトコル コントローラ
    エージェント ポリシー
    """
)

# English technical words that appear inside Japanese sentences (`GPUの`, `RDMAで`).
EN_TERMS = _words(
    """
    GPU LLM RDMA NCCL Kubernetes TTFT SLO all-reduce MoE KV p99 CPU NVLink InfiniBand PyTorch CUDA TPU
    Transformer FPGA SmartNIC eBPF gRPC HTTP TCP PCIe HBM FP8 BF16 LoRA RAG ZeRO FSDP Megatron DeepSpeed
    """
)

# Concept names: modifier + head (and sometimes modifier + modifier + head), each with its English gloss.
CONCEPT_MODIFIERS = _pairs(
    """
    異常:anomaly 障害:failure 故障:fault 性能:performance 遅延:latency 通信:communication
    集団通信:collective_communication 分散訓練:distributed_training 推論:inference キャッシュ:cache
    メモリ:memory ストレージ:storage ネットワーク:network ログ:log トレース:trace 資源:resource
    電力:power 勾配:gradient チェックポイント:checkpoint ストラグラー:straggler 変更:change
    構成:configuration 依存関係:dependency 根本原因:root_cause 負荷:load ジョブ:job コンテナ:container
    カーネル:kernel パイプライン:pipeline テンソル:tensor モデル:model パラメータ:parameter 索引:index
    クエリ:query 時系列:time_series インシデント:incident アラート:alert トポロジ:topology
    帯域:bandwidth データ:data 温度:thermal
    """
)
CONCEPT_HEADS = _pairs(
    """
    検知:detection 診断:diagnosis 管理:management 最適化:optimization 予測:prediction 隔離:isolation
    復旧:recovery 監視:monitoring 分析:analysis 圧縮:compression 推定:estimation 割当:allocation
    局所化:localization スケジューリング:scheduling 耐性:tolerance 可視化:visualization 追跡:tracking
    分類:classification 集約:aggregation 制御:control 検証:verification 再構成:reconfiguration
    緩和:mitigation 評価:evaluation 抽出:extraction
    """
)

TITLE_ADJECTIVES = _words(
    """
    Adaptive Scalable Efficient Robust Fast Lightweight Holistic Fine-grained Automated Online Proactive
    Transparent Elastic Hierarchical Unified Practical
    """
)
TITLE_DOMAINS = (
    ("Large-scale LLM Training", "大規模 LLM 訓練"),
    ("GPU Clusters", "GPU クラスタ"),
    ("Distributed Inference", "分散推論"),
    ("Cloud Storage", "クラウドストレージ"),
    ("Microservice Systems", "マイクロサービス"),
    ("Datacenter Networks", "データセンターネットワーク"),
    ("Serverless Platforms", "サーバーレス基盤"),
    ("Mixture-of-Experts Models", "MoE モデル"),
    ("Recommendation Systems", "推薦システム"),
    ("Online Services", "オンラインサービス"),
    ("Kubernetes Clusters", "Kubernetes クラスタ"),
    ("Edge Devices", "エッジデバイス"),
    ("Vector Databases", "ベクトルデータベース"),
    ("Stream Processing", "ストリーム処理"),
    ("HPC Systems", "HPC システム"),
    ("RDMA Networks", "RDMA ネットワーク"),
    ("Key-Value Stores", "キーバリューストア"),
    ("Data Pipelines", "データパイプライン"),
    ("AI Accelerators", "AI アクセラレータ"),
    ("Multi-tenant Clouds", "マルチテナントクラウド"),
)
TITLE_PATTERNS = (
    "{adj} {noun} {task} for {domain}",
    "Towards {adj} {noun} {task} in {domain}",
    "{adj} {noun} {task} at Scale in {domain}",
)

# (venue, weight)
VENUES = (
    ("arXiv", 30),
    ("NSDI", 6),
    ("OSDI", 5),
    ("SOSP", 5),
    ("ATC", 4),
    ("EuroSys", 4),
    ("SIGCOMM", 4),
    ("MLSys", 4),
    ("ICSE", 3),
    ("FSE", 3),
    ("ASPLOS", 3),
    ("ISCA", 2),
    ("SC", 3),
    ("PPoPP", 2),
    ("KDD", 2),
    ("VLDB", 2),
    ("SIGMOD", 2),
    ("NeurIPS", 4),
    ("ICML", 3),
    ("ICLR", 3),
    ("ACL", 2),
    ("SREcon", 2),
    ("ICSE-SEIP", 1),
    ("PACMMOD", 1),
    ("PhD", 1),
)

# Companies are two syllables glued, in English and katakana: Byte:バイト + Dance:ダンス.
COMPANY_SYLLABLES = _pairs(
    """
    Byte:バイト Dance:ダンス Ant:アント Nova:ノヴァ Deep:ディープ Mind:マインド Cloud:クラウド
    Sky:スカイ Blue:ブルー Star:スター Link:リンク Wave:ウェーブ Core:コア Data:データ Quant:クオント
    Sense:センス Pixel:ピクセル Flow:フロー Tera:テラ Giga:ギガ Hyper:ハイパー Net:ネット
    Silver:シルバー Bright:ブライト Zen:ゼン Maple:メープル Falcon:ファルコン River:リバー
    Stone:ストーン Fox:フォックス
    """
)
COMPANY_SUFFIXES = (
    ("", ""),
    (" Labs", "ラボ"),
    (" Research", "リサーチ"),
    (" Systems", "システムズ"),
    (" Cloud", "クラウド"),
)
LEGAL_SUFFIXES = (" Inc.", " Ltd.", " Corporation", " Co., Ltd.", "株式会社")

PLACES = _pairs(
    """
    Tokyo:東京 Kyoto:京都 Osaka:大阪 Nagoya:名古屋 Tohoku:東北 Kyushu:九州 Hokkaido:北海道 Tsukuba:筑波
    Kobe:神戸 Hiroshima:広島 Shanghai:上海 Beijing:北京 Tsinghua:清華 Zhejiang:浙江 Nanjing:南京
    Wuhan:武漢 Fudan:復旦 Peking:北京 Seoul:ソウル Busan:釜山 Taipei:台北 Singapore:シンガポール
    Toronto:トロント Boston:ボストン Chicago:シカゴ Texas:テキサス Michigan:ミシガン
    Washington:ワシントン Cornell:コーネル Princeton:プリンストン Stanford:スタンフォード
    Oxford:オックスフォード Edinburgh:エディンバラ Zurich:チューリッヒ Munich:ミュンヘン Paris:パリ
    Delft:デルフト Madrid:マドリード Sydney:シドニー Melbourne:メルボルン
    """
)

FIRST_NAMES = _words(
    """
    Wei Jian Xuan Qian Hao Lei Ming Jing Yan Tao Bo Xin Zhen Rui Kai Yi Jun Peng Fang Lin Alice Bob
    Carol David Emma Frank Grace Henry Irene Jack Karen Leo Maria Nathan Olivia Paul Quinn Rachel Sam
    Tina Umar Vera Will Xavier Yara Zoe Arjun Priya Rahul Sanjay Min-jun Ji-woo Seo-yeon Hyun Omar
    Fatima Lucas Sofia Mateo Elena
    """
)
LAST_NAMES = _words(
    """
    Zhang Wang Li Liu Chen Yang Huang Zhao Wu Zhou Xu Sun Ma Zhu Hu Guo He Gao Lin Luo Zheng Liang Xie
    Song Tang Han Feng Deng Cao Peng Smith Johnson Brown Miller Davis Garcia Rodriguez Wilson Martinez
    Anderson Taylor Thomas Moore Jackson Martin Lee Thompson White Harris Clark Lewis Walker Hall Allen
    Young King Wright Scott Kim Park Choi Patel Singh Kumar Gupta Shah Mehta Rossi Muller Schmidt
    """
)
JA_SURNAMES = _pairs(
    """
    佐藤:Sato 鈴木:Suzuki 高橋:Takahashi 田中:Tanaka 伊藤:Ito 渡辺:Watanabe 山本:Yamamoto 中村:Nakamura
    小林:Kobayashi 加藤:Kato 吉田:Yoshida 山田:Yamada 佐々木:Sasaki 山口:Yamaguchi 松本:Matsumoto
    井上:Inoue 木村:Kimura 林:Hayashi 清水:Shimizu 山崎:Yamazaki 森:Mori 池田:Ikeda 橋本:Hashimoto
    阿部:Abe 石川:Ishikawa 山下:Yamashita 中島:Nakajima 石井:Ishii 小川:Ogawa 前田:Maeda 岡田:Okada
    長谷川:Hasegawa 藤田:Fujita 後藤:Goto 近藤:Kondo 坪内:Tsubouchi 村上:Murakami 遠藤:Endo 青木:Aoki
    坂本:Sakamoto
    """
)
JA_GIVEN_NAMES = _pairs(
    """
    佑樹:Yuki 大輔:Daisuke 翔太:Shota 健太:Kenta 拓也:Takuya 直樹:Naoki 達也:Tatsuya 亮:Ryo 誠:Makoto
    浩:Hiroshi 剛:Tsuyoshi 学:Manabu 聡:Satoshi 智也:Tomoya 和也:Kazuya 雄一:Yuichi 裕介:Yusuke
    隆:Takashi 修:Osamu 陽介:Yosuke 美咲:Misaki 愛:Ai 彩:Aya 真由美:Mayumi 優子:Yuko 恵:Megumi
    香織:Kaori 由美:Yumi 直子:Naoko 舞:Mai さくら:Sakura 葵:Aoi 結衣:Yui 千尋:Chihiro 遥:Haruka
    明美:Akemi 智子:Tomoko 陽菜:Hina 菜々子:Nanako 理恵:Rie
    """
)

PRODUCT_SYLLABLES = _words(
    """
    Min der Flux Rov er Tim Scale Mega Byte Ro bust Myc roft Fla re Hydra Zen Kite Orca Lynx Pulse Vela
    Nimbus Quill Atlas Echo Helix Ion Jolt Karma Lumen Mosaic Nexus Onyx Prism Quasar Relay Sift Tally
    Umbra Vortex Weave Xeno Yarn Zephyr
    """
)
PRODUCT_DECORATIONS = ("", "", "", "", "-X", "-D", "2", "Pro", "Lite")
DATASET_SUFFIXES = ("Bench", "Trace", "-1M", "Log", "QA", "Eval")

PRODUCT_KINDS = ("システム", "フレームワーク", "ツール", "ライブラリ", "スケジューラ", "診断基盤")

# Sentence templates. {E} is an entity name glued to the next particle, {W} a word drawn from the Zipf
# vocabulary, {V} a word used as a suru-verb, {N} a number.
SENTENCES = (
    "{E}は{W}の{W}を{V}する仕組みを提案する。",
    "本手法では{W}と{W}を組み合わせ、{W}の{W}を{N}%削減した。",
    "{W}において{E}の{W}が{W}のボトルネックになる。",
    "{E}が運用する{W}では、{W}の{W}が頻繁に発生する。",
    "{W}を{V}するため、{W}と{W}の{W}を継続的に{V}する。",
    "実験では{N}台の{W}で{W}を評価し、{W}が{N}倍向上した。",
    "{E}と{E}は{W}の{W}について共同で研究している。",
    "{W}の{W}は{W}に依存するため、{W}だけでは{W}を説明できない。",
    "{E}の{W}では{W}を{V}することで{W}を回避する。",
    "著者らは{W}の{W}を{V}し、{W}の原因を特定した。",
    "既存の{W}は{W}を前提とするが、{E}は{W}を仮定しない。",
    "{W}と{W}のトレードオフを{W}によって調整する。",
    "{N}件の{W}のうち{N}%が{W}に起因していた。",
    "この結果は{W}の{W}が{W}より重要であることを示す。",
    "{E}による{W}は{W}の{W}を大幅に短縮した。",
    "{W}の{V}には{W}と{W}が必要である。",
    "今後の課題として{W}の{W}と{W}への適用が挙げられる。",
    "{E}は{W}を{W}として{V}する。",
    "{W}が{W}を超えると{W}の{W}が急増する。",
    "{E}の報告では、{W}の{W}は{N}時間から{N}分に短縮された。",
)
SURU_VERBS = _words(
    """
    検知 診断 分析 評価 監視 予測 制御 最適化 隔離 復旧 推定 追跡 分類 集約 抽出 検証 調整 構築 配置
    移行 記録 観測 比較 圧縮 更新 同期
    """
)

# Planted claims: "{A}によって{B}の{C}が{N}%削減された" and the question form of the same verb.
CLAIM_VERBS = (
    ("削減された", "どれだけ削減される"),
    ("短縮された", "どれだけ短縮される"),
    ("向上した", "どれだけ向上する"),
    ("改善した", "どれだけ改善する"),
    ("低減された", "どれだけ低減される"),
    ("増加した", "どれだけ増加する"),
)
CLAIM_QUESTIONS = ("{a}によって{b}の{c}は{q}?", "{a}を使うと{b}の{c}は{q}か", "{a}で{b}の{c}は{q}の?")
# The same claims asked in English over the Japanese words (one verb per entry of CLAIM_VERBS).
CLAIM_VERBS_EN = ("reduce", "shorten", "improve", "improve", "lower", "increase")
CLAIM_QUESTIONS_EN = ("How much does {a} {verb} {b}の{c}?", "by how much does {a} {verb} the {c} of {b}?")

# Planted deployments: "{product}は{org}の{team}が{gpus} GPU の本番クラスタで運用している".
# A team is a concept modifier (通信, ストレージ, ...) and one of these kinds.
TEAM_KINDS = _pairs(
    """
    基盤:Platform 運用:Operations 信頼性:Reliability SRE:SRE 性能:Performance インフラ:Infrastructure
    観測:Observability 開発:Engineering
    """
)

SUMMARY_PHRASES = (
    "手法の提案",
    "本番環境での評価",
    "大規模な実測",
    "障害事例の分析",
    "設計の比較",
    "運用知見の報告",
)
