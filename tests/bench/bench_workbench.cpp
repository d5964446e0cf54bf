// The workbench as a user feels it, on the real widgets offscreen with the demo project:
//  1. slider -> updated sweep curves: the Model dock's max-batch slider is moved 30 times; each
//     move re-runs the model and the simulator in the background (the demo scenario: 50,000
//     measured + 5,000 warm-up requests x 4 replications, about 220,000 simulated requests, plus
//     the policy curve) and the time from the change to the redraw is taken from
//     WorkbenchController::resultsApplied. Goal: median <= 100 ms, p95 <= 250 ms.
//  (3. below: the LLM demo's budget slider -> the LLM server tab redrawn.)
//  2. event-loop stalls: a 5 ms timer on the GUI thread records the longest gap between its
//     ticks while the Region view computes the demo region (42 cells) and while the slider
//     moves (the first move, which draws what the session had not drawn yet, and the other 29
//     apart). Goal: no stall over 50 ms.
#include "jobs/jobrunner.h"
#include "mainwindow.h"
#include "panels/llmmodelpanel.h"
#include "panels/modelpanel.h"
#include "panels/parametercontrol.h"
#include "state/settings.h"
#include "views/llmserverview.h"
#include "views/regionview.h"
#include "workbench/workbenchcontroller.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QSlider>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace bs;

namespace {

/// Longest gap between ticks of a fast timer on the GUI thread: how long the UI was frozen.
class StallMeter : public QObject
{
public:
    StallMeter()
    {
        m_timer.setInterval(5);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            const double now = double(m_clock.nsecsElapsed()) / 1e6;
            m_longestMs = std::max(m_longestMs, now - m_lastMs - 5.0);
            m_lastMs = now;
        });
    }
    void start()
    {
        m_longestMs = 0.0;
        m_clock.start();
        m_lastMs = 0.0;
        m_timer.start();
    }
    double stopMs()
    {
        m_timer.stop();
        return m_longestMs;
    }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    double m_lastMs = 0.0;
    double m_longestMs = 0.0;
};

double percentile(std::vector<double> values, double p)
{
    std::sort(values.begin(), values.end());
    const double rank = p * double(values.size() - 1);
    const auto low = std::size_t(rank);
    const auto high = std::min(low + 1, values.size() - 1);
    return values[low] + (rank - double(low)) * (values[high] - values[low]);
}

/// The first move of a drag pays once for what the session had not drawn yet (the overlay
/// series built, the progress bar first shown, glyphs cached); the goal is for both figures.
void printStalls(double firstMoveMs, double laterMovesMs)
{
    std::printf("  longest event-loop stall while dragging: %.1f ms (goal <= 50): first move "
                "%.1f ms, moves 2-30 %.1f ms\n",
                std::max(firstMoveMs, laterMovesMs), firstMoveMs, laterMovesMs);
}

/// 3. The LLM demo: the Model dock's max_num_batched_tokens slider moved 30 times; each move
///    re-simulates the operating point (the public run's 300 requests, or the fitted stand-in
///    without the shared data) and its load sweep; the time from the change to the redraw is
///    taken around LlmServerView::simulated. Goal: median <= 100 ms.
int benchLlmDemo(gui::MainWindow& window, StallMeter& stalls)
{
    window.openLlmDemo();
    window.jobs()->waitForIdle(300000);
    QSlider* budget = nullptr;
    for (QSlider* s : window.llmModelPanel()->findChildren<QSlider*>())
        if (s->toolTip().startsWith(QStringLiteral("max_num_batched_tokens")))
            budget = s;
    if (!budget) {
        std::printf("LLM demo: no max_num_batched_tokens slider\n");
        return 1;
    }
    const int from = budget->value();
    std::vector<double> latenciesMs;
    double firstStallMs = 0.0;
    stalls.start();
    for (int move = 0; move < 30; ++move) {
        if (move == 1) {
            firstStallMs = stalls.stopMs();
            stalls.start();
        }
        QSignalSpy simulated(window.llmServerView(), &widgets::LlmServerView::simulated);
        QElapsedTimer clock;
        clock.start();
        budget->setValue(move % 2 == 0 ? from - 1 : from);
        if (!simulated.wait(60000)) {
            std::printf("LLM slider move %d: no result within 60 s\n", move);
            return 1;
        }
        latenciesMs.push_back(double(clock.nsecsElapsed()) / 1e6);
    }
    const double stallMs = stalls.stopMs();
    const auto run = window.llmServerView()->shownRun();
    std::printf("LLM demo: max_num_batched_tokens slider -> operating point and load sweep redrawn "
                "(30 moves, %s):\n",
                run && run->point.spec.scenario.arrivals.kind ==
                            llmsim::LlmArrivalSpec::Kind::Replay
                    ? "the public run's 300 requests"
                    : "the fitted stand-in, 3 x 300 requests");
    std::printf("  median %.1f ms   p95 %.1f ms   max %.1f ms   (goal: median <= 100)\n",
                percentile(latenciesMs, 0.5), percentile(latenciesMs, 0.95),
                *std::max_element(latenciesMs.begin(), latenciesMs.end()));
    printStalls(firstStallMs, stallMs);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QTemporaryDir dir;
    widgets::Settings settings(dir.filePath(QStringLiteral("settings.ini")));
    gui::MainWindow window(&settings);
    window.openInitial({});
    window.resize(1600, 1000);
    window.show();
    window.jobs()->waitForIdle(300000);

    StallMeter stalls;
    auto* maxBatch = window.modelPanel()->control(QStringLiteral("maxBatch"));
    QSlider* slider = maxBatch->slider();
    const int low = slider->minimum() + (slider->maximum() - slider->minimum()) / 3;
    const int high = slider->minimum() + 2 * (slider->maximum() - slider->minimum()) / 3;
    std::vector<double> latenciesMs;
    double firstStallMs = 0.0;
    stalls.start();
    for (int move = 0; move < 30; ++move) {
        if (move == 1) {
            firstStallMs = stalls.stopMs();
            stalls.start();
        }
        QSignalSpy applied(window.workbench(), &widgets::WorkbenchController::resultsApplied);
        slider->setValue(move % 2 == 0 ? high : low);
        if (!applied.wait(60000)) {
            std::printf("slider move %d: no result within 60 s\n", move);
            return 1;
        }
        latenciesMs.push_back(applied.last().at(0).toDouble());
    }
    const double sliderStallMs = stalls.stopMs();
    std::printf(
        "slider -> sweep curves redrawn (30 moves, demo scenario ~220,000 simulated requests):\n");
    std::printf(
        "  median %.1f ms   p95 %.1f ms   max %.1f ms   (goal: median <= 100, p95 <= 250)\n",
        percentile(latenciesMs, 0.5), percentile(latenciesMs, 0.95),
        *std::max_element(latenciesMs.begin(), latenciesMs.end()));
    printStalls(firstStallMs, sliderStallMs);

    auto* region = window.regionView();
    QSignalSpy shown(region, &widgets::RegionView::resultShown);
    QElapsedTimer regionClock;
    stalls.start();
    regionClock.start();
    region->compute();
    window.jobs()->waitForIdle(600000);
    const double regionStallMs = stalls.stopMs();
    std::printf("region view (demo grid, %zu cells): complete in %.2f s, %lld preview(s)\n",
                region->result() ? region->result()->cells.size() : std::size_t(0),
                double(regionClock.elapsed()) / 1e3, static_cast<long long>(shown.size()) - 1);
    std::printf("  longest event-loop stall during the region computation: %.1f ms (goal <= 50)\n",
                regionStallMs);
    return benchLlmDemo(window, stalls);
}
