#include "io/traceeventbuilder.h"

#include "io/csvsplitter.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <string_view>
#include <utility>

namespace bs::io {

namespace {

using C = data::EventCategory;

/// Kineto's activity type names (libkineto ActivityType.cpp) and their older spellings. Device
/// activity of every accelerator Kineto profiles counts: MTIA writes its device-side kernel
/// records as "mtia_ccp_events", Gaudi its device ops as "hpu_op", Cambricon "mlu_*"; their
/// host runtime calls are the launch side that correlation joins to.
C categoryOf(std::string_view cat)
{
    static const std::pair<std::string_view, C> kCategories[] = {
        {"kernel", C::Kernel},
        {"mtia_ccp_events", C::Kernel},
        {"hpu_op", C::Kernel},
        {"gpu_memcpy", C::Memcpy},
        {"memcpy", C::Memcpy},
        {"mlu_memcpy", C::Memcpy},
        {"gpu_memset", C::Memset},
        {"memset", C::Memset},
        {"mlu_memset", C::Memset},
        {"cuda_runtime", C::Runtime},
        {"runtime", C::Runtime},
        {"cuda_driver", C::Runtime},
        {"hip_runtime", C::Runtime},
        {"mtia_runtime", C::Runtime},
        {"xpu_runtime", C::Runtime},
        {"xpu_driver", C::Runtime},
        {"mlu_runtime", C::Runtime},
        {"glow_runtime", C::Runtime},
        {"privateuse1_runtime", C::Runtime},
        {"privateuse1_driver", C::Runtime},
        {"cpu_op", C::CpuOp},
        {"operator", C::CpuOp},
        {"user_annotation", C::UserAnnotation},
        {"gpu_user_annotation", C::GpuAnnotation},
        {"mlu_user_annotation", C::GpuAnnotation},
        {"python_function", C::Python},
        {"python", C::Python},
        {"ac2g", C::Flow},
        {"async_gpu", C::Flow},
        {"fwdbwd", C::Flow},
        {"flow", C::Flow},
    };
    const std::string c = lowercase(cat);
    for (const auto& [name, category] : kCategories) {
        if (c == name)
            return category;
    }
    return C::Other;
}

bool onDevice(C category)
{
    return category == C::Kernel || category == C::Memcpy || category == C::Memset ||
           category == C::GpuAnnotation;
}

std::int32_t clampInt32(std::int64_t v)
{
    if (v > std::numeric_limits<std::int32_t>::max() ||
        v < std::numeric_limits<std::int32_t>::min())
        return -1;
    return std::int32_t(v);
}

const char* phaseWord(char ph)
{
    switch (ph) {
    case 'C':
        return " (counter)";
    case 'b':
    case 'e':
    case 'n':
        return " (async)";
    case 'P':
        return " (sample)";
    case 'N':
    case 'O':
    case 'D':
        return " (object)";
    default:
        return "";
    }
}

} // namespace

std::optional<Micros> parseMicros(std::string_view text)
{
    const char* p = text.data();
    const char* end = p + text.size();
    const bool negative = p < end && *p == '-';
    p += negative ? 1 : 0;
    std::int64_t whole = 0;
    int digits = 0;
    while (p < end && *p >= '0' && *p <= '9' && digits < 18) {
        whole = whole * 10 + (*p++ - '0');
        ++digits;
    }
    std::int64_t fractionDigits = 0;
    double scale = 1.0;
    if (p < end && *p == '.') {
        ++p;
        int used = 0;
        while (p < end && *p >= '0' && *p <= '9') {
            if (used < 15) {
                fractionDigits = fractionDigits * 10 + (*p - '0');
                scale *= 10.0;
                ++used;
            }
            ++p;
        }
    }
    Micros m;
    if (p == end && digits > 0) {
        m.whole = negative ? -whole : whole;
        m.fraction = (negative ? -1.0 : 1.0) * double(fractionDigits) / scale;
    } else {
        // Exponents and very long numbers: take the double and split it.
        double value = 0.0;
        const auto [ptr, ec] = std::from_chars(text.data(), end, value);
        if (ec != std::errc() || ptr != end || !std::isfinite(value) || std::fabs(value) > 9e18)
            return std::nullopt;
        m.whole = std::int64_t(std::floor(value));
        m.fraction = value - std::floor(value);
    }
    if (m.fraction < 0.0) {
        m.whole -= 1;
        m.fraction += 1.0;
    }
    return m;
}

void RawEvent::clear()
{
    ph = 0;
    cat.clear();
    name.clear();
    pid.present = tid.present = false;
    pid.isText = tid.isText = false;
    ts.reset();
    dur.reset();
    id = correlation = externalId = device = stream = -1;
    argName.clear();
}

TraceEventBuilder::TraceEventBuilder(data::KernelTrace& trace, ReadWarnings& warnings,
                                     std::function<std::int64_t()> currentLine)
    : m_trace(trace)
    , m_warnings(warnings)
    , m_currentLine(std::move(currentLine))
{}

data::EventCategory TraceEventBuilder::category(const RawEvent& raw)
{
    const C c = category(raw.cat, raw.ph);
    // Older PyTorch profilers wrote ProfilerStep#N as an "Operator" (a CPU op); current ones
    // write it as a user annotation. Read both the same way, so steps are found in either.
    if (c == C::CpuOp && raw.name.rfind("ProfilerStep#", 0) == 0)
        return C::UserAnnotation;
    return c;
}

data::EventCategory TraceEventBuilder::category(std::string_view cat, char ph)
{
    if (ph == 's' || ph == 'f')
        return C::Flow;
    // A trace has a handful of categories: a short list beats hashing the string each event.
    for (const auto& [name, c] : m_categories) {
        if (name == cat)
            return c;
    }
    const C c = categoryOf(cat);
    if (m_categories.size() < 64)
        m_categories.emplace_back(std::string(cat), c);
    return c;
}

std::uint32_t TraceEventBuilder::intern(std::string_view name)
{
    return m_names.intern(name);
}

std::int32_t TraceEventBuilder::mapId(const RawId& id)
{
    if (!id.present)
        return 0;
    if (id.isText) {
        if (const auto it = m_textIds.find(id.text); it != m_textIds.end())
            return it->second;
        const std::int32_t synthetic = m_nextSyntheticId--;
        m_textIds.emplace(id.text, synthetic);
        m_trace.metadata["id_name." + std::to_string(synthetic)] = id.text;
        return synthetic;
    }
    if (id.number >= 0 && id.number <= std::numeric_limits<std::int32_t>::max())
        return std::int32_t(id.number);
    if (const auto it = m_bigIds.find(id.number); it != m_bigIds.end())
        return it->second;
    const std::int32_t synthetic = m_nextSyntheticId--;
    m_bigIds.emplace(id.number, synthetic);
    m_trace.metadata["id_value." + std::to_string(synthetic)] = std::to_string(id.number);
    return synthetic;
}

double TraceEventBuilder::relativeS(const Micros& t)
{
    if (!m_origin)
        m_origin = t;
    return (double(t.whole - m_origin->whole) + (t.fraction - m_origin->fraction)) * 1e-6;
}

bool TraceEventBuilder::emit(const RawEvent& raw, data::EventPhase phase, std::uint32_t nameId,
                             data::EventCategory cat, double startS, double durationS)
{
    data::KernelEvent e;
    e.startS = startS;
    e.durationS = durationS;
    e.correlation = raw.correlation >= 0 ? raw.correlation : (cat == C::Flow ? raw.id : -1);
    e.externalId = raw.externalId;
    e.nameId = nameId;
    e.pid = mapId(raw.pid);
    e.tid = mapId(raw.tid);
    e.stream = clampInt32(raw.stream);
    // Kineto puts device activity in a process per device: pid is the device index there.
    const bool deviceRow = onDevice(cat) || raw.cat == "cuda_profiler_range";
    const std::int64_t device = raw.device >= 0 ? raw.device
                                : deviceRow && !raw.pid.isText && raw.pid.number < 4096
                                    ? raw.pid.number
                                    : -1;
    e.device = device >= 0 && device < 32768 ? std::int16_t(device) : std::int16_t(-1);
    e.category = cat;
    e.phase = phase;
    if (m_events.size() == 0 || startS < m_minStartS)
        m_minStartS = startS;
    return m_events.push(e);
}

void TraceEventBuilder::skip(const std::string& kind, const std::string& message)
{
    m_warnings.add(kind, m_warnings.wantsLine(kind) ? m_currentLine() : 0, message);
}

void TraceEventBuilder::metadataEvent(const RawEvent& raw)
{
    const std::string pid = std::to_string(mapId(raw.pid));
    if (raw.name == "process_name" || raw.name == "process_labels")
        m_trace.metadata[raw.name + "." + pid] = raw.argName;
    else if (raw.name == "thread_name")
        m_trace.metadata["thread_name." + pid + "." + std::to_string(mapId(raw.tid))] = raw.argName;
}

TraceEventBuilder::Added TraceEventBuilder::beginEnd(const RawEvent& raw, double startS)
{
    const auto key = std::make_pair(mapId(raw.pid), mapId(raw.tid));
    if (raw.ph == 'B') {
        m_open[key].push_back(Open{startS, intern(raw.name), category(raw), raw.correlation,
                                   raw.externalId, raw.device, raw.stream});
        return Added::Ok;
    }
    auto it = m_open.find(key);
    if (it == m_open.end() || it->second.empty()) {
        skip("unmatched-e", "an \"E\" event with no open \"B\" event on its thread was skipped");
        return Added::Ok;
    }
    const Open open = it->second.back();
    it->second.pop_back();
    if (startS < open.startS)
        return Added::NegativeDuration;
    RawEvent merged;
    merged.pid = raw.pid;
    merged.tid = raw.tid;
    merged.correlation = open.correlation;
    merged.externalId = open.externalId;
    merged.device = open.device;
    merged.stream = open.stream;
    return emit(merged, data::EventPhase::Complete, open.nameId, open.category, open.startS,
                startS - open.startS)
               ? Added::Ok
               : Added::OutOfMemory;
}

TraceEventBuilder::Added TraceEventBuilder::add(const RawEvent& raw)
{
    if (raw.ph == 'M') {
        metadataEvent(raw);
        return Added::Ok;
    }
    if (raw.ph == 0) {
        skip("no-ph", "a trace event without \"ph\" was skipped");
        return Added::Ok;
    }
    const bool known = raw.ph == 'X' || raw.ph == 'B' || raw.ph == 'E' || raw.ph == 'i' ||
                       raw.ph == 'I' || raw.ph == 's' || raw.ph == 'f';
    if (!known) {
        skip(std::string("ph-") + raw.ph, std::string("events with \"ph\": \"") + raw.ph + "\"" +
                                              phaseWord(raw.ph) + " are not kept");
        return Added::Ok;
    }
    if (!raw.ts) {
        skip("no-ts", "a trace event without \"ts\" was skipped");
        return Added::Ok;
    }
    const double startS = relativeS(*raw.ts);
    if (raw.ph == 'B' || raw.ph == 'E')
        return beginEnd(raw, startS);
    const data::EventCategory cat = category(raw);
    double durationS = 0.0;
    data::EventPhase phase = data::EventPhase::Complete;
    if (raw.ph == 'X') {
        if (!raw.dur)
            skip("no-dur", "a complete (\"X\") event without \"dur\" was kept with duration 0");
        else
            durationS = (double(raw.dur->whole) + raw.dur->fraction) * 1e-6;
        if (durationS < 0.0)
            return Added::NegativeDuration;
    } else {
        phase = raw.ph == 's'   ? data::EventPhase::FlowStart
                : raw.ph == 'f' ? data::EventPhase::FlowEnd
                                : data::EventPhase::Instant;
    }
    return emit(raw, phase, intern(raw.name), cat, startS, durationS) ? Added::Ok
                                                                      : Added::OutOfMemory;
}

void TraceEventBuilder::finish()
{
    std::size_t unclosed = 0;
    for (const auto& [key, stack] : m_open)
        unclosed += stack.size();
    if (unclosed > 0) {
        m_warnings.add("unclosed-b", 0,
                       std::to_string(unclosed) +
                           " \"B\" events without a matching \"E\" event were left out");
    }
    const double shiftS = m_events.size() > 0 ? m_minStartS : 0.0;
    m_events.moveInto(m_trace.events, shiftS);
    if (m_origin) {
        m_trace.originUs = double(m_origin->whole) + m_origin->fraction + shiftS * 1e6;
    }
    m_trace.names = m_names.take();
}

} // namespace bs::io
