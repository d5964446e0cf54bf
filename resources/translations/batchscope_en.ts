<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>PlaybookWizard</name>
    <message>
        <location filename="../../widgets/panels/playbookwizard.cpp" line="28"/>
        <source>1. Freeze seed, model and environment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/playbookwizard.cpp" line="29"/>
        <source>2. Locate the first persistent divergence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/playbookwizard.cpp" line="30"/>
        <source>3. Classify the mechanism</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/playbookwizard.cpp" line="31"/>
        <source>4. One reproducer, one bounded fix</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/playbookwizard.cpp" line="32"/>
        <source>5. Re-run the full matrix</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <location filename="../../widgets/charts/regioncharts.cpp" line="34"/>
        <source>Energy vs throughput</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regioncharts.cpp" line="34"/>
        <source>p99 vs throughput</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regioncharts.cpp" line="35"/>
        <source>Throughput (requests/s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regioncharts.cpp" line="37"/>
        <location filename="../../widgets/charts/sweepcharts.cpp" line="211"/>
        <source>Energy per inference (mJ)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regioncharts.cpp" line="37"/>
        <source>p99 latency (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regioncharts.cpp" line="41"/>
        <source>No region computed yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regioncharts.cpp" line="63"/>
        <source>Pareto front</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regioncharts.cpp" line="86"/>
        <source>Recommended</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regioncharts.cpp" line="94"/>
        <location filename="../../widgets/charts/tracecharts.cpp" line="144"/>
        <source>SLA p99 %1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regioncharts.cpp" line="98"/>
        <source>budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regioncharts.cpp" line="100"/>
        <location filename="../../widgets/charts/regioncharts.cpp" line="183"/>
        <source>demand</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regioncharts.cpp" line="114"/>
        <source>%1 ms delay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regioncharts.cpp" line="116"/>
        <source>batch ≤ %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regioncharts.cpp" line="118"/>
        <source>%1 servers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regioncharts.cpp" line="120"/>
        <source>%1 W cap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regioncharts.cpp" line="141"/>
        <source>Capacity under the SLA</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regioncharts.cpp" line="142"/>
        <source>Max sustainable rate (requests/s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regioncharts.cpp" line="145"/>
        <source>No capacity curve (the grid needs a policy axis)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regioncharts.cpp" line="166"/>
        <source>Capacity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regionheatmap.cpp" line="82"/>
        <source>feasible</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regionheatmap.cpp" line="84"/>
        <source>unstable (ρ ≥ 1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regionheatmap.cpp" line="86"/>
        <source>error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regionheatmap.cpp" line="92"/>
        <source>p99 &gt; SLA</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regionheatmap.cpp" line="94"/>
        <source>throughput &lt; demand</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regionheatmap.cpp" line="96"/>
        <source>power &gt; limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regionheatmap.cpp" line="98"/>
        <source>temperature &gt; limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regionheatmap.cpp" line="100"/>
        <source>energy &gt; budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regionheatmap.cpp" line="102"/>
        <source>infeasible</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepcharts.cpp" line="31"/>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="166"/>
        <location filename="../../widgets/charts/tracecharts.cpp" line="178"/>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="160"/>
        <source>Batch size (items)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepcharts.cpp" line="33"/>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="165"/>
        <source>Concurrency (requests in flight)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepcharts.cpp" line="35"/>
        <source>Offered load (requests/s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepcharts.cpp" line="44"/>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="168"/>
        <location filename="../../widgets/charts/tracecharts.cpp" line="180"/>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="161"/>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="180"/>
        <source>items</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepcharts.cpp" line="46"/>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="168"/>
        <source>in flight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepcharts.cpp" line="48"/>
        <source>req/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepcharts.cpp" line="93"/>
        <source>No sweep with this metric is loaded.
Import a perf_analyzer, Model Analyzer, MLPerf or CSV sweep (File ▸ Import…).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepcharts.cpp" line="180"/>
        <location filename="../../widgets/charts/tracecharts.cpp" line="160"/>
        <location filename="../../widgets/charts/tracecharts.cpp" line="304"/>
        <source>Throughput</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepcharts.cpp" line="180"/>
        <source>Throughput (inferences/s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepcharts.cpp" line="181"/>
        <source>inf/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepcharts.cpp" line="192"/>
        <source>Latency p99 (solid) and p50 (dashed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepcharts.cpp" line="193"/>
        <location filename="../../widgets/charts/tracecharts.cpp" line="93"/>
        <location filename="../../widgets/charts/tracecharts.cpp" line="120"/>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="86"/>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="112"/>
        <source>Latency (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepcharts.cpp" line="193"/>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="36"/>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="39"/>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="87"/>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="112"/>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="180"/>
        <source>ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepcharts.cpp" line="196"/>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="125"/>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="197"/>
        <source>p99</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepcharts.cpp" line="199"/>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="130"/>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="203"/>
        <source>p50</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepcharts.cpp" line="203"/>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="39"/>
        <source>SLA p99</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepcharts.cpp" line="211"/>
        <source>Energy per inference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepcharts.cpp" line="212"/>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="42"/>
        <source>mJ</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepcharts.cpp" line="221"/>
        <source>Average power</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepcharts.cpp" line="221"/>
        <location filename="../../widgets/charts/tracecharts.cpp" line="250"/>
        <source>Power (W)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepcharts.cpp" line="222"/>
        <source>W</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepcharts.cpp" line="229"/>
        <source>Power cap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="92"/>
        <source>Latency distribution — %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="94"/>
        <source>Fraction of requests ≤ x</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="97"/>
        <source>The trace has no completion times: no latency to draw</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="100"/>
        <source>Latency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="108"/>
        <source>Queue wait</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="118"/>
        <source>Latency percentiles over time (%1 s windows)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="119"/>
        <location filename="../../widgets/charts/tracecharts.cpp" line="153"/>
        <source>Time since first arrival (s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="124"/>
        <source>The trace has no completion times: no latency over time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="134"/>
        <source>p99 95% CI low</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="138"/>
        <source>p99 95% CI high</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="152"/>
        <source>Throughput over time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="154"/>
        <location filename="../../widgets/charts/tracecharts.cpp" line="296"/>
        <source>Completions (requests/s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="158"/>
        <source>No completions in the trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="167"/>
        <source>Offered load</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="177"/>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="160"/>
        <source>Batch sizes formed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="179"/>
        <source>Batches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="184"/>
        <source>No batches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="185"/>
        <source>No batch sizes: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="193"/>
        <source>Batches (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="201"/>
        <source>Device time per step by kernel class — %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="203"/>
        <source>Step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="204"/>
        <source>Device time (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="208"/>
        <source>No steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="226"/>
        <source>device idle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="237"/>
        <source>Time since log start (s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="241"/>
        <source>No readings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="250"/>
        <source>Board power</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="256"/>
        <source>Power</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="259"/>
        <source>idle %1 W</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="263"/>
        <source>cap %1 W</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="269"/>
        <source>SM clock and temperature</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="270"/>
        <source>Clock (MHz) / temperature (°C)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="274"/>
        <source>SM clock (MHz)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="278"/>
        <source>Temperature (°C)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="287"/>
        <source>clock drop %1%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="295"/>
        <source>Throughput on the power log&apos;s clock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/tracecharts.cpp" line="300"/>
        <source>No request trace overlaps this power log in time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/document/projectcommands.cpp" line="54"/>
        <source>Rename project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/import/importdialog.cpp" line="44"/>
        <source>Measurements (*.csv *.txt *.log *.json *.gz *.ckpt);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/jobstatuswidget.cpp" line="15"/>
        <source>&lt; 1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/jobstatuswidget.cpp" line="18"/>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/jobstatuswidget.cpp" line="20"/>
        <source>%1 min %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/jobstatuswidget.cpp" line="21"/>
        <source>%1 h %2 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="55"/>
        <source>Headroom: load ×%1 (%2 req/s, then %3 fails)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="60"/>
        <source>; burstiness up to gap CV %1 (now %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="75"/>
        <source> — too few samples (needs %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="90"/>
        <source>(none)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="31"/>
        <source>No simulation yet: set the traffic and policy in the Model dock.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="49"/>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="51"/>
        <source> — latency chart shows its batch service time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="62"/>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="103"/>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="172"/>
        <source>Simulated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="64"/>
        <source>Simulated: the scenario at %1 re-run for each max batch (x = max batch; p99 on the latency chart)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="86"/>
        <source>Latency distribution</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="87"/>
        <source>Share of requests (%)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="87"/>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="161"/>
        <source>%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="111"/>
        <source>Latency over time (replication 0)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="111"/>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="138"/>
        <source>Time (s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="112"/>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="139"/>
        <source>s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="127"/>
        <source>p90</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="138"/>
        <source>Queue depth and batch size over time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="139"/>
        <source>Requests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="139"/>
        <source>requests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="151"/>
        <source>Mean queue depth</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="152"/>
        <source>Mean batch size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="161"/>
        <source>Share of batches (%)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="178"/>
        <source>p99 latency against max batch (with 95% CI)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="179"/>
        <source>Max batch (items)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="179"/>
        <source>Latency p99 (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="199"/>
        <source>p99 CI low</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/workbench/workbenchoverlays.cpp" line="201"/>
        <source>p99 CI high</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/abouttext.cpp" line="19"/>
        <source>&lt;h3&gt;BatchScope %1&lt;/h3&gt;&lt;p&gt;Batch policy workbench for inference accelerators: sweeps, traces and power logs in; accelerator and queueing models re-run interactively; feasible operating regions and a signed review memo out.&lt;/p&gt;&lt;p&gt;Built with Qt %2 (running on Qt %3), zlib %4, nlohmann_json %5.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/render/pdfreport.cpp" line="291"/>
        <source>Page %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/render/pdfreport.cpp" line="321"/>
        <source>Attachments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="32"/>
        <source>Δ Throughput (candidate − baseline)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="32"/>
        <source>Δ throughput</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="33"/>
        <source>inferences/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="35"/>
        <source>Δ Latency p99 (candidate − baseline)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="35"/>
        <source>Δ p99 latency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="38"/>
        <source>Δ Latency p50 (candidate − baseline)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="38"/>
        <source>Δ p50 latency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="41"/>
        <source>Δ Energy per inference (candidate − baseline)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="42"/>
        <source>Δ energy per inference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="53"/>
        <source>throughput</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="55"/>
        <source>p99 latency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="57"/>
        <source>p50 latency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="59"/>
        <source>energy per inference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="96"/>
        <source>baseline %1 → candidate %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="101"/>
        <source>relative change undefined: baseline is 0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="102"/>
        <source>Δ %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="104"/>
        <source>95% interval of Δ: %1 to %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="107"/>
        <source>significant by the playbook&apos;s rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="108"/>
        <source>not significant by the playbook&apos;s rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="128"/>
        <source>no concurrency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="129"/>
        <source>batch %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="130"/>
        <source>concurrency %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="139"/>
        <source> and %1 more</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="175"/>
        <source>No matched point has %1 on both sides%2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="177"/>
        <source> with a non-zero baseline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="179"/>
        <source>No change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="195"/>
        <source>%1 − %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="224"/>
        <source>Δ = candidate “%1” − baseline “%2”, matched by %3: %n point(s).</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="227"/>
        <source>batch size and concurrency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="228"/>
        <source>batch size</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="233"/>
        <source>Not compared (%n row(s)): %1.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="247"/>
        <source>%1 measured on one side only at %2: no Δ there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/sweepdeltacharts.cpp" line="250"/>
        <source>Relative Δ %1 undefined at %2: the baseline is 0 (only the absolute Δ is drawn).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bs::gui::FileController</name>
    <message>
        <location filename="../../app/gui/filecontroller.cpp" line="53"/>
        <source>Could not open the project. %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/filecontroller.cpp" line="67"/>
        <source>The built-in demo project is missing from this build.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/filecontroller.cpp" line="85"/>
        <source>Open project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/filecontroller.cpp" line="86"/>
        <source>BatchScope projects (*.bsproj);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/filecontroller.cpp" line="95"/>
        <source>The project was not saved; the file on disk is unchanged. %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/filecontroller.cpp" line="113"/>
        <source>Save project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/filecontroller.cpp" line="115"/>
        <source>BatchScope projects (*.bsproj)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/filecontroller.cpp" line="128"/>
        <source>Unsaved changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/filecontroller.cpp" line="129"/>
        <source>“%1” has unsaved changes. Save them first?</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bs::gui::MainWindow</name>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="69"/>
        <source>Region</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="72"/>
        <source>Ready</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="104"/>
        <source>Sweep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="106"/>
        <source>Simulation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="108"/>
        <source>Traces</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="130"/>
        <source>Datasets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="135"/>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="140"/>
        <source>Playbook</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="141"/>
        <source>Review memo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="150"/>
        <source>Playbook and memo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="161"/>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="163"/>
        <source>&amp;New</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="164"/>
        <source>&amp;Open…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="165"/>
        <source>Open &amp;Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="166"/>
        <source>&amp;Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="167"/>
        <source>Save &amp;As…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="170"/>
        <source>&amp;Import…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="170"/>
        <source>Ctrl+I</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="172"/>
        <source>&amp;Export Chart…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="172"/>
        <source>Ctrl+E</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="174"/>
        <source>Export &amp;Report…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="174"/>
        <source>Ctrl+Shift+E</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="177"/>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="180"/>
        <source>&amp;Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="182"/>
        <source>&amp;Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="184"/>
        <source>&amp;Redo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="189"/>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="195"/>
        <source>&amp;Projector Mode (Large Fonts)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="197"/>
        <source>Ctrl+Shift+L</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="200"/>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="202"/>
        <source>&amp;About BatchScope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="203"/>
        <source>About BatchScope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="249"/>
        <source> The demo project is shown instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="259"/>
        <source>The memo cannot be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="270"/>
        <source>%1 view of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="272"/>
        <source>the project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="278"/>
        <source>Attach &quot;%1&quot; to the memo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="280"/>
        <source>&quot;%1&quot; attached to the memo as evidence (%2 chart(s) attached).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="342"/>
        <source>The recovery copy could not be written: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="356"/>
        <source>Recover unsaved work?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="357"/>
        <source>BatchScope did not close normally. A recovery copy of “%1” from %2 holds changes that were not saved. Recover it?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="372"/>
        <source>The recovery copy could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/mainwindow.cpp" line="381"/>
        <source>Recovered unsaved work from %1. Save it to keep it.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bs::gui::ReportExporter</name>
    <message>
        <location filename="../../app/gui/reportexporter.cpp" line="32"/>
        <source>Export Report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/reportexporter.cpp" line="33"/>
        <source>PDF (*.pdf);;HTML, self-contained (*.html);;Markdown with figures (*.md);;JSON, re-importable (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/reportexporter.cpp" line="45"/>
        <source>%1: choose a .pdf, .html, .md or .json file name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/reportexporter.cpp" line="58"/>
        <source>Report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/reportexporter.cpp" line="81"/>
        <source>Report not written: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/reportexporter.cpp" line="86"/>
        <source>Report written to %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bs::widgets::ChartLegend</name>
    <message>
        <location filename="../../widgets/charts/chartlegend.cpp" line="34"/>
        <source>Click an entry to hide or show its series</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bs::widgets::ChartPanel</name>
    <message>
        <location filename="../../widgets/charts/chartpanel.cpp" line="233"/>
        <source>Table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/chartpanel.cpp" line="235"/>
        <source>Show the numbers behind the chart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/chartpanel.cpp" line="237"/>
        <source>Reset zoom</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/chartpanel.cpp" line="239"/>
        <source>Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/chartpanel.cpp" line="240"/>
        <source>Copy the chart as an image, or the table as CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/chartpanel.cpp" line="242"/>
        <source>Export…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/chartpanel.cpp" line="243"/>
        <source>Save as PNG or SVG</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/chartpanel.cpp" line="246"/>
        <source>Attach to memo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/chartpanel.cpp" line="248"/>
        <source>Add this chart to the review memo as evidence (it goes into the report)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/chartpanel.cpp" line="501"/>
        <source>Export chart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/chartpanel.cpp" line="501"/>
        <source>chart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/chartpanel.cpp" line="502"/>
        <source>PNG image (*.png);;SVG vector image (*.svg);;CSV table (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bs::widgets::ChartView</name>
    <message>
        <location filename="../../widgets/charts/chartview.cpp" line="263"/>
        <source>Reset zoom</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/chartview.cpp" line="265"/>
        <source>Copy image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/chartview.cpp" line="266"/>
        <source>Export PNG or SVG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/chartview.cpp" line="314"/>
        <source>BatchScope chart</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bs::widgets::ColumnMappingDialog</name>
    <message>
        <location filename="../../widgets/import/columnmappingdialog.cpp" line="28"/>
        <source>Column mapping — %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/import/columnmappingdialog.cpp" line="29"/>
        <source>Which column holds what, and in which unit? BatchScope guessed from the header names and unit suffixes; check before importing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/import/columnmappingdialog.cpp" line="36"/>
        <source>Field</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/import/columnmappingdialog.cpp" line="36"/>
        <source>Column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/import/columnmappingdialog.cpp" line="36"/>
        <source>Unit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/import/columnmappingdialog.cpp" line="48"/>
        <source>(not in file)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/import/columnmappingdialog.cpp" line="53"/>
        <source>(none)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/import/columnmappingdialog.cpp" line="87"/>
        <source>First rows of the file:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/import/columnmappingdialog.cpp" line="134"/>
        <source>Every required field has a column.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/import/columnmappingdialog.cpp" line="135"/>
        <source>Still needed: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bs::widgets::DatasetListModel</name>
    <message>
        <location filename="../../widgets/models/datasetlistmodel.cpp" line="30"/>
        <source>Sweep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/models/datasetlistmodel.cpp" line="32"/>
        <source>Request trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/models/datasetlistmodel.cpp" line="34"/>
        <source>Kernel trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/models/datasetlistmodel.cpp" line="36"/>
        <source>Power log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/models/datasetlistmodel.cpp" line="47"/>
        <source>Baseline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/models/datasetlistmodel.cpp" line="49"/>
        <source>Candidate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/models/datasetlistmodel.cpp" line="92"/>
        <source>not loaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/models/datasetlistmodel.cpp" line="129"/>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/models/datasetlistmodel.cpp" line="131"/>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/models/datasetlistmodel.cpp" line="133"/>
        <source>Rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/models/datasetlistmodel.cpp" line="135"/>
        <source>Role</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/models/datasetlistmodel.cpp" line="137"/>
        <source>Reader</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/models/datasetlistmodel.cpp" line="139"/>
        <source>Warnings</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bs::widgets::DatasetPanel</name>
    <message>
        <location filename="../../widgets/panels/datasetpanel.cpp" line="67"/>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/datasetpanel.cpp" line="68"/>
        <source>Reveal file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/datasetpanel.cpp" line="83"/>
        <source>Import…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/datasetpanel.cpp" line="84"/>
        <source>No role</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/datasetpanel.cpp" line="85"/>
        <source>Baseline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/datasetpanel.cpp" line="86"/>
        <source>Candidate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/datasetpanel.cpp" line="88"/>
        <source>Baseline and candidate are compared by the sweep view and the playbook</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/datasetpanel.cpp" line="97"/>
        <source>Select a dataset to see where it came from.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/datasetpanel.cpp" line="103"/>
        <source>Workload seed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/datasetpanel.cpp" line="103"/>
        <source>Model revision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/datasetpanel.cpp" line="103"/>
        <source>Compiler</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/datasetpanel.cpp" line="104"/>
        <source>Firmware</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/datasetpanel.cpp" line="104"/>
        <source>Runtime</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/datasetpanel.cpp" line="104"/>
        <source>Hardware</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/datasetpanel.cpp" line="111"/>
        <source>driver=535.104; clocks=locked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/datasetpanel.cpp" line="112"/>
        <source>Other tags</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/datasetpanel.cpp" line="189"/>
        <source>File: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/datasetpanel.cpp" line="190"/>
        <source>(built into the project)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/datasetpanel.cpp" line="193"/>
        <source>Size: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/datasetpanel.cpp" line="195"/>
        <source>SHA-256: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/datasetpanel.cpp" line="197"/>
        <source>Format: %1 (reader version %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/datasetpanel.cpp" line="201"/>
        <source>Detected because: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/datasetpanel.cpp" line="203"/>
        <source>Not loaded: the referenced file could not be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../../widgets/panels/datasetpanel.cpp" line="205"/>
        <source>%n warning(s):</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../widgets/panels/datasetpanel.cpp" line="208"/>
        <source>  line %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bs::widgets::ImportController</name>
    <message>
        <location filename="../../widgets/import/importcontroller.cpp" line="26"/>
        <source>Import cancelled; nothing was added.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/import/importcontroller.cpp" line="36"/>
        <source>Import measurements</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/import/importcontroller.cpp" line="64"/>
        <source>Importing %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../../widgets/import/importcontroller.cpp" line="65"/>
        <source>Importing %n files</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../widgets/import/importcontroller.cpp" line="124"/>
        <source>%1: %n warning(s), first at line %2: %3</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../widgets/import/importcontroller.cpp" line="134"/>
        <source>Could not import:
%1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bs::widgets::ImportDialog</name>
    <message>
        <location filename="../../widgets/import/importdialog.cpp" line="52"/>
        <location filename="../../widgets/import/importdialog.cpp" line="77"/>
        <source>Import measurements</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/import/importdialog.cpp" line="54"/>
        <source>File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/import/importdialog.cpp" line="54"/>
        <source>Detected as</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/import/importdialog.cpp" line="54"/>
        <source>Read as</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/import/importdialog.cpp" line="54"/>
        <source>Columns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/import/importdialog.cpp" line="54"/>
        <source>Role</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/import/importdialog.cpp" line="58"/>
        <source>Add files…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/import/importdialog.cpp" line="61"/>
        <source>Import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/import/importdialog.cpp" line="119"/>
        <source>Detected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/import/importdialog.cpp" line="128"/>
        <source>Columns…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/import/importdialog.cpp" line="134"/>
        <source>No role</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/import/importdialog.cpp" line="135"/>
        <source>Baseline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/import/importdialog.cpp" line="136"/>
        <source>Candidate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/import/importdialog.cpp" line="199"/>
        <source>%1: format not recognised; choose one under “Read as”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/import/importdialog.cpp" line="201"/>
        <source>%1: say which column is which (Columns…).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bs::widgets::JobStatusWidget</name>
    <message>
        <location filename="../../widgets/panels/jobstatuswidget.cpp" line="33"/>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/jobstatuswidget.cpp" line="67"/>
        <source> (about %1 left)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bs::widgets::MemoEditor</name>
    <message>
        <location filename="../../widgets/panels/memoeditor.cpp" line="42"/>
        <source>1. Symptom</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/memoeditor.cpp" line="43"/>
        <source>2. Mechanism hypothesis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/memoeditor.cpp" line="44"/>
        <source>3. Proposed action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/memoeditor.cpp" line="84"/>
        <source>Accept draft</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/memoeditor.cpp" line="105"/>
        <source>Evidence attached (charts: &quot;Attach to memo&quot;)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/memoeditor.cpp" line="109"/>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/memoeditor.cpp" line="110"/>
        <source>Take the selected chart out of the memo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/memoeditor.cpp" line="126"/>
        <source>Remove &quot;%1&quot; from the memo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/memoeditor.cpp" line="131"/>
        <source>4. Signoff</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/memoeditor.cpp" line="137"/>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/memoeditor.cpp" line="139"/>
        <source>Pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/memoeditor.cpp" line="140"/>
        <source>Approved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/memoeditor.cpp" line="141"/>
        <source>Rejected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/memoeditor.cpp" line="158"/>
        <source>Final decision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/memoeditor.cpp" line="162"/>
        <source>Set decision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/memoeditor.cpp" line="188"/>
        <source>The memo in this project could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/memoeditor.cpp" line="203"/>
        <source>The playbook has a newer draft:
%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/memoeditor.cpp" line="230"/>
        <source>Edit memo: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/memoeditor.cpp" line="237"/>
        <source>Accept draft: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/memoeditor.cpp" line="249"/>
        <source>Edit sign-off</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bs::widgets::MessageBar</name>
    <message>
        <location filename="../../widgets/panels/messagebar.cpp" line="23"/>
        <source>Dismiss</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bs::widgets::ModelPanel</name>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="119"/>
        <location filename="../../widgets/panels/modelpanel.cpp" line="367"/>
        <source>Accelerator model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="132"/>
        <source>Accelerator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="133"/>
        <source>Workload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="134"/>
        <source>Precision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="136"/>
        <source>Fusion factor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="137"/>
        <source>φ: kernels are fused φ-fold: fewer launches, more bytes per item</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="138"/>
        <source>Power cap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="140"/>
        <source>Cap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="141"/>
        <source>Board power limit: the clock drops until it holds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="143"/>
        <source>Thermal throttling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="144"/>
        <source>RC thermal model: sustained load can heat the device to its limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="152"/>
        <source>Choose accelerator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="160"/>
        <source>Choose workload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="167"/>
        <source>Choose precision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="170"/>
        <source>Set fusion factor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="182"/>
        <source>Set a power cap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="182"/>
        <source>Remove the power cap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="185"/>
        <source>Set power cap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="191"/>
        <source>Toggle thermal throttling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="198"/>
        <source>Traffic and service</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="201"/>
        <source>What sets the service time of a batch in the simulator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="202"/>
        <source>Service time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="204"/>
        <source>Poisson</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="205"/>
        <source>Bursty renewal (gamma)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="206"/>
        <source>On/off bursts (MMPP-2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="207"/>
        <source>Arrivals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="210"/>
        <source>Arrival rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="210"/>
        <source>req/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="210"/>
        <source>Mean offered load</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="212"/>
        <source>Burstiness</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="213"/>
        <source>Gamma: coefficient of variation of the gaps (1 = Poisson). MMPP-2: burst rate ÷ calm rate.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="217"/>
        <source>Servers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="217"/>
        <source>Replicas sharing one queue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="234"/>
        <source>Choose service time source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="242"/>
        <source>Set servers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="250"/>
        <source>Batching policy (Triton dynamic batcher)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="253"/>
        <source>Max batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="253"/>
        <source>items</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="254"/>
        <source>Largest batch the server forms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="256"/>
        <source>Max queue delay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="256"/>
        <location filename="../../widgets/panels/modelpanel.cpp" line="285"/>
        <source>ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="257"/>
        <source>How long the oldest request may wait for a fuller batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="266"/>
        <source>Set max batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="275"/>
        <source>Set max queue delay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="282"/>
        <source>Limits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="285"/>
        <source>SLA p99</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="286"/>
        <source>p99 latency the service must meet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="288"/>
        <source>Set SLA</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="361"/>
        <source>Set traffic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="378"/>
        <source>Measured: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/modelpanel.cpp" line="385"/>
        <source>From the scenario (%1)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bs::widgets::PlaybookWizard</name>
    <message>
        <location filename="../../widgets/panels/playbookwizard.cpp" line="116"/>
        <source>Run playbook</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/playbookwizard.cpp" line="117"/>
        <source>◀ Previous</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/playbookwizard.cpp" line="118"/>
        <source>Next ▶</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/playbookwizard.cpp" line="124"/>
        <source>Analyse the project&apos;s datasets and scenario through the five steps and draft the memo (your edits are kept)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/playbookwizard.cpp" line="191"/>
        <source>The project&apos;s playbook or memo section cannot be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/playbookwizard.cpp" line="195"/>
        <source>Running the playbook…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/playbookwizard.cpp" line="198"/>
        <source>Playbook</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/playbookwizard.cpp" line="205"/>
        <source>The playbook failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/playbookwizard.cpp" line="223"/>
        <source>Playbook drafts for the memo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/playbookwizard.cpp" line="238"/>
        <source>Not run yet: press Run playbook.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/playbookwizard.cpp" line="252"/>
        <source>Playbook run: %1 blocker(s), %2 warning(s), %3 pitfall warning(s). Memo drafts offered.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/playbookwizard.cpp" line="258"/>
        <source>Freeze, locate, classify, fix, re-run: press Run playbook to analyse the project.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/playbookwizard.cpp" line="292"/>
        <source>⚠ Pitfall: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/playbookwizard.cpp" line="306"/>
        <source>&lt;b&gt;Missing evidence&lt;/b&gt;&lt;ul&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/playbookwizard.cpp" line="327"/>
        <source>%1 differs (%2 vs %3) — accepted: %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/playbookwizard.cpp" line="331"/>
        <source>%1 differs (%2 vs %3) — blocker</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/playbookwizard.cpp" line="336"/>
        <source>Accept…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/playbookwizard.cpp" line="350"/>
        <source>Accept a difference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/playbookwizard.cpp" line="351"/>
        <source>Why is the difference in %1 acceptable?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/panels/playbookwizard.cpp" line="360"/>
        <source>Accept difference in %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bs::widgets::ProjectDocument</name>
    <message>
        <location filename="../../widgets/document/projectdocument.cpp" line="27"/>
        <source>Untitled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/document/projectdocument.cpp" line="86"/>
        <source>Import %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/document/projectdocument.cpp" line="98"/>
        <source>Remove %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/document/projectdocument.cpp" line="118"/>
        <source>Set dataset role</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/document/projectdocument.cpp" line="129"/>
        <source>Edit run tags</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/document/projectdocument.cpp" line="140"/>
        <source>Rename dataset</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bs::widgets::RegionHeatmap</name>
    <message>
        <location filename="../../widgets/charts/regionheatmap.cpp" line="111"/>
        <source>Feasible region heatmap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regionheatmap.cpp" line="157"/>
        <source>temperature &gt; limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regionheatmap.cpp" line="215"/>
        <source>Verdict: %1 (%2%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regionheatmap.cpp" line="218"/>
        <source>, not confident</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regionheatmap.cpp" line="220"/>
        <source>Offered %1 req/s, ρ = %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regionheatmap.cpp" line="223"/>
        <source>Throughput %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regionheatmap.cpp" line="223"/>
        <source> req/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regionheatmap.cpp" line="224"/>
        <source>p99 %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regionheatmap.cpp" line="225"/>
        <source>Energy/inference %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regionheatmap.cpp" line="227"/>
        <source>Power/server %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regionheatmap.cpp" line="229"/>
        <source>  %1 margin %2 %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regionheatmap.cpp" line="231"/>
        <source>(met)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regionheatmap.cpp" line="231"/>
        <source>(missed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regionheatmap.cpp" line="244"/>
        <source>No region computed yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regionheatmap.cpp" line="324"/>
        <source>★ recommended</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/charts/regionheatmap.cpp" line="328"/>
        <source>% = smallest margin</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bs::widgets::RegionView</name>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="95"/>
        <source>Robust (judge the 95% interval&apos;s pessimistic end)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="105"/>
        <source>the scenario&apos;s rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="106"/>
        <source>Max throughput</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="107"/>
        <source>Min energy per inference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="108"/>
        <source>Min p99 latency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="116"/>
        <source>Max batch values:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="117"/>
        <source>Max queue delay (ms):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="118"/>
        <source>Offered rates (req/s):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="120"/>
        <source>Objective:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="124"/>
        <source>Rate slice:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="126"/>
        <source>Compute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="127"/>
        <source>Recompute the region now (it also recomputes on every change)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="130"/>
        <source>Limits:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="191"/>
        <source>p99 ≤ %1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="193"/>
        <source>power ≤ %1 W</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="195"/>
        <source>throughput ≥ %1 req/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="197"/>
        <source>temperature ≤ %1 °C</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="199"/>
        <source>energy ≤ %1 mJ/inference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="202"/>
        <source>   (SLA in the Model dock; other limits in the project&apos;s region section)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="220"/>
        <source>max batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="221"/>
        <source>max queue delay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="222"/>
        <source>rates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="226"/>
        <source>Change region grid</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="282"/>
        <source>Cannot compute the region: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="304"/>
        <source>Computing the region…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="306"/>
        <source>Feasible region</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="315"/>
        <source>Region failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="325"/>
        <source>%1 feasible, %2 infeasible, %3 unstable of %4 cells (%5 short runs, %6 full simulations)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="334"/>
        <source>Preview — refining cells near the boundary. </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="336"/>
        <source>. No feasible cell: no recommendation.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="346"/>
        <source>&lt;b&gt;Recommended (%1):&lt;/b&gt; %2 → %3 req/s at p99 %4 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="370"/>
        <source> req/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/regionview.cpp" line="427"/>
        <source>Load region cell %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bs::widgets::SeriesTableModel</name>
    <message>
        <location filename="../../widgets/models/seriestablemodel.cpp" line="74"/>
        <source>X</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/models/seriestablemodel.cpp" line="75"/>
        <source>Y</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/models/seriestablemodel.cpp" line="78"/>
        <source>Series</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bs::widgets::SimulationView</name>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="33"/>
        <source>Metric</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="33"/>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="33"/>
        <source>95% CI</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="101"/>
        <location filename="../../widgets/views/simulationview.cpp" line="103"/>
        <source>Scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="103"/>
        <source>not simulated yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="107"/>
        <source>Stability</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="108"/>
        <source>stable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="109"/>
        <source>UNSTABLE: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="110"/>
        <source>Offered load</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="110"/>
        <location filename="../../widgets/views/simulationview.cpp" line="111"/>
        <location filename="../../widgets/views/simulationview.cpp" line="114"/>
        <source> req/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="111"/>
        <source>Capacity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="112"/>
        <source>Utilisation ρ</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="114"/>
        <source>Throughput</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="116"/>
        <source>Latency p50</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="118"/>
        <source>Latency p99</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="120"/>
        <source>Latency p99.9</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="122"/>
        <source>Queue wait p99</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="124"/>
        <source>Mean batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="127"/>
        <source>Energy per request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="128"/>
        <source> mJ</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="131"/>
        <source>Mean power</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="131"/>
        <source> W</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="135"/>
        <source>SLA p99 %1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="136"/>
        <source>met, %1 ms to spare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="137"/>
        <source>MISSED by %1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="140"/>
        <source>Runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="140"/>
        <source>%1 replications × %2 requests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="143"/>
        <source>Percentiles</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="145"/>
        <source>Warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="146"/>
        <source>Computed in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="146"/>
        <source> ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/simulationview.cpp" line="149"/>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bs::widgets::SweepView</name>
    <message>
        <location filename="../../widgets/views/sweepview.cpp" line="39"/>
        <source>Δ as:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/sweepview.cpp" line="41"/>
        <source>Log x</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/sweepview.cpp" line="42"/>
        <source>Log y</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/sweepview.cpp" line="47"/>
        <source>Overlay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/sweepview.cpp" line="48"/>
        <source>Δ Candidate − baseline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/sweepview.cpp" line="49"/>
        <source>Overlay every sweep, or chart the candidate minus the baseline point by point (roles are set in the Datasets dock)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/sweepview.cpp" line="52"/>
        <source>Absolute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/sweepview.cpp" line="53"/>
        <source>Relative (%)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/sweepview.cpp" line="54"/>
        <source>Change in the metric&apos;s unit, or in percent of the baseline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/sweepview.cpp" line="64"/>
        <source>Batch size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/sweepview.cpp" line="65"/>
        <source>Concurrency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/sweepview.cpp" line="66"/>
        <source>Offered load</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/sweepview.cpp" line="70"/>
        <source>Show:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/sweepview.cpp" line="75"/>
        <source>Against:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/sweepview.cpp" line="231"/>
        <source>No baseline and candidate sweep to compare.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/sweepview.cpp" line="242"/>
        <source>Drawn against concurrency: every matched point has the same batch size.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/sweepview.cpp" line="245"/>
        <source>Drawn against batch size: offered load is not a matching key (it is usually set from each side&apos;s own capacity, so it differs by design).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/sweepview.cpp" line="248"/>
        <source>Drawn against batch size: the two sweeps do not both report a concurrency.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/sweepview.cpp" line="261"/>
        <source>In the Datasets dock, select a sweep and set its role to Baseline, then select another and set its role to Candidate.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../../widgets/views/sweepview.cpp" line="264"/>
        <source>The Δ display compares two sweeps, and %n sweep(s) are loaded. Import the baseline and candidate sweeps (File ▸ Import…), then set their roles. </source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../widgets/views/sweepview.cpp" line="269"/>
        <source>No sweep has the Baseline or Candidate role. </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/sweepview.cpp" line="270"/>
        <source>No sweep has the Candidate role. </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/sweepview.cpp" line="271"/>
        <source>No sweep has the Baseline role. </source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bs::widgets::TraceView</name>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="123"/>
        <source>Request trace:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="125"/>
        <source>Kernel trace:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="127"/>
        <source>Power log:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="132"/>
        <location filename="../../widgets/views/traceview.cpp" line="167"/>
        <location filename="../../widgets/views/traceview.cpp" line="345"/>
        <source>Requests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="133"/>
        <source>Kernels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="134"/>
        <source>Power &amp;&amp; thermal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="165"/>
        <source>Metric</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="165"/>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="165"/>
        <location filename="../../widgets/views/traceview.cpp" line="166"/>
        <source>95% CI</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="166"/>
        <source>Part of p99 excess</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="166"/>
        <source>Excess</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="166"/>
        <location filename="../../widgets/views/traceview.cpp" line="193"/>
        <source>Share</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="167"/>
        <source>Stream</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="167"/>
        <source>Throughput (req/s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="167"/>
        <source>p50</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="168"/>
        <source>p99</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="168"/>
        <source>p99 95% CI</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="193"/>
        <source>Kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="193"/>
        <source>Class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="193"/>
        <source>Count</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="193"/>
        <source>Total</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="193"/>
        <source>Mean</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="252"/>
        <source>%1 is referenced but not loaded: reload it from its file (Datasets dock).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="260"/>
        <location filename="../../widgets/views/traceview.cpp" line="281"/>
        <source>Analysing %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="275"/>
        <source>The kernel trace is not loaded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="276"/>
        <source>No kernel trace in the project.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="296"/>
        <source>The power log is not loaded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="297"/>
        <source>No power log in the project.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="304"/>
        <source>Aligning %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="322"/>
        <source>Request analysis failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="347"/>
        <source>Completed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="348"/>
        <source>Span</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="350"/>
        <source>Latency p%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="354"/>
        <source>Queue wait p99</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="356"/>
        <source>Mean batch (per batch / seen by a request)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="362"/>
        <source>Arrivals (fitted)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="363"/>
        <source>%1, %2 req/s, gap CV %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="370"/>
        <source>Jain&apos;s index over stream p99</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="372"/>
        <source>Coordinated omission</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="383"/>
        <source>not available</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="406"/>
        <source>%1 kernels, %2 memory operations over %3 of device span; steps from %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/views/traceview.cpp" line="414"/>
        <source> Mean launch overhead %1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bs::widgets::WorkbenchController</name>
    <message>
        <location filename="../../widgets/workbench/workbenchcontroller.cpp" line="89"/>
        <source>Simulating</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/workbench/workbenchcontroller.cpp" line="105"/>
        <source> req/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/workbench/workbenchcontroller.cpp" line="112"/>
        <source>Scenario error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/workbench/workbenchcontroller.cpp" line="118"/>
        <source>At %1: p99 %2 ms, %3 req/s, ρ = %4 (computed in %5 ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/workbench/workbenchcontroller.cpp" line="123"/>
        <source>Unstable at %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../widgets/workbench/workbenchcontroller.cpp" line="127"/>
        <source>
Model error: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../../app/gui/main.cpp" line="37"/>
        <source>Batch policy workbench for inference accelerators</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/main.cpp" line="41"/>
        <source>A .bsproj file to open (default: the built-in demo project)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/main.cpp" line="45"/>
        <source>Save a screenshot of every view into &lt;dir&gt; and quit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/main.cpp" line="49"/>
        <source>Projector mode: larger fonts and thicker lines.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/main.cpp" line="51"/>
        <source>Window size as WIDTHxHEIGHT.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/main.cpp" line="55"/>
        <source>Folder for crash-recovery copies (default: the application data folder).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/gui/main.cpp" line="60"/>
        <source>How often unsaved work is copied for recovery.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
