#include "regionsummary.h"

#include "analysis/curvefigures.h"
#include "analysis/curvepack.h"
#include "figure/figure.h"
#include "io/bytesource.h"
#include "io/jsonfields.h"
#include "renderhooks.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace bs::cli {

namespace {

using analysis::CellStatus;
using analysis::RegionCell;
using analysis::RegionResult;
using analysis::RegionSpec;

/// More rows than this are left to cells.csv and --json.
constexpr std::size_t kMaxTableRows = 200;

std::string text(double v, int digits = 4)
{
    std::ostringstream out;
    out.precision(digits);
    out << v;
    return out.str();
}

std::string padded(std::string s, std::size_t width)
{
    if (s.size() < width)
        s.resize(width, ' ');
    return s;
}

std::string rightAligned(const std::string& s, std::size_t width)
{
    return s.size() < width ? std::string(width - s.size(), ' ') + s : s;
}

/// A cell's code in the table: ok, the failing constraint, -- (unstable), err; * recommended,
/// ? not confident.
std::string code(const RegionResult& r, const RegionCell& c)
{
    std::string out;
    switch (c.status) {
    case CellStatus::Feasible:
        out = "ok";
        break;
    case CellStatus::Infeasible:
        out = std::string(analysis::constraintName(c.binding)).substr(0, 3);
        break;
    case CellStatus::Unstable:
        out = "--";
        break;
    case CellStatus::Error:
        out = "err";
        break;
    }
    if (c.method == analysis::CellMethod::ShortRun)
        out += "~";
    if (r.recommendation && r.recommendation->cell == c.index)
        out += "*";
    if (c.status != CellStatus::Error && !c.confident)
        out += "?";
    return out;
}

std::string gridLine(const RegionResult& r)
{
    const RegionSpec& spec = r.spec;
    std::string sizes;
    std::string names;
    for (const auto& axis : spec.axes) {
        sizes += (sizes.empty() ? "" : " x ") + std::to_string(axis.size());
        names += (names.empty() ? "" : " x ") + std::string(analysis::axisKindName(axis.kind));
    }
    std::string out = "Region: " + (sizes.empty() ? "1" : sizes) + " = " +
                      std::to_string(r.cellCount) + " cell(s)" +
                      (names.empty() ? "" : " (" + names + ")");
    out += ", SLA p99 <= " + text(spec.constraints.slaP99S * 1000.0) + " ms";
    const auto& c = spec.constraints;
    if (c.robust)
        out += " (robust: upper 95% bound)";
    if (c.minThroughputPerS)
        out += ", demand >= " + text(*c.minThroughputPerS) + " req/s";
    if (c.maxPowerW)
        out += ", power <= " + text(*c.maxPowerW) + " W/server";
    if (c.maxTemperatureC)
        out += ", temperature <= " + text(*c.maxTemperatureC) + " C";
    if (c.maxEnergyPerInferenceJ)
        out += ", energy <= " + text(*c.maxEnergyPerInferenceJ * 1000.0) + " mJ/inference";
    out += ", objective " + std::string(analysis::objectiveName(spec.objective)) + "\n";
    if (r.stage == analysis::RegionStage::Shard)
        out += "Shard " + std::to_string(r.shardIndex) + "/" + std::to_string(r.shardCount) + ": " +
               std::to_string(r.cells.size()) +
               " cell(s); join the shards with "
               "batchscope-cli merge\n";
    const auto& s = r.summary;
    out += "Cells: " + std::to_string(s.feasible) + " feasible, " + std::to_string(s.infeasible) +
           " infeasible, " + std::to_string(s.unstable) + " unstable, " + std::to_string(s.errors) +
           " error(s); " + std::to_string(s.shortRun) + " decided by short runs, " +
           std::to_string(s.simulated) + " simulated in full, " + std::to_string(s.analytic) +
           " by the capacity check; " + std::to_string(s.notConfident) + " not confident\n";
    return out;
}

/// The table: one row per policy (the non-rate axes), one column per rate value.
std::string table(const RegionResult& r)
{
    const RegionSpec& spec = r.spec;
    std::vector<std::size_t> policyAxes;
    std::optional<std::size_t> rate;
    for (std::size_t a = 0; a < spec.axes.size(); ++a) {
        if (spec.axes[a].isRate())
            rate = a;
        else
            policyAxes.push_back(a);
    }
    std::vector<std::size_t> widths;
    std::string header;
    for (std::size_t a : policyAxes) {
        widths.push_back(std::string(analysis::axisKindName(spec.axes[a].kind)).size() + 2);
        header += padded(analysis::axisKindName(spec.axes[a].kind), widths.back());
    }
    const std::size_t rates = rate ? spec.axes[*rate].size() : 1;
    std::size_t columnWidth = 5;
    for (std::size_t i = 0; rate && i < rates; ++i)
        columnWidth = std::max(columnWidth, spec.axes[*rate].label(i).size() + 1);
    header += "|";
    for (std::size_t i = 0; i < rates; ++i)
        header += rightAligned(rate ? spec.axes[*rate].label(i) : "base", columnWidth);
    header += " | capacity req/s (binds)";
    std::string out = (rate ? std::string(padded("", header.find('|'))) + "| " +
                                  analysis::axisTitle(spec.axes[*rate].kind) + "\n"
                            : std::string()) +
                      header + "\n";
    std::size_t policies = 1;
    for (std::size_t a : policyAxes)
        policies *= spec.axes[a].size();
    for (std::size_t p = 0; p < policies && p < kMaxTableRows; ++p) {
        // Policy p in row-major order of the policy axes (RegionGrid's numbering).
        std::vector<std::size_t> index(spec.axes.size(), 0);
        std::size_t rest = p;
        for (std::size_t k = policyAxes.size(); k-- > 0;) {
            index[policyAxes[k]] = rest % spec.axes[policyAxes[k]].size();
            rest /= spec.axes[policyAxes[k]].size();
        }
        std::string line;
        for (std::size_t k = 0; k < policyAxes.size(); ++k)
            line += padded(spec.axes[policyAxes[k]].label(index[policyAxes[k]]), widths[k]);
        line += "|";
        for (std::size_t i = 0; i < rates; ++i) {
            if (rate)
                index[*rate] = i;
            std::size_t cell = 0;
            for (std::size_t a = 0; a < spec.axes.size(); ++a)
                cell = cell * spec.axes[a].size() + index[a];
            const RegionCell* c = r.cell(cell);
            line += rightAligned(c ? code(r, *c) : "", columnWidth);
        }
        line += " | ";
        for (const auto& point : r.capacity) {
            if (point.policy != p)
                continue;
            line += point.maxRatePerS > 0.0 ? text(point.maxRatePerS) : std::string("none");
            line += std::string(" (") + analysis::constraintName(point.binding) + ")";
        }
        out += line + "\n";
    }
    if (policies > kMaxTableRows)
        out += "... " + std::to_string(policies - kMaxTableRows) +
               " more policies: see cells.csv (--out) or --json\n";
    out += "Codes: ok feasible; p99/thr/pow/tem/ene the constraint that fails first; -- unstable "
           "(rho >= 1); err not simulatable; ~ decided by a short run (far from every limit; cells "
           "near the boundary and the recommendation are confirmed by full runs); * recommended; "
           "? not confident\n";
    return out;
}

std::string recommendationText(const RegionResult& r)
{
    if (!r.recommendation) {
        return r.stage == analysis::RegionStage::Shard
                   ? std::string()
                   : "Recommendation: none (no cell meets every constraint)\n";
    }
    const auto& rec = *r.recommendation;
    const RegionCell* c = r.cell(rec.cell);
    std::string where;
    for (std::size_t a = 0; c && a < r.spec.axes.size(); ++a)
        where += (where.empty() ? "" : ", ") +
                 std::string(analysis::axisKindName(r.spec.axes[a].kind)) + " " +
                 r.spec.axes[a].label(c->axisIndex[a]);
    std::string out = "Recommended (" + std::string(analysis::objectiveName(rec.objective)) +
                      "): " + where + "\n  " + rec.reason + "\n";
    if (c) {
        const auto& m = c->metrics;
        out += "  throughput " + text(m.throughputPerS.value) + " req/s, p99 " +
               text(m.p99S.value * 1000.0) + " ms (95% interval " + text(m.p99S.ciLow * 1000.0) +
               "-" + text(m.p99S.ciHigh * 1000.0) + " ms), mean batch " +
               text(m.meanBatch.value, 3);
        if (std::isfinite(m.energyPerInferenceJ.value))
            out += ", energy " + text(m.energyPerInferenceJ.value * 1000.0) + " mJ/inference";
        if (std::isfinite(m.powerPerServerW.value))
            out += ", power " + text(m.powerPerServerW.value) + " W/server";
        if (std::isfinite(m.peakTemperatureC.value))
            out += ", peak " + text(m.peakTemperatureC.value, 3) + " C";
        out += "\n  evidence: " + analysis::cellEvidence(*c) + "\n";
    }
    if (rec.headroom) {
        const auto& h = *rec.headroom;
        out += "Headroom: load x" + text(h.loadMultiplier, 3) + " (up to " + text(h.maxRatePerS) +
               " req/s; then " + analysis::constraintName(h.loadBinding) + " fails)";
        if (std::isfinite(h.maxArrivalCv))
            out += "; burstiness: arrival cv up to " + text(h.maxArrivalCv, 3) + " (base " +
                   text(h.baseArrivalCv, 3) +
                   (h.burstBinding == analysis::ConstraintKind::None
                        ? std::string(")")
                        : std::string("; then ") + analysis::constraintName(h.burstBinding) +
                              " fails)");
        out += "\n";
        if (!h.note.empty())
            out += "  " + h.note + "\n";
    }
    return out;
}

} // namespace

std::string formatRegionSummary(const RegionResult& r)
{
    std::string out = gridLine(r) + "\n" + table(r) + "\n" + recommendationText(r);
    if (r.stage != analysis::RegionStage::Shard)
        out += "Pareto front: " + std::to_string(r.paretoCells.size()) +
               " cell(s) (throughput up, p99 and energy per inference down)\n";
    for (const auto& w : r.warnings)
        out += "warning: " + w + "\n";
    return out;
}

int finishRegion(const RegionResult& result, const ParsedArgs& args, CliIo& io)
{
    if (const auto folder = args.value("--out")) {
        if (result.stage == analysis::RegionStage::Shard) {
            std::error_code ec;
            std::filesystem::create_directories(*folder, ec);
            const auto file = std::filesystem::path(*folder) /
                              ("region-shard-" + std::to_string(result.shardIndex) + "-of-" +
                               std::to_string(result.shardCount) + ".json");
            std::ofstream out(file, std::ios::binary | std::ios::trunc);
            out << analysis::toJson(result).dump(2) << '\n';
            out.close();
            if (ec || !out)
                return reportError(
                    makeError(ErrorCode::Io, file.string(), 0, 0, "cannot write the shard result"),
                    args, io);
            io.err << "shard result written to " << file.string() << '\n';
        } else {
            auto written = analysis::writeCurvePack(result, *folder);
            if (!written)
                return reportError(written.error(), args, io);
            std::vector<std::string> names = *written;
            // PNG twins of the SVG plots, for slides and tickets (Qt's offscreen painter).
            if (const auto& writePng = renderHooks().writePng) {
                for (const auto& plot : analysis::curvePackFigures(result)) {
                    const auto png = std::filesystem::path(*folder) / (plot.name + ".png");
                    auto status = writePng(figure::renderFigureSvg(plot.figure), png.string());
                    if (!status)
                        return reportError(status.error(), args, io);
                    names.push_back(png.filename().string());
                }
            }
            std::string list;
            for (const auto& name : names)
                list += (list.empty() ? "" : ", ") + name;
            io.err << "curve pack written to " << *folder << ": " << list << '\n';
        }
    }
    if (args.json())
        io.out << analysis::toJson(result).dump(2) << '\n';
    else
        io.out << formatRegionSummary(result);
    return kExitOk;
}

Expected<nlohmann::json> readJsonFile(const std::string& path)
{
    auto source = io::openByteSource(path);
    if (!source)
        return source.error();
    auto text = io::readAll(**source, std::uint64_t(1) << 30);
    if (!text)
        return text.error();
    return io::parseJson(*text, path);
}

} // namespace bs::cli
