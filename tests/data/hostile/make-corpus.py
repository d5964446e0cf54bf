#!/usr/bin/env python3
"""Writes the hostile-project corpus (tests/data/hostile, see README.md): one small valid
project or scenario per file, each with one hostile mutation. Run from this folder."""
import copy
import json

SCENARIO = {
    "name": "tiny", "seed": 7, "requests": 2000, "warmup_requests": 200, "replications": 2,
    "arrivals": {"kind": "poisson", "rate_per_s": 300},
    "policy": {"kind": "dynamic", "max_batch": 4, "max_queue_delay_ms": 1},
    "service": {"kind": "linear", "base_ms": 1, "per_item_ms": 0.5},
}
PROJECT = {
    "schema": 1, "app": {"name": "BatchScope", "version": "0.1.0"},
    "title": "Hostile corpus base", "notes": "", "datasets": [], "model": {},
    "scenarios": [SCENARIO],
    "region": {"sla_p99_ms": 15, "max_batch_values": [1, 4], "max_queue_delay_ms_values": [0, 1]},
    "playbook": {}, "memo": {},
}
ESC = "\x1b"
FIGURE = {"title": "p99", "x_log": True, "y_log": True,
          "series": [{"name": "p99", "kind": "line", "points": [[1e-300, 1e-300], [1e300, 1e300]]}]}


def project(mutate):
    p = copy.deepcopy(PROJECT)
    mutate(p)
    return json.dumps(p, indent=1, ensure_ascii=False) + "\n"


def scenario(arrivals=None, service=None):
    s = copy.deepcopy(SCENARIO)
    if arrivals:
        s["arrivals"] = arrivals
    if service:
        s["service"] = service
    return json.dumps(s, indent=1) + "\n"


def setter(path, value):
    def mutate(p):
        node = p
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return mutate


FILES = {
    "region-robust-yes.bsproj": project(setter(["region", "robust"], "yes")),
    "region-robust-1.bsproj": project(setter(["region", "robust"], 1)),
    "region-objective-5.bsproj": project(setter(["region", "objective"], 5)),
    "region-max-power-x.bsproj": project(setter(["region", "max_power_w"], "x")),
    "memo-figure-log-extremes.bsproj": project(
        setter(["memo"], {"evidence": [{"title": "p99", "source": "merge", "figure": FIGURE}]})),
    "playbook-version-1e308.bsproj": project(setter(["playbook"], {"version": 1e308})),
    "playbook-requests-2to63.bsproj": project(
        setter(["playbook"], {"options": {"max_simulated_requests": 2**63}})),
    "control-characters.bsproj": project(lambda p: (
        p.update(title="T" + ESC + "]52;c;ZWNobyBoaQ==\x07" + ESC + "]0;owned\x07\u009b31m"),
        p["scenarios"][0].update(name="S" + ESC + "[2J"))),
    "scenario-mmpp-dwell-5e-324.bsproj": project(setter(["scenarios", 0, "arrivals"], {
        "kind": "mmpp2", "rates_per_s": [100, 200], "mean_dwell_s": [5e-324, 1]})),
    "scenario-service-cv-1e150.bsproj": project(setter(["scenarios", 0, "service"], {
        "kind": "linear", "base_ms": 1, "per_item_ms": 0.5,
        "distribution": {"kind": "lognormal", "cv": 1e150}})),
    "mmpp-dwell-5e-324.json": scenario(
        {"kind": "mmpp2", "rates_per_s": [100, 200], "mean_dwell_s": [5e-324, 1]}),
    "mmpp-dwell-1e308.json": scenario(
        {"kind": "mmpp2", "rates_per_s": [0, 200], "mean_dwell_s": [1e308, 1]}),
    "gamma-cv-5e-324.json": scenario({"kind": "gamma", "rate_per_s": 300, "cv": 5e-324}),
    "diurnal-period-5e-324.json": scenario({"kind": "poisson", "rate_per_s": 300, "profile": {
        "kind": "diurnal", "period_s": 5e-324, "amplitude": 0.5}}),
    "diurnal-amplitude-edge.json": scenario({"kind": "poisson", "rate_per_s": 300, "profile": {
        "kind": "diurnal", "period_s": 60, "amplitude": 0.9999999999999999}}),
    "service-cv-1e150.json": scenario(service={
        "kind": "linear", "base_ms": 1, "per_item_ms": 0.5,
        "distribution": {"kind": "lognormal", "cv": 1e150}}),
}

for name, text in FILES.items():
    with open(name, "w", encoding="utf-8") as out:
        out.write(text)
# Hand-written: what json.dumps cannot produce.
with open("schema-2to64-minus-1.bsproj", "w") as out:
    out.write('{"schema": 18446744073709551615}\n')
with open("duplicate-region-key.bsproj", "w") as out:
    out.write(project(lambda p: None).replace('"sla_p99_ms": 15', '"sla_p99_ms": 15, "sla_p99_ms": 900'))
