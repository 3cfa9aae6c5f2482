"""The benchmark registry: schema, sources, metric types, aliases, split variants."""

from __future__ import annotations

import pytest

from benchaudit.benchmarks import DIRECTIONS, METRICS, Benchmark, Registry, fold


@pytest.fixture(scope="module")
def reg() -> Registry:
    return Registry.load()


def all_views(reg: Registry) -> list[Benchmark]:
    return [*reg.entries, *reg.variant_views]


# ---------------------------------------------------------------- schema


def test_schema_loads_and_every_entry_is_sourced(reg):
    assert len(reg.entries) >= 45
    for b in all_views(reg):
        assert b.source.strip(), b.label
        assert b.metric in METRICS, (b.label, b.metric)
        assert b.direction in DIRECTIONS, (b.label, b.direction)
        assert isinstance(b.aliases, tuple)


def test_counts_are_positive_and_n_is_the_headline_split(reg):
    for b in all_views(reg):
        for split, count in [*b.splits.items(), *b.other_splits.items()]:
            assert isinstance(count, int) and count > 0, (b.label, split, count)
        assert not set(b.splits) & set(b.other_splits), b.label
        if b.split:
            assert b.n == b.splits[b.split], b.label
        else:
            assert b.n is None, b.label


def test_binary_entries_have_a_positive_n(reg):
    binary = [b for b in all_views(reg) if b.metric == "binary"]
    assert len(binary) > 30
    for b in binary:
        assert isinstance(b.n, int) and b.n > 0, b.label
        assert b.reachability_applies


def test_names_are_longest_first_and_include_variant_aliases(reg):
    names = reg.names()
    assert names == sorted(names, key=lambda s: (-len(s), s))
    assert "mbpp sanitized" in names and "truthfulqa mc1" in names
    assert {"HumanEval", "MBPP", "DROP"} <= set(names)


def test_benchmarks_are_hashable(reg):
    # A Mention (frozen dataclass) holds a Benchmark; both must hash.
    assert len({*reg.entries, *reg.variant_views}) == len(reg.entries) + len(reg.variant_views)


def test_plain_constructor_still_works():
    b = Benchmark(name="Mine", n=250)
    assert (b.metric, b.direction, b.label, dict(b.splits)) == ("binary", "higher", "Mine", {})
    assert b.reachability_applies
    assert Benchmark(name="Open", n=None).reachability_applies is False


# ---------------------------------------------------------------- counts


@pytest.mark.parametrize(
    "name,n",
    [
        ("HumanEval", 164),
        ("HumanEval+", 164),
        ("MBPP", 500),
        ("MBPP sanitized", 257),
        ("MBPP+", 378),
        ("AIME 2024", 30),
        ("AMC 2023", 40),
        ("Minerva Math", 272),
        ("OlympiadBench", 675),
        ("miniF2F", 244),
        ("miniF2F test", 244),
        ("miniF2F-valid", 244),
        ("ProofNet", 186),
        ("ProofNet valid", 185),
        ("CRUXEval-O", 800),
        ("CRUXEval-I", 800),
        ("BBH", 6511),
        ("C-Eval", 12342),
        ("C-Eval val", 1346),
        ("CMMLU", 11582),
        ("Aider Polyglot", 225),
        ("MT-Bench", 80),
        ("Arena-Hard", 500),
        ("Arena-Hard v2.0", 750),
        ("AlpacaEval 2.0", 805),
        ("GSM8K", 1319),
        ("MATH", 5000),
        ("MATH-500", 500),
        ("MMLU", 14042),
        ("MMLU-Pro", 12032),
        ("GPQA Diamond", 198),
        ("SWE-bench Verified", 500),
        ("SWE-bench Multilingual", 300),  # swebench.com/multilingual.html: 300 tasks
        ("ARC-Challenge", 1172),
        ("HellaSwag", 10042),
        ("WinoGrande", 1267),
        ("TruthfulQA", 817),
        ("IFEval", 541),
        ("LAMBADA", 5153),
    ],
)
def test_spot_counts(reg, name, n):
    b = reg.get(name)
    assert b is not None, name
    assert b.n == n


def test_versioned_and_rating_entries_have_no_n(reg):
    lcb = reg.get("LiveCodeBench")
    assert (lcb.metric, lcb.n, lcb.reachability_applies) == ("versioned", None, False)
    assert lcb.n_for("release_v5") == 880
    cf = reg.get("Codeforces (Rating)")
    assert (cf.name, cf.metric, cf.n, cf.reachability_applies) == (
        "Codeforces",
        "rating",
        None,
        False,
    )


def test_n_for_splits(reg):
    mbpp = reg.get("MBPP")
    assert (mbpp.n_for("test"), mbpp.n_for("sanitized"), mbpp.n_for("full")) == (500, 257, 974)
    assert mbpp.n_for("no such split") is None
    # dev finds a validation split; a validation name never finds a "dev" split.
    assert reg.get("WinoGrande").n_for("dev") == 1267
    assert reg.get("ARC-Challenge").n_for("val") == 299
    assert reg.get("MMLU").n_for("dev") == 285
    assert reg.get("MMLU").n_for("validation") == 1531
    assert reg.get("C-Eval").n_for("validation") == 1346
    assert reg.get("miniF2F").n_for("validation") == 244
    # a variant view keeps the entry's splits
    assert reg.get("MBPP sanitized").n_for("test") == 500


# ---------------------------------------------------------------- metric types


@pytest.mark.parametrize(
    "name,metric,applies",
    [
        ("HumanEval", "binary", True),
        ("TruthfulQA", "continuous", False),
        ("TruthfulQA MC1", "binary", True),
        ("truthfulqa_mc2", "continuous", False),
        ("IFEval", "composite", False),
        ("IF-Eval (Prompt Strict)", "binary", True),
        ("IFEval prompt-level loose", "binary", True),
        ("BBH", "composite", False),
        ("CMMLU", "composite", False),
        ("C-Eval", "composite", False),
        ("DROP", "continuous", False),
        ("MT-Bench", "continuous", False),
        ("Arena-Hard", "continuous", False),
        ("AlpacaEval 2", "continuous", False),
        ("LAMBADA", "binary", True),
        ("lambada perplexity", "continuous", False),
        ("LiveCodeBench", "versioned", False),
        ("Codeforces", "rating", False),
    ],
)
def test_metric_types(reg, name, metric, applies):
    b = reg.get(name)
    assert b is not None, name
    assert (b.metric, b.reachability_applies) == (metric, applies)


def test_direction(reg):
    assert reg.get("LAMBADA ppl").direction == "lower"
    assert reg.get("LAMBADA").direction == "higher"
    assert all(b.direction == "higher" for b in reg.entries)


# ---------------------------------------------------------------- aliases


@pytest.mark.parametrize(
    "alias,name,split,n,label",
    [
        ("MBPP sanitized", "MBPP", "sanitized", 257, "MBPP (sanitized)"),
        ("sanitized MBPP", "MBPP", "sanitized", 257, "MBPP (sanitized)"),
        ("mbpp_sanitized", "MBPP", "sanitized", 257, "MBPP (sanitized)"),
        ("MATH500", "MATH-500", "test", 500, "MATH-500"),
        ("MATH-500", "MATH-500", "test", 500, "MATH-500"),
        ("SWE Verified", "SWE-bench Verified", "test", 500, "SWE-bench Verified"),
        ("SWE-bench Verified", "SWE-bench Verified", "test", 500, "SWE-bench Verified"),
        ("GPQA-Diamond", "GPQA Diamond", "diamond", 198, "GPQA Diamond"),
        ("gpqa_diamond", "GPQA Diamond", "diamond", 198, "GPQA Diamond"),
        ("TruthfulQA MC1", "TruthfulQA", "validation", 817, "TruthfulQA (MC1)"),
        ("miniF2F-test", "miniF2F", "test", 244, "miniF2F (test)"),
        ("C-Eval (val)", "C-Eval", "val", 1346, "C-Eval (val)"),
        ("AMC23", "AMC 2023", "test", 40, "AMC 2023"),
        ("SWE-bench Multilingual", "SWE-bench Multilingual", "test", 300, "SWE-bench Multilingual"),
        ("aime24", "AIME 2024", "test", 30, "AIME 2024"),
    ],
)
def test_alias_resolution(reg, alias, name, split, n, label):
    b = reg.get(alias)
    assert b is not None, alias
    assert (b.name, b.split, b.n, b.label) == (name, split, n, label)
    assert reg.resolve(alias) == b


def test_humaneval_aliases_and_not_humaneval_mul(reg):
    for alias in ("humaneval", "Human-Eval", "Human Eval", "openai_humaneval"):
        assert reg.get(alias).name == "HumanEval"
    for other in ("HumanEval-Mul", "HumanEval Mul", "humanevalmul"):
        assert reg.get(other) is None
    # HumanEval-X is its own entry (164 problems in each of five languages), never HumanEval.
    for alias in ("HumanEval-X", "humaneval-x", "HumanEvalX"):
        assert (reg.get(alias).name, reg.get(alias).n) == ("HumanEval-X", 820)


def test_humaneval_mul_is_not_matched_in_prose(reg):
    from benchaudit.inputs.claims import find_benchmarks

    found = find_benchmarks("HumanEval-Mul 82.6, HumanEval 90.2, MBPP sanitized 81.3", reg)
    assert [(m.benchmark.label, m.benchmark.n) for m in found] == [
        ("HumanEval", 164),
        ("MBPP (sanitized)", 257),
    ]


def test_training_and_few_shot_splits_are_not_evaluation_splits(reg):
    gsm = reg.get("GSM8K")
    assert (dict(gsm.splits), gsm.n_for("train")) == ({"test": 1319}, 7473)
    mmlu = reg.get("MMLU")
    assert set(mmlu.splits) == {"test", "validation"} and mmlu.n_for("dev") == 285
    assert set(reg.get("MBPP").splits) == {"test", "sanitized"}


def test_a_variant_label_finds_the_variant(reg):
    # Claims keep a name; the label must lead back to the same view.
    for v in reg.variant_views:
        assert reg.get(v.label) == v, v.label
    for b in reg.entries:
        assert reg.get(b.label) == b, b.label


def test_variants_of_an_entry(reg):
    assert {v.variant for v in reg.variants("MBPP")} == {"sanitized"}
    assert {v.variant for v in reg.variants("truthfulqa")} == {"mc1", "mc2"}
    assert reg.variants("HumanEval") == []
    assert reg.variants("no such benchmark") == []


def test_case_sensitive_names(reg):
    assert reg.get("DROP").name == "DROP"
    assert reg.get("drop") is None and reg.get("Drop") is None
    assert reg.resolve("drop").name == "DROP"


def test_no_alias_names_two_benchmarks(reg):
    seen: dict[str, str] = {}
    for b in all_views(reg):
        for key in (*b.aliases, *(() if b.variant else (b.name,))):
            k = fold(key)
            assert seen.setdefault(k, b.label) == b.label, (key, seen[k], b.label)


# ---------------------------------------------------------------- overrides


def test_override_of_a_known_benchmark():
    reg = Registry.load({"humaneval": 100})
    b = reg.get("HumanEval")
    assert (b.name, b.n, b.source, b.metric) == ("HumanEval", 100, "configuration", "binary")
    assert reg.get("openai_humaneval") is b
    assert "human-eval" in b.aliases
    assert b.n_for("test") == 100


def test_override_of_an_unknown_benchmark():
    reg = Registry.load({"my-bench": 250})
    b = reg.get("My Bench")
    assert (b.name, b.n, b.source, b.metric, b.reachability_applies) == (
        "my-bench",
        250,
        "configuration",
        "binary",
        True,
    )
    assert "my-bench" in reg.names()


def test_override_of_a_variant_leaves_the_entry_alone():
    reg = Registry.load({"MBPP sanitized": 250})
    assert reg.get("MBPP sanitized").n == 250
    assert reg.get("mbpp (sanitized)").n == 250
    assert reg.get("MBPP").n == 500


def test_override_fixes_a_versioned_benchmark():
    reg = Registry.load({"LiveCodeBench": 279})
    b = reg.get("livecodebench")
    assert (b.n, b.metric, b.source, b.reachability_applies) == (
        279,
        "binary",
        "configuration",
        True,
    )


def test_override_of_a_case_sensitive_name_by_any_case():
    reg = Registry.load({"drop": 9536})
    assert reg.get("DROP").n == 9536
    assert reg.get("drop") is None


def test_overrides_do_not_leak_between_loads():
    Registry.load({"HumanEval": 100})
    assert Registry.load().get("HumanEval").n == 164


# ---------------------------------------------------------------- checks on the file


def _toml(body: str) -> str:
    return '[X]\nsource = "a paper"\n' + body


def test_old_form_with_n_only_still_loads():
    reg = Registry.from_toml(_toml('n = 10\nsplit = "test"\nmetric = "binary"\n'))
    b = reg.get("x")
    assert (b.n, b.split, dict(b.splits)) == (10, "test", {"test": 10})


@pytest.mark.parametrize(
    "body,message",
    [
        ('splits = { test = 5 }\nsplit = "test"\nmetric = "accuracy"\n', "metric"),
        (
            'splits = { test = 5 }\nsplit = "test"\nmetric = "binary"\ndirection = "up"\n',
            "direction",
        ),
        ('splits = { test = 0 }\nsplit = "test"\nmetric = "binary"\n', "positive"),
        ('splits = { test = 5 }\nsplit = "dev"\nmetric = "binary"\n', "no count"),
        ('splits = { test = 5 }\nmetric = "binary"\n', "binary"),
        ('n = 6\nsplits = { test = 5 }\nsplit = "test"\nmetric = "binary"\n', "n = 6"),
        (
            'splits = { test = 5 }\nsplit = "test"\nmetric = "binary"\n'
            '[X.variants.v]\nsplit = "nope"\naliases = ["x v"]\n',
            "no count",
        ),
        (
            'splits = { test = 5 }\nsplit = "test"\nmetric = "binary"\n[X.variants.v]\nsplit = "test"\n',
            "alias",
        ),
    ],
)
def test_bad_entries_are_rejected(body, message):
    with pytest.raises(ValueError, match=message):
        Registry.from_toml(_toml(body))


def test_a_split_is_not_both_kinds():
    with pytest.raises(ValueError, match="both splits and other_splits"):
        Registry.from_toml(
            _toml(
                'splits = { test = 5 }\nother_splits = { test = 5 }\nsplit = "test"\nmetric = "binary"\n'
            )
        )


def test_an_entry_needs_a_source():
    with pytest.raises(ValueError, match="source"):
        Registry.from_toml('[X]\nsplits = { test = 5 }\nsplit = "test"\nmetric = "binary"\n')


def test_an_alias_may_not_name_two_benchmarks():
    text = (
        '[A]\nsource = "s"\nsplits = { test = 5 }\nsplit = "test"\nmetric = "binary"\naliases = ["same"]\n'
        '[B]\nsource = "s"\nsplits = { test = 6 }\nsplit = "test"\nmetric = "binary"\naliases = ["Same"]\n'
    )
    with pytest.raises(ValueError, match="names both"):
        Registry.from_toml(text)


# ------------------------------------------------ chance levels and metric names


def test_every_chance_level_is_sourced(reg):
    chanced = [b for b in [*reg.entries, *reg.harness_only] if b.harness_tasks]
    assert len(chanced) >= 17
    for b in chanced:
        assert b.options is not None and b.options >= 2 and b.options_source, b.name
    for b in reg.harness_only:
        assert b.source and b.n is None


@pytest.mark.parametrize(
    "task,chance",
    [
        ("mmlu", 0.25),
        ("hendrycksTest-anatomy", 0.25),
        ("mmlu_high_school_physics", 0.25),
        ("arc_challenge,none", 0.25),
        ("mathqa", 0.2),
        ("wsc273", 0.5),
        ("cb", 1 / 3),
        ("anli_r1", 1 / 3),
        ("truthfulqa_mc1", None),  # the options vary by question
        ("lambada_openai", None),
        ("mmlux", None),  # a prefix counts only at a separator
    ],
)
def test_chance_level_of_harness_tasks(reg, task, chance):
    assert reg.chance_level(task) == chance


def test_harness_only_entries_are_not_names(reg):
    """COPA, RTE, CB are kept for their chance level, never matched in prose."""
    for b in reg.harness_only:
        assert reg.resolve(b.name) is None
        assert b.name not in reg.names()


def test_metric_names_are_sourced(reg):
    names = reg.metric_names
    assert names is not None
    assert set(names.sources) == {
        "all-or-nothing",
        "continuous-lower",
        "continuous-higher",
        "perplexity",
    }
    assert all(names.sources.values())
    assert names.all_or_nothing.match("ACC_NORM") and not names.all_or_nothing.match("acc_x")
    assert names.higher_better.match("rougeLsum") and names.lower_better.match("bits_per_byte")


@pytest.mark.parametrize(
    "body,message",
    [
        ('harness_only = true\noptions = 4\nharness_tasks = ["t"]\n', "options_source"),
        (
            'harness_only = true\noptions = 1\noptions_source = "s"\nharness_tasks = ["t"]\n',
            "at least 2",
        ),
        ('harness_only = true\noptions = 4\noptions_source = "s"\n', "harness_tasks"),
        (
            'harness_only = true\noptions = 4\noptions_source = "s"\nharness_tasks = ["t"]\n'
            "splits = { test = 5 }\n",
            "has no",
        ),
    ],
)
def test_bad_chance_entries_are_rejected(body, message):
    with pytest.raises(ValueError, match=message):
        Registry.from_toml(_toml(body))


def test_a_harness_task_belongs_to_one_benchmark():
    entry = 'harness_only = true\noptions = 4\noptions_source = "s"\nharness_tasks = ["t"]\nsource = "s"\n'
    with pytest.raises(ValueError, match="two benchmarks"):
        Registry.from_toml(f"[A]\n{entry}[B]\n{entry}")


def test_metric_names_need_every_group_with_a_source():
    with pytest.raises(ValueError, match="groups"):
        Registry.from_toml('["metric names".all-or-nothing]\npatterns = ["acc"]\nsource = "s"\n')


def test_amc_2023_knows_the_83_problem_set_reported_under_its_name(reg):
    # agentica-project/rllm rllm/data/test/math/amc.json: 83 problems (AMC 12 2022 and 2023)
    b = reg.get("AMC 2023")
    assert b is not None and b.n == 40
    assert dict(b.other_splits) == {"AMC 12 2022 and 2023": 83}
# ---------------------------------------------------------------- math, long-context, multimodal
# Each count is a test vector with its source (the entry's `source` in benchmarks.toml says more).


@pytest.mark.parametrize(
    "name,label,split,n,metric,source",
    [
        # hkust-nlp/dart-math data/eval-dsets/mwpbench/college-math-test.jsonl: 2,818 lines
        ("CollegeMath", "CollegeMath", "test", 2818, "binary", "dart-math test file"),
        # Chen et al. 2023 (arXiv:2305.12524): 800 questions; dart-math theoremqa.json: 800
        ("TheoremQA", "TheoremQA", "test", 800, "binary", "TheoremQA paper"),
        # chaochun/nlu-asdiv-dataset dataset/ASDiv.xml: 2,305 <Problem> records
        ("ASDiv", "ASDiv", "full", 2305, "binary", "ASDiv.xml"),
        # the same repository's nfolds/asdiv-a folds list 1,218 problem ids
        ("ASDiv-A", "ASDiv-A", "asdiv-a", 1218, "binary", "nfolds/asdiv-a"),
        # ZubinGou/math-evaluation-harness data/mawps/test.jsonl: 2,065 lines
        ("MAWPS", "MAWPS", "math-evaluation-harness", 2065, "binary", "harness mawps"),
        # ZubinGou/math-evaluation-harness data/sat_math/test.jsonl: 32 lines
        ("SAT", "SAT (math-evaluation-harness)", "test", 32, "binary", "harness sat_math"),
        # deepseek-ai/DeepSeek-Coder Evaluation/LeetCode/data/20240121-Jul.jsonl: 180 lines
        ("LeetCode Contest", "LeetCode Contest", "test", 180, "binary", "DeepSeek-Coder LeetCode"),
        # SWE-bench/SWE-bench_Multilingual dataset card: test num_examples 300
        ("SWE-bench Multilingual", "SWE-bench Multilingual", "test", 300, "binary", "dataset card"),
        # OpenBMB/InfiniteBench README task table (# Examples) and metric note
        ("Retrieve.PassKey", "InfiniteBench Retrieve.PassKey", "test", 590, "binary", "InfiniteBench"),
        ("Retrieve.Number", "InfiniteBench Retrieve.Number", "test", 590, "binary", "InfiniteBench"),
        ("Retrieve.KV", "InfiniteBench Retrieve.KV", "test", 500, "binary", "InfiniteBench"),
        ("kv_retrieval", "InfiniteBench Retrieve.KV", "test", 500, "binary", "InfiniteBench"),
        ("En.MC", "InfiniteBench En.MC", "test", 229, "binary", "InfiniteBench"),
        ("En.Dia", "InfiniteBench En.Dia", "test", 200, "binary", "InfiniteBench"),
        ("Code.Debug", "InfiniteBench Code.Debug", "test", 394, "binary", "InfiniteBench"),
        ("Code.Run", "InfiniteBench Code.Run", "test", 400, "binary", "InfiniteBench"),
        ("Math.Find", "InfiniteBench Math.Find", "test", 350, "binary", "InfiniteBench"),
        ("En.QA", "InfiniteBench En.QA", "test", 351, "continuous", "InfiniteBench: ROUGE F1"),
        ("Zh.QA", "InfiniteBench Zh.QA", "test", 175, "continuous", "InfiniteBench: ROUGE F1"),
        ("En.Sum", "InfiniteBench En.Sum", "test", 103, "continuous", "InfiniteBench: rougeLsum"),
        # Ma et al. 2025 (arXiv:2505.13032): 1,000 audio-question-answer triplets
        ("MMAR", "MMAR", "test", 1000, "binary", "MMAR paper"),
        # Liu et al. 2024 (arXiv:2305.07895): 1,000 question-answer pairs
        ("OCRBench", "OCRBench", "test", 1000, "binary", "OCRBench paper"),
        # lmms-lab/ai2d dataset card: test num_examples 3088
        ("AI2D", "AI2D", "test", 3088, "binary", "lmms-lab/ai2d card"),
        # bigcode-project/bigcodebench README: 1140 tasks; BigCodeBench-Hard 148 tasks
        ("BigCodeBench", "BigCodeBench", "full", 1140, "binary", "bigcodebench README"),
        ("BigCodeBench-Instruct", "BigCodeBench", "full", 1140, "binary", "bigcodebench README"),
        ("BigCodeBench-Hard", "BigCodeBench-Hard", "hard", 148, "binary", "bigcodebench README"),
        ("BigCodeBench Hard", "BigCodeBench-Hard", "hard", 148, "binary", "bigcodebench README"),
    ],
)
def test_sourced_counts_of_math_long_context_and_multimodal_entries(
    reg, name, label, split, n, metric, source
):
    b = reg.get(name)
    assert b is not None, (name, source)
    assert (b.label, b.split, b.n, b.metric) == (label, split, n, metric), source


def test_splits_that_are_not_evaluation_splits_or_are_versions(reg):
    assert reg.get("CollegeMath").n_for("train") == 1281
    asdiv = reg.get("ASDiv")
    assert asdiv.n_for("math-evaluation-harness") == 2215  # harness data/asdiv/test.jsonl
    assert dict(asdiv.splits) == {"full": 2305, "asdiv-a": 1218, "math-evaluation-harness": 2215}
    # Only the harness's MAWPS is sourced: a bare "MAWPS" count is a guess.
    assert reg.get("MAWPS").headline_is_subset


@pytest.mark.parametrize(
    "text",
    [
        "sat",  # the word, not the benchmark: "SAT" is case-sensitive
        "sat_math",  # folds like AGIEval's SAT-Math, another set
        "SAT-Math",
        "College",  # a bare column header (MMLU has college_* subjects)
        "Theorem",
        "LeetCode",  # other LeetCode sets exist
        "OCRBench v2",
        "OCRBenchV2",
        "Multi-SWE-bench",
        "passkey",
    ],
)
def test_names_that_are_not_aliases(reg, text):
    b = reg.get(text)
    assert b is None or b.name not in {
        "SAT (math-evaluation-harness)",
        "CollegeMath",
        "TheoremQA",
        "LeetCode Contest",
        "OCRBench",
        "SWE-bench Multilingual",
        "InfiniteBench Retrieve.PassKey",
    }, text


def test_new_names_are_found_in_table_headers(reg):
    from benchaudit.inputs.sentences import find_benchmarks

    def names(text: str) -> list[str]:
        return [m.benchmark.label for m in find_benchmarks(text, reg)]

    assert names("SWE-bench Multilingual (Agentic Coding)") == ["SWE-bench Multilingual"]
    assert names("Retrieve.KV") == ["InfiniteBench Retrieve.KV"]
    assert names("OCRBench_V2") == []  # another benchmark with its own items
    assert names("SAT") == ["SAT (math-evaluation-harness)"]
    assert names("they sat down") == []


def test_a_hard_part_named_beside_bigcodebench_gets_no_count(reg):
    from benchaudit.inputs.sentences import names_a_part

    # "(Hard)" after the name is the 148-task subset, not the 1,140 tasks: no n is given.
    assert names_a_part("BigCodeBench-Complete (Hard)", reg)
    assert names_a_part("BigCodeBench-Instruct / Hard", reg)
    assert not names_a_part("BigCodeBench-Hard", reg)


def test_screenspot_and_cruxeval_cot_names(reg):
    from benchaudit.inputs.sentences import find_benchmarks

    def names(text: str) -> list[str]:
        return [m.benchmark.label for m in find_benchmarks(text, reg)]

    # SeeClick (arXiv:2401.10935) and its dataset card: test num_examples 1272. Reports give the
    # overall rate or the mean of six columns, so the headline is not k/1272.
    ss = reg.get("ScreenSpot")
    assert (ss.n, ss.metric, ss.reachability_applies) == (1272, "composite", False)
    # ScreenSpot-v2 and ScreenSpot-Pro are other benchmarks with their own items.
    for other in ("ScreenSpot Pro", "ScreenSpot-Pro", "ScreenSpotPro", "ScreenSpot-V2", "ScreenSpot v2"):
        assert names(other) == [], other
    assert names("| ScreenSpot         | 55.5 |") == ["ScreenSpot"]
    # CRUXEval-O-COT is chain-of-thought prompting on the same 800 samples.
    for cot, label in (("CRUXEval-O-COT", "CRUXEval-O"), ("CRUXEval-I-CoT", "CRUXEval-I")):
        b = reg.get(cot)
        assert (b.label, b.n, b.metric) == (label, 800, "binary"), cot
        assert names(f"| {cot} | 60.7 |") == [label], cot
