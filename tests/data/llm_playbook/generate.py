#!/usr/bin/env python3
"""Writes the constructed baseline/candidate LLM serving runs of tests/core/tst_playbook_llm.cpp.

Each run is a serving engine log in the layout the llm_request_log reader accepts
(LLMServingSim's vLLM run: requests.jsonl, timeseries.csv and meta.json side by side); the
thermal pair adds an nvidia-smi power log per side. Every mechanism is built from first
principles into the per-request times, so the expected stage and class follow from how the
numbers were made (README.md in this folder). Deterministic: run it again and nothing changes.
"""
import datetime
import json
import math
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
REQUESTS = 320
RATE_PER_S = 4.0

BASE_KNOBS = {
    "model": "tiny/llama-mini",
    "revision": "a1b2c3d",
    "tensor_parallel_size": 2,
    "max_num_seqs": 64,
    "max_num_batched_tokens": 2048,
    "enable_chunked_prefill": True,
    "dtype": "bfloat16",
    "kv_cache_dtype": "auto",
    "seed": 42,
}
BASE_KV = {"num_gpu_blocks": 4000, "block_size": 16, "gpu_memory_utilization": 0.9}


def default_model():
    # Seconds: queueing, prefill per prompt token, time per output token (TPOT).
    return {
        "queue_mean_s": 0.004,
        "prefill_per_token_s": 0.00012,
        "prefill_base_s": 0.015,
        "tpot_s": 0.020,
        "stall_share": 0.0,    # requests whose decode is stalled (interference, preemption)
        "stall_factor": 1.0,   # TPOT multiplier of a stalled request
        "slow_from": 0.0,      # fraction of the run after which `slow` applies (thermal)
        "slow": 1.0,
        "kv_pct": 45.0,
        "waiting": 0.3,
        "output_max": 200,     # output tokens are drawn from 40 to this
        "prompt_max": 1200,    # prompt tokens are drawn from 200 to this
        "dataset": "workloads/sharegpt-mini-320.jsonl",
    }


def write_run(folder, seed, model, knobs, kv):
    os.makedirs(folder, exist_ok=True)
    rng = random.Random(seed)
    t = 0.0
    clock0 = 5000.0
    lines = []
    for i in range(REQUESTS):
        t += rng.expovariate(RATE_PER_S)
        prompt = rng.randint(200, model["prompt_max"])
        output = rng.randint(40, model["output_max"])
        late = i >= model["slow_from"] * REQUESTS
        slow = model["slow"] if late else 1.0
        queue = rng.expovariate(1.0 / model["queue_mean_s"])
        prefill = (model["prefill_base_s"] + model["prefill_per_token_s"] * prompt) * slow
        prefill *= rng.uniform(0.9, 1.1)
        tpot = model["tpot_s"] * slow * rng.uniform(0.9, 1.1)
        if rng.random() < model["stall_share"]:
            tpot *= model["stall_factor"]
        queued = clock0 + t
        scheduled = queued + queue
        first = scheduled + prefill
        last = first + tpot * (output - 1)
        lines.append(json.dumps({
            "request_id": "r%d" % i, "input_toks": prompt, "output_toks": output,
            "arrival_time": round(1790000000.0 + t, 6), "queued_ts": round(queued, 6),
            "scheduled_ts": round(scheduled, 6), "first_token_ts": round(first, 6),
            "last_token_ts": round(last, 6)}))
    with open(os.path.join(folder, "requests.jsonl"), "w") as f:
        f.write("\n".join(lines) + "\n")
    duration = int(math.ceil(t)) + 2
    with open(os.path.join(folder, "timeseries.csv"), "w") as f:
        f.write("t,prompt_throughput,gen_throughput,running,waiting,kv_cache_pct\n")
        for s in range(1, duration + 1):
            kv_pct = min(100.0, max(0.0, model["kv_pct"] + rng.uniform(-3, 3)))
            waiting = max(0, int(round(rng.expovariate(1.0 / model["waiting"])))) if model["waiting"] > 0 else 0
            running = max(1, int(round(rng.uniform(4, 10))))
            f.write("%d.0,%.1f,%.1f,%d,%d,%.2f\n" % (
                s, rng.uniform(1500, 2500), rng.uniform(300, 500), running, waiting, kv_pct))
    meta = {
        "schema_version": 1,
        "model": knobs["model"],
        "vllm_version": knobs.pop("vllm_version", "0.19.0"),
        "engine_kwargs": knobs,
        "dataset_path": model["dataset"],
        "num_requests": REQUESTS,
        "kv_cache": kv,
        "hardware": {"device_name": "NVIDIA H100 80GB HBM3", "device_count": 2},
    }
    with open(os.path.join(folder, "meta.json"), "w") as f:
        json.dump(meta, f, indent=2)
        f.write("\n")
    return duration


def write_power(folder, seconds, throttles):
    """nvidia-smi --query-gpu ... -l 1 of the run's two GPUs: idle, then loaded; a throttling
    GPU loses its clock."""
    rows = ["index, timestamp, power.draw [W], clocks.current.sm [MHz], "
            "clocks.current.memory [MHz], temperature.gpu, utilization.gpu [%]"]
    for s in range(seconds + 20):
        idle = s < 10 or s >= seconds + 10
        hot = throttles and s >= 10 + seconds // 4 and not idle
        power = 70.0 if idle else (700.0 if hot else 520.0)
        clock = 345 if idle else (1410 if hot else 1980)
        temp = 35 if idle else (89 if hot else 64)
        util = 0 if idle else 97
        # UTC, on the runs' own clock: the log starts 10 s before the first arrival (Unix
        # 1790000000), so the playbook can charge the run's window its energy.
        stamp = datetime.datetime.fromtimestamp(1790000000 - 10 + s, datetime.timezone.utc)
        for gpu in range(2):  # both GPUs of the tensor-parallel pair, alike
            rows.append("%d, %s.000, %.2f W, %d MHz, 2619 MHz, %d, %d %%" % (
                gpu, stamp.strftime("%Y/%m/%d %H:%M:%S"), power, clock, temp, util))
    with open(os.path.join(folder, "power.csv"), "w") as f:
        f.write("\n".join(rows) + "\n")


def baseline():
    """The one baseline every candidate is compared with, with its power log."""
    folder = os.path.join(HERE, "baseline")
    duration = write_run(folder, 1, default_model(), dict(BASE_KNOBS), dict(BASE_KV))
    write_power(folder, duration, False)
    return duration


# Prefill at 25,000 tokens/s (0.04 ms a token) keeps 4 req/s of these prompts within one
# engine's capacity (half of it busy with prefill).
LONG_PROMPTS = {"prompt_max": 6000, "prefill_per_token_s": 0.00004,
                "dataset": "workloads/sharegpt-long-320.jsonl"}
# A model whose KV cache holds 256,000 tokens at the same memory share (fewer KV heads), so
# that the long prompts are not limited by it: the pair is about the step budget alone.
LONG_PROMPT_KV = {"num_gpu_blocks": 16000}


def long_prompt_baseline():
    """The scheduling pair's baseline: the same engine on prompts of up to 6,000 tokens, so
    that a 2,048-token step budget chunks some of them."""
    model = default_model()
    model.update(LONG_PROMPTS)
    write_run(os.path.join(HERE, "long_baseline"), 1, model, dict(BASE_KNOBS),
              dict(BASE_KV, **LONG_PROMPT_KV))


def pair(name, candidate_model, knob_changes=None, kv_changes=None, seed=2, power=False):
    cand_dir = os.path.join(HERE, name)
    knobs = dict(BASE_KNOBS)
    knobs.update(knob_changes or {})
    kv = dict(BASE_KV)
    kv.update(kv_changes or {})
    model = default_model()
    model.update(candidate_model)
    duration = write_run(cand_dir, seed, model, knobs, kv)
    if power:
        write_power(cand_dir, duration, candidate_model.get("slow", 1.0) > 1.0)


def main():
    baseline()
    # Compute: one GPU instead of two. Prefill (compute-bound) doubles per prompt token; decode
    # (bandwidth-bound, the weights read once per step either way) grows by a tenth.
    pair("compute", {"prefill_per_token_s": 0.00024, "prefill_base_s": 0.03, "tpot_s": 0.022},
         {"tensor_parallel_size": 1})
    # Memory: a tenth of the KV cache (the weights stay, so a third less memory share leaves a
    # tenth of the blocks): 400 blocks hold 6,400 tokens, about what the 4-10 running sequences
    # of 200-1200 prompt and 40-200 output tokens need. The cache runs full, sequences are
    # preempted and recomputed: a third of the requests decode 2.5x slower; admission is
    # unchanged.
    pair("memory", {"kv_pct": 98.0, "stall_share": 0.35, "stall_factor": 2.5},
         kv_changes={"gpu_memory_utilization": 0.6, "num_gpu_blocks": 400})
    # Scheduling: a token budget of 16384 lets whole long prompts into a step; the decodes in
    # that step wait for them (prefill-decode interference): a quarter of the requests see
    # TPOT spikes of 1.9x, the median decode and the prefill rate are unchanged.
    # Its prompts run to 6,000 tokens (a baseline of its own, long_baseline/): with 2,048 the
    # longest are chunked, with 16,384 they enter one step whole.
    long_prompt_baseline()
    pair("scheduling", dict(LONG_PROMPTS, stall_share=0.25, stall_factor=1.9),
         {"max_num_batched_tokens": 16384}, kv_changes=LONG_PROMPT_KV)
    # Precision: an fp8 KV cache halves the bytes per cached token: the cache is half as full
    # and decode reads less (TPOT 0.85x). Faster, and quality evidence decides.
    pair("precision", {"kv_pct": 23.0, "tpot_s": 0.017}, {"kv_cache_dtype": "fp8"},
         kv_changes={"num_gpu_blocks": 8000})
    # Thermal: the same settings on a GPU that throttles after the first quarter of the run
    # (power at its cap, the SM clock down 29%): prefill and decode slow by a quarter.
    pair("thermal", {"slow_from": 0.25, "slow": 1.25}, power=True)
    # No alarm: the same settings and traffic shape, another random draw.
    pair("noalarm", {}, seed=3)
    # Queueing: eight seats instead of 64. Requests wait for a seat before their prefill
    # (queue mean 4 ms -> 250 ms, the engine's waiting count 0.3 -> 6); once running, prefill
    # and decode are unchanged.
    pair("queueing", {"queue_mean_s": 0.25, "waiting": 6.0}, {"max_num_seqs": 8}, seed=4)
    # Tail: the engine takes vLLM's default sampling settings instead of the model's generation
    # config, so requests stop later (output tokens 40-200 -> 40-600). Queue, prefill and the
    # time per output token are unchanged; only the end-to-end latency of the requests grows.
    pair("tail", {"output_max": 600}, {"generation_config": "vllm"})


if __name__ == "__main__":
    main()
