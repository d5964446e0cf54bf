#!/usr/bin/env python3
"""Regenerates resources/demo/demo.bsproj from BatchScope's own model and simulator.

The demo's two sweeps are *simulated measurements*: for each batch size, a static-batch
simulation of the accelerator model (A100 + ResNet-50, fp16; presets in resources/presets) at 60%
of that batch's capacity gives throughput and latency percentiles; power and energy come from the
model. The candidate runs the same build under a 250 W power cap. A request trace (a simulated
production slice under bursty traffic) and the nvidia-smi-style power log of the GPU that served
it (power and temperature from the same model and thermal RC) give the trace views something real
to analyse. Nothing here is a measurement of real hardware, and the project says so in each
dataset's provenance.

Usage: scripts/make-demo.py [BUILD_DIR]   (default build/dev; needs python3 and a built CLI)
"""
import csv
import json
import math
import random
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "dev")
CLI = os.path.join(BUILD, "app", "batchscope-cli")
BATCHES = [1, 2, 4, 8, 16, 32, 64, 128, 256]
LOAD_FRACTION = 0.6
LOAD_TEST_S = 150  # saturating load test at the end of the power log


def cli(*args):
    return json.loads(subprocess.run([CLI, *args, "--json"], check=True, capture_output=True, text=True).stdout)


def model_params(cap):
    params = {"accelerator": "a100-sxm-80gb", "workload": "resnet50", "precision": "fp16"}
    if cap:
        params["power_cap_w"] = cap
    return params


def sweep(name, cap):
    args = ["model", "--accelerator", "a100-sxm-80gb", "--workload", "resnet50", "--precision", "fp16",
            "--batch", ",".join(map(str, BATCHES))]
    if cap:
        args += ["--power-cap-w", str(cap)]
    predictions = cli(*args)["predictions"]
    points = []
    for p in predictions:
        b = p["batch"]
        capacity = p["sustained"]["throughput_per_s"]
        scenario = {
            "seed": 20261202 + b, "requests": 20000, "warmup_requests": 2000, "replications": 2,
            "arrivals": {"kind": "poisson", "rate_per_s": LOAD_FRACTION * capacity},
            "policy": {"kind": "static", "batch": b, "timeout_ms": 50},
            "servers": {"count": 1},
            "service": {"kind": "accelerator", "model": model_params(cap)},
        }
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(scenario, f)
        result = cli("simulate", f.name)
        os.unlink(f.name)
        lat = result["latency_ms"]
        tput = result["throughput_per_s"]["value"]
        # Power and energy at the load the sweep ran at, from the same simulation as its
        # throughput, so that energy per inference = mean power / throughput on every row.
        power = result["energy"]["mean_power_w"]["value"]
        energy = result["energy"]["per_request_j"]["value"]
        points.append({
            "batch_size": b, "request_rate_per_s": round(LOAD_FRACTION * capacity, 2),
            "throughput_per_s": round(tput, 2),
            "latency_mean_s": round(lat["mean"]["value"] / 1e3, 7),
            "latency_p50_s": round(lat["p50"]["value"] / 1e3, 7),
            "latency_p90_s": round(lat["p90"]["value"] / 1e3, 7),
            "latency_p95_s": round(lat["p95"]["value"] / 1e3, 7),
            "latency_p99_s": round(lat["p99"]["value"] / 1e3, 7),
            "power_w": round(power, 1),
            "energy_per_inference_j": round(energy, 6),
            "utilization": round(LOAD_FRACTION, 3),
            "sample_count": 40000,
        })
    return {"name": name, "load_axis": "request_rate", "tags": {}, "points": points}


def dataset(ident, name, role, table, cap):
    return {
        "id": ident, "name": name, "kind": "sweep", "role": role,
        "tags": {"workload_seed": "20261202", "model_revision": "resnet50-v1.5-onnx-opset17",
                 "compiler": "TensorRT 10.0.1", "firmware": "535.104.05", "runtime": "Triton 24.05",
                 "hardware": "A100-SXM4-80GB", "extra": {"power_limit_w": str(cap or 400)}},
        "reader_options": {},
        "source": {"path": "", "size_bytes": 0, "sha256": "", "reader": "demo", "reader_version": 1,
                   "detected_because": "built-in demo data simulated by scripts/make-demo.py from the "
                                       "a100-sxm-80gb + resnet50 presets (fp16) at 60% load per batch "
                                       "size; not a measurement of real hardware",
                   "warnings": []},
        "storage": "embedded", "data": table,
    }


TRACE_ORIGIN_EPOCH_S = 1764680400.0  # 2025-12-02 13:00 UTC: the trace and power log share it.


def demo_source(because):
    return {"path": "", "size_bytes": 0, "sha256": "", "reader": "demo", "reader_version": 1,
            "detected_because": because, "warnings": []}


def request_trace():
    """A 20,000-request slice: two tenants, MMPP-2 bursts, dynamic batching on the A100 model."""
    scenario = {
        "seed": 20261203, "requests": 20000, "warmup_requests": 0, "replications": 1,
        # A recorded slice of exactly this many requests, not a tail estimate: kept as asked.
        "run_length": {"min_cycles": 0},
        "streams": [
            {"name": "search", "weight": 3,
             "arrivals": {"kind": "mmpp2", "rates_per_s": [40, 130], "mean_dwell_s": [20, 5]}},
            {"name": "feed", "weight": 1, "arrivals": {"kind": "poisson", "rate_per_s": 25}},
        ],
        "policy": {"kind": "dynamic", "max_batch": 32, "max_queue_delay_ms": 2},
        "servers": {"count": 1},
        "service": {"kind": "accelerator", "model": model_params(250)},
    }
    with tempfile.TemporaryDirectory() as folder:
        scenario_path = os.path.join(folder, "trace.json")
        records_path = os.path.join(folder, "records.csv")
        with open(scenario_path, "w") as f:
            json.dump(scenario, f)
        subprocess.run([CLI, "simulate", scenario_path, "--records", records_path], check=True,
                       capture_output=True)
        with open(records_path) as f:
            rows = list(csv.DictReader(f))
    rows.sort(key=lambda r: float(r["arrival_s"]))
    r6 = lambda v: round(float(v), 6)
    return {
        "name": "Production slice (simulated)", "origin_epoch_s": TRACE_ORIGIN_EPOCH_S,
        "arrival_s": [r6(r["arrival_s"]) for r in rows],
        "intended_s": None,
        "dispatch_s": [r6(r["dispatch_s"]) for r in rows],
        "completion_s": [r6(r["completion_s"]) for r in rows],
        "batch_id": None,
        "batch_size": [int(r["batch_size"]) for r in rows],
        "stream_index": [["search", "feed"].index(r["stream"]) for r in rows],
        "stream_names": ["search", "feed"],
        "input_tokens": None, "output_tokens": None, "tags": {},
    }, float(rows[-1]["completion_s"])


def batch_power_w(cap):
    """Board power and clock scale the model gives while a batch of each size runs."""
    args = ["model", "--accelerator", "a100-sxm-80gb", "--workload", "resnet50", "--precision", "fp16",
            "--batch", ",".join(str(b) for b in range(1, 33)), "--power-cap-w", str(cap)]
    return {p["batch"]: (p["power_w"], p["clock_scale"]) for p in cli(*args)["predictions"]}


def power_log(trace, cap):
    """1 Hz nvidia-smi-style readings of the GPU that served the production slice, derived from
    the same model: each second's power is the idle power plus the model's dynamic power of the
    batches that ran in it, and the temperature follows the preset's thermal RC exactly (inlet
    25 C, 0.15 C/W, 266.7 J/C) from the idle steady state. So the log, the trace and the model
    tell one story: the slice is light (the GPU sits a few degrees over idle, energy per request
    is mostly idle power); in the load test that follows, power pins at the cap, the clock
    drops to the capped clock and the temperature climbs towards 62.5 C, far under the 87 C
    slowdown point: the cap, not heat, limits the clock."""
    idle_w, ambient_c, resistance_c_per_w, tau_s = 55.0, 25.0, 0.15, 0.15 * 266.7
    by_batch = batch_power_w(cap)
    origin = trace["origin_epoch_s"]
    span_s = max(trace["completion_s"])
    seconds = int(math.ceil(span_s)) + 15
    dynamic_j = [0.0] * seconds  # energy over idle in the window that ends at each reading
    busy_s = [0.0] * seconds
    clock_scale = [1.0] * seconds
    batches = {}
    for dispatch, completion, size in zip(trace["dispatch_s"], trace["completion_s"], trace["batch_size"]):
        batches[(dispatch, completion)] = size
    for (dispatch, completion), size in batches.items():
        power_w, scale = by_batch[size]
        start, stop = dispatch + 5.0, completion + 5.0  # readings start 5 s before the slice
        second = int(math.floor(start))
        while second < stop and second + 1 < seconds:
            overlap = min(stop, second + 1) - max(start, second)
            # A reading at whole second k averages the window (k-1, k].
            dynamic_j[second + 1] += (power_w - idle_w) * overlap
            busy_s[second + 1] += overlap
            clock_scale[second + 1] = min(clock_scale[second + 1], scale)
            second += 1
    # Right after the slice, a saturating load test at max batch 32 (what capacity validation
    # runs): the GPU is busy every second at the model's capped power and clock.
    test_start = int(math.ceil(span_s)) + 10
    test_power_w, test_scale = by_batch[32]
    seconds = test_start + LOAD_TEST_S + 15
    dynamic_j += [0.0] * (seconds - len(dynamic_j))
    busy_s += [0.0] * (seconds - len(busy_s))
    clock_scale += [1.0] * (seconds - len(clock_scale))
    for k in range(test_start + 1, test_start + 1 + LOAD_TEST_S):
        dynamic_j[k], busy_s[k], clock_scale[k] = test_power_w - idle_w, 1.0, test_scale
    rng = random.Random(20261204)
    times, power, clock, temperature, util = [], [], [], [], []
    temp_c = ambient_c + idle_w * resistance_c_per_w
    decay = math.exp(-1.0 / tau_s)
    for k in range(seconds):
        mean_w = idle_w + dynamic_j[k]
        if k > 0:
            steady_c = ambient_c + mean_w * resistance_c_per_w
            temp_c = steady_c + (temp_c - steady_c) * decay
        times.append(origin - 5.0 + k)
        # The cap is enforced: readings scatter under it, not over.
        power.append(round(min(mean_w + rng.gauss(0, 0.8), float(cap)), 1))
        clock.append(round(1410.0 * clock_scale[k]) if busy_s[k] > 0 else 210.0)
        # nvidia-smi reports whole degrees.
        temperature.append(float(round(temp_c)))
        util.append(float(round(100.0 * min(1.0, busy_s[k]))))
    return {"name": "nvidia-smi power log (simulated)", "time_s": times, "power_w": power,
            "sm_clock_mhz": clock, "mem_clock_mhz": None, "temperature_c": temperature,
            "utilization_pct": util, "channel": None, "channel_names": [], "reading_window_s": 1.0,
            "tags": {}}


def main():
    base = sweep("A100 ResNet-50 fp16 at 400 W", None)
    capped = sweep("A100 ResNet-50 fp16 at 250 W cap", 250)
    with open(os.path.join(ROOT, "resources", "demo", "scenarios", "demo-dynamic.json")) as f:
        t4 = json.load(f)
    interactive = {
        "name": "A100 under bursty traffic, Triton dynamic batching",
        "seed": 20261202, "requests": 50000, "warmup_requests": 5000, "replications": 4,
        # Bursts of 15,400 req/s for 0.2 s on 6,300 req/s (mean 7,817 req/s): under the 250 W cap
        # max batch 16 and above meet the 15 ms p99 through them, 8 and below do not.
        "arrivals": {"kind": "mmpp2", "rates_per_s": [6300, 15400], "mean_dwell_s": [1.0, 0.2]},
        "policy": {"kind": "dynamic", "max_batch": 32, "max_queue_delay_ms": 2},
        "servers": {"count": 1},
        "service": {"kind": "accelerator"},
    }
    trace, _ = request_trace()
    trace_dataset = {
        "id": "ds3", "name": "Production slice, 250 W cap", "kind": "request_trace", "role": "candidate",
        "tags": {"workload_seed": "20261203", "hardware": "A100-SXM4-80GB",
                 "extra": {"power_limit_w": "250"}},
        "reader_options": {},
        "source": demo_source("built-in demo data: per-request records of a BatchScope simulation "
                              "(scripts/make-demo.py), two tenants under MMPP-2 bursts; not a measurement"),
        "storage": "embedded", "data": trace}
    power_dataset = {
        "id": "ds4", "name": "Power log, 250 W cap", "kind": "power_series", "role": "candidate",
        "tags": {"hardware": "A100-SXM4-80GB", "extra": {"power_limit_w": "250"}}, "reader_options": {},
        "source": demo_source("built-in demo data: a synthetic 1 Hz nvidia-smi-style log written by "
                              "scripts/make-demo.py from the production slice, a saturating load test after it and the accelerator model; not a measurement"),
        "storage": "embedded", "data": power_log(trace, 250)}
    project = {
        "schema": 1, "app": {"name": "BatchScope", "version": "0.1.0"},
        "title": "Demo: ResNet-50 batch policy under a 250 W power cap",
        "notes": "Built-in demo. The rack's power budget asks for a 250 W cap on the A100s serving "
                 "ResNet-50. The two sweeps are simulated by BatchScope from its accelerator presets "
                 "(scripts/make-demo.py), not measured, so every view has real computations to show.",
        "datasets": [dataset("ds1", "Baseline: 400 W", "baseline", base, None),
                     dataset("ds2", "Candidate: 250 W cap", "candidate", capped, 250),
                     trace_dataset, power_dataset],
        "model": model_params(250),
        "scenarios": [interactive, t4],
        # The review's limits: p99 SLA, the rack's mean power budget per GPU, and the grid the
        # Region view computes at once.
        "region": {"sla_p99_ms": 15.0, "max_power_w": 240.0,
                   "max_batch_values": [1, 2, 4, 8, 16, 32, 64],
                   "max_queue_delay_ms_values": [0, 0.5, 1, 2, 5, 10],
                   "objective": "max-throughput"},
        # The 250 W cap is the change under review: step 1 records it as an accepted
        # difference (with the reason), so the playbook concludes and the report is final.
        "playbook": {"version": 1, "accepted_differences": [
            {"key": "power_limit_w", "reason": "the 250 W rack power cap is the change under review"}]},
        "memo": {},
    }
    with open(os.path.join(ROOT, "resources", "demo", "demo.bsproj"), "w") as f:
        # Compact: the embedded trace has 20,000 rows; pretty-printing would triple the file.
        json.dump(project, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
