"""Write the hand-built harness fixtures in this folder (run from anywhere).

The layouts follow what each harness writes; the values are invented and kept
small so that every expected number in tests/test_harness_readers.py can be
checked by hand. Re-running gives byte-identical files.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

HERE = Path(__file__).parent
STAMP = "2024-05-14T10-22-33.123456"


def dump(path: Path, obj) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(obj, indent=2) + "\n", encoding="utf-8")


def dump_lines(path: Path, rows) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


# ----------------------------------------------------------------- lm-evaluation-harness

ARC_ACC = [1, 1, 0, 1, 1, 0, 1, 1, 0, 1]  # 7 / 10
ARC_NORM = [1, 0, 0, 1, 1, 0, 1, 1, 0, 1]  # 6 / 10
GSM_STRICT = [1, 0, 0, 1, 0, 0, 1, 0, 0, 0]  # 3 / 10
GSM_FLEX = [1, 0, 1, 1, 0, 0, 1, 0, 0, 0]  # 4 / 10


def arc_line(i: int) -> dict:
    gold = i % 4
    choices = ["a stone", "a leaf", "a river", "a cloud"]
    return {
        "doc_id": i,
        "doc": {
            "id": f"Mercury_{7000 + i}",
            "question": f"Which is alive? ({i})",
            "choices": {"text": choices, "label": ["A", "B", "C", "D"]},
            "answerKey": "ABCD"[gold],
        },
        "target": gold,
        "arguments": {
            f"gen_args_{j}": {
                "arg_0": f"Question: Which is alive? ({i})\nAnswer:",
                "arg_1": f" {c}",
            }
            for j, c in enumerate(choices)
        },
        "resps": [[[-5.0 - j, False]] for j in range(4)],
        "filtered_resps": [[-5.0 - j, False] for j in range(4)],
        "filter": "none",
        "metrics": ["acc", "acc_norm"],
        "doc_hash": f"{i:064x}",
        "prompt_hash": f"{i + 100:064x}",
        "target_hash": f"{i + 200:064x}",
        "acc": float(ARC_ACC[i]),
        "acc_norm": float(ARC_NORM[i]),
    }


def gsm_lines() -> list[dict]:
    rows = []
    for i in range(10):
        for filt, marks in (("strict-match", GSM_STRICT), ("flexible-extract", GSM_FLEX)):
            answer = "18" if marks[i] else "17"
            rows.append(
                {
                    "doc_id": i,
                    "doc": {"question": f"Janet has {i} ducks ...", "answer": "#### 18"},
                    "target": "#### 18",
                    "arguments": {
                        "gen_args_0": {
                            "arg_0": "Question: ...\nAnswer:",
                            "arg_1": {"until": ["Question:"], "do_sample": False},
                        }
                    },
                    "resps": [[f"The answer is {answer}."]],
                    "filtered_resps": [answer],
                    "filter": filt,
                    "metrics": ["exact_match"],
                    "doc_hash": f"{i:064x}",
                    "prompt_hash": f"{i + 300:064x}",
                    "target_hash": f"{i + 400:064x}",
                    "exact_match": float(marks[i]),
                }
            )
    return rows


def se(k: int, n: int) -> float:
    p = k / n
    return (p * (1 - p) / (n - 1)) ** 0.5


def lmeval_results(
    model: str, limit, arc_n: tuple[int, int], gsm_n: tuple[int, int], na: bool
) -> dict:
    return {
        "results": {
            "arc_easy": {
                "alias": "arc_easy",
                "acc,none": 0.7,
                "acc_stderr,none": se(7, 10),
                "acc_norm,none": 0.6,
                "acc_norm_stderr,none": se(6, 10),
            },
            "gsm8k": {
                "alias": "gsm8k",
                "exact_match,strict-match": 0.3,
                "exact_match_stderr,strict-match": se(3, 10),
                "exact_match,flexible-extract": 0.4,
                "exact_match_stderr,flexible-extract": "N/A" if na else se(4, 10),
            },
        },
        "group_subtasks": {"arc_easy": [], "gsm8k": []},
        "configs": {
            "arc_easy": {
                "task": "arc_easy",
                "dataset_path": "allenai/ai2_arc",
                "dataset_name": "ARC-Easy",
                "test_split": "test",
                "output_type": "multiple_choice",
                "num_fewshot": 0,
                "metric_list": [{"metric": "acc"}, {"metric": "acc_norm"}],
            },
            "gsm8k": {
                "task": "gsm8k",
                "dataset_path": "gsm8k",
                "dataset_name": "main",
                "test_split": "test",
                "output_type": "generate_until",
                "num_fewshot": 5,
                "filter_list": [{"name": "strict-match"}, {"name": "flexible-extract"}],
            },
        },
        "versions": {"arc_easy": 1.0, "gsm8k": 3.0},
        "n-shot": {"arc_easy": 0, "gsm8k": 5},
        "higher_is_better": {
            "arc_easy": {"acc": True, "acc_norm": True},
            "gsm8k": {"exact_match": True},
        },
        "n-samples": {
            "arc_easy": {"original": arc_n[0], "effective": arc_n[1]},
            "gsm8k": {"original": gsm_n[0], "effective": gsm_n[1]},
        },
        "config": {
            "model": "hf",
            "model_args": f"pretrained={model},dtype=float16",
            "batch_size": 8,
            "batch_sizes": [],
            "device": "cuda:0",
            "use_cache": None,
            "limit": limit,
            "bootstrap_iters": 100000,
            "gen_kwargs": None,
            "random_seed": 0,
            "numpy_seed": 1234,
            "torch_seed": 1234,
            "fewshot_seed": 1234,
        },
        "git_hash": "0d1ef83",
        "date": 1715682153.0,
        "transformers_version": "4.40.2",
        "lm_eval_version": "0.4.2",
        "model_name": model,
        "model_name_sanitized": model.replace("/", "__"),
    }


def write_lmeval() -> None:
    run = HERE / "lmeval" / "EleutherAI__pythia-160m"
    dump(
        run / f"results_{STAMP}.json",
        lmeval_results("EleutherAI/pythia-160m", 10, (2376, 10), (1319, 10), na=True),
    )
    dump_lines(run / f"samples_arc_easy_{STAMP}.jsonl", [arc_line(i) for i in range(10)])
    dump_lines(run / f"samples_gsm8k_{STAMP}.jsonl", gsm_lines())
    # A full run: no limit, every item, every stderr.
    dump(
        HERE / "lmeval" / "full" / "results_2024-06-01T09-00-00.000000.json",
        lmeval_results("meta-llama/Llama-2-7b-hf", None, (2376, 2376), (1319, 1319), na=False),
    )


# ----------------------------------------------------------------- inspect_ai

INSPECT_SCORES = {  # sample id -> value per epoch
    "q1": ["C", "C"],
    "q2": ["I", "C"],
    "q3": ["C", "P"],
    "q4": ["I", "I"],
    "q5": ["C", "C"],
}


def inspect_spec() -> dict:
    return {
        "eval_id": "kX3sYt8Q2",
        "run_id": "Vr9nLw2pQ",
        "created": "2024-09-02T11:04:12+00:00",
        "task": "gpqa_diamond",
        "task_id": "JqS2mM3",
        "task_version": 0,
        "task_file": "gpqa.py",
        "task_attribs": {},
        "task_args": {},
        "dataset": {
            "name": "gpqa_diamond",
            "location": "gpqa_diamond.csv",
            "samples": 5,
            "sample_ids": list(INSPECT_SCORES),
            "shuffled": False,
        },
        "model": "openai/gpt-4o-mini",
        "model_args": {},
        "config": {"epochs": 2, "epochs_reducer": ["mean"], "fail_on_error": True},
        "revision": {"type": "git", "origin": "https://example.org/evals.git", "commit": "3c1a2b4"},
        "packages": {"inspect_ai": "0.3.25"},
    }


def inspect_samples() -> list[dict]:
    out = []
    for epoch in (1, 2):
        for sid, values in INSPECT_SCORES.items():
            value = values[epoch - 1]
            out.append(
                {
                    "id": sid,
                    "epoch": epoch,
                    "input": f"Question {sid}?",
                    "choices": ["w", "x", "y", "z"],
                    "target": "A",
                    "messages": [
                        {"role": "user", "content": f"Question {sid}?"},
                        {"role": "assistant", "content": "ANSWER: A"},
                    ],
                    "output": {
                        "model": "gpt-4o-mini-2024-07-18",
                        "choices": [
                            {
                                "message": {"role": "assistant", "content": "ANSWER: A"},
                                "stop_reason": "stop",
                            }
                        ],
                    },
                    "scores": {
                        "choice": {"value": value, "answer": "A", "explanation": "ANSWER: A"}
                    },
                    "metadata": {},
                    "store": {},
                }
            )
    return out


def inspect_header() -> dict:
    n = sum(len(v) for v in INSPECT_SCORES.values())
    acc = sum({"C": 1.0, "P": 0.5}.get(x, 0.0) for v in INSPECT_SCORES.values() for x in v) / n
    return {
        "version": 2,
        "status": "success",
        "eval": inspect_spec(),
        "plan": {
            "name": "plan",
            "steps": [{"solver": "multiple_choice", "params": {}}],
            "config": {},
        },
        "results": {
            "total_samples": 5,
            "completed_samples": 5,
            "scores": [
                {
                    "name": "choice",
                    "scorer": "choice",
                    "reducer": "mean",
                    "params": {},
                    "metrics": {"accuracy": {"name": "accuracy", "value": acc}},
                }
            ],
        },
        "stats": {
            "started_at": "2024-09-02T11:04:12+00:00",
            "completed_at": "2024-09-02T11:05:40+00:00",
            "model_usage": {},
        },
    }


def write_zip(path: Path, members: dict[str, object]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, obj in members.items():
            info = zipfile.ZipInfo(name, date_time=(2024, 9, 2, 11, 5, 40))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, json.dumps(obj, indent=2))


def write_inspect() -> None:
    header = inspect_header()
    samples = inspect_samples()
    members: dict[str, object] = {
        "_journal/start.json": {"version": 2, "eval": header["eval"], "plan": header["plan"]},
    }
    for s in samples:
        members[f"samples/{s['id']}_epoch_{s['epoch']}.json"] = s
    members["summaries.json"] = [
        {
            "id": s["id"],
            "epoch": s["epoch"],
            "input": s["input"],
            "target": s["target"],
            "scores": s["scores"],
        }
        for s in samples
    ]
    members["header.json"] = header
    target = HERE / "inspect" / "2024-09-02T11-04-12+00-00_gpqa-diamond_JqS2mM3.eval"
    write_zip(target, members)
    dump(
        HERE / "inspect" / "2024-09-02T11-04-12+00-00_gpqa-diamond_JqS2mM3.json",
        {**header, "samples": samples},
    )
    # Damaged versions.
    data = target.read_bytes()
    bad = HERE / "bad"
    bad.mkdir(exist_ok=True)
    (bad / "truncated.eval").write_bytes(data[: len(data) // 2])
    write_zip(bad / "no_header.eval", {"samples/q1_epoch_1.json": samples[0]})
    broken = dict(samples[0], scores={"choice": {"value": ["A", "B"]}})
    write_zip(bad / "bad_score.eval", {"header.json": header, "samples/q1_epoch_1.json": broken})


# ----------------------------------------------------------------- HELM

HELM_RUN = "mmlu:subject=anatomy,method=multiple_choice_joint,model=openai_gpt2"
HELM_EM = [1, 0, 0, 1, 1, 0]  # 3 / 6


def helm_stat(name: str, value: float, split: str = "test", **extra) -> dict:
    return {
        "name": {"name": name, "split": split, **extra},
        "count": 1,
        "sum": value,
        "sum_squared": value * value,
        "min": value,
        "max": value,
        "mean": value,
        "variance": 0.0,
        "stddev": 0.0,
    }


def write_helm() -> None:
    # The run folder is named after the run without its ':' (not allowed in Windows paths).
    run = HERE / "helm" / HELM_RUN.replace(":", "_")
    dump(
        run / "run_spec.json",
        {
            "name": HELM_RUN,
            "scenario_spec": {
                "class_name": "helm.benchmark.scenarios.mmlu_scenario.MMLUScenario",
                "args": {"subject": "anatomy"},
            },
            "adapter_spec": {
                "method": "multiple_choice_joint",
                "model": "openai/gpt2",
                "model_deployment": "huggingface/gpt2",
                "max_train_instances": 5,
                "num_train_trials": 1,
                "max_eval_instances": 6,
            },
            "metric_specs": [
                {
                    "class_name": "helm.benchmark.metrics.basic_metrics.BasicMetric",
                    "args": {"names": ["exact_match", "quasi_exact_match"]},
                }
            ],
            "groups": ["mmlu"],
        },
    )
    entries = []
    for i, em in enumerate(HELM_EM):
        entries.append(
            {
                "instance_id": f"id{31 + i}",
                "train_trial_index": 0,
                "stats": [
                    helm_stat("num_references", 4.0),
                    helm_stat("num_train_instances", 5.0),
                    helm_stat("prompt_truncated", 0.0),
                    helm_stat("exact_match", float(em)),
                    helm_stat("quasi_exact_match", float(em)),
                    helm_stat("exact_match", 0.0, perturbation={"name": "typo"}),
                ],
            }
        )
    entries.append(
        {
            "instance_id": "id31",
            "train_trial_index": 0,
            "perturbation": {"name": "dialect", "robustness": False, "fairness": True},
            "stats": [helm_stat("exact_match", 0.0)],
        }
    )
    dump(run / "per_instance_stats.json", entries)
    bad = HERE / "bad"
    dump(
        bad / "helm_missing_id" / "per_instance_stats.json",
        [{"train_trial_index": 0, "stats": [helm_stat("exact_match", 1.0)]}],
    )


# ----------------------------------------------------------------- malformed lm-eval / nested


def write_bad() -> None:
    bad = HERE / "bad"
    dump_lines(
        bad / f"samples_arc_easy_{STAMP}.jsonl",
        [arc_line(0), {k: v for k, v in arc_line(1).items() if k != "doc_id"}],
    )
    wrong = dict(arc_line(0), acc="high")
    dump_lines(bad / "lmeval_wrong_type" / f"samples_arc_easy_{STAMP}.jsonl", [wrong])
    doc = lmeval_results("EleutherAI/pythia-160m", None, (10, 10), (10, 10), na=False)
    doc["results"]["arc_easy"]["acc,none"] = "high"
    dump(bad / "results_wrong_type.json", doc)
    doc = lmeval_results("EleutherAI/pythia-160m", None, (10, 10), (10, 10), na=False)
    doc["results"] = ["arc_easy", 0.7]
    dump(bad / "results_not_object.json", doc)
    text = json.dumps(lmeval_results("x", None, (1, 1), (1, 1), na=False), indent=2)
    (bad / "results_truncated.json").write_text(text[: len(text) // 2], encoding="utf-8")
    dump_lines(
        bad / "nested_wrong_type.jsonl",
        [
            {"question": "q1", "a": {"is_correct": True}, "b": {"is_correct": False}},
            {"question": "q2", "a": {"is_correct": "yes"}, "b": {"is_correct": False}},
        ],
    )
    dump_lines(
        bad / "nested_missing_system.jsonl",
        [
            {"question": "q1", "a": {"is_correct": True}, "b": {"is_correct": False}},
            {"question": "q2", "a": {"is_correct": True}},
        ],
    )


if __name__ == "__main__":
    write_lmeval()
    write_inspect()
    write_helm()
    write_bad()
