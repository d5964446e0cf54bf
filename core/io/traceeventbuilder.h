#pragma once

#include "data/kerneltrace.h"
#include "io/eventblocks.h"
#include "io/nameinterner.h"
#include "io/readwarnings.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bs::io {

/// A time in microseconds split into whole and fractional parts, so a 16-digit timestamp keeps
/// its sub-microsecond digits when made relative to the trace's origin.
struct Micros
{
    std::int64_t whole = 0;
    double fraction = 0.0;
};

/// Parses a JSON number of microseconds ("1695835542514261", "4203669603018.756"); nullopt
/// for anything that is not a finite number.
std::optional<Micros> parseMicros(std::string_view text);

/// A process or thread id as written: a number, or a string ("Spans") mapped to a stable id.
struct RawId
{
    std::int64_t number = 0;
    std::string text; ///< The id when it was written as a string.
    bool isText = false;
    bool present = false;
};

/// One trace event as read, before it is normalised. Reused from event to event (clear() keeps
/// the strings' capacity, so reading does not allocate per event).
struct RawEvent
{
    char ph = 0;
    std::string cat;
    std::string name;
    RawId pid, tid;
    std::optional<Micros> ts, dur;
    std::int64_t id = -1;
    std::int64_t correlation = -1, externalId = -1, device = -1, stream = -1;
    std::string argName; ///< args.name / args.labels, for metadata events.

    void clear();
};

/// Turns raw Chrome/Kineto trace events into compact KernelEvents: normalises categories over
/// the Kineto generations, pairs B/E events per thread, interns names, maps string and
/// out-of-range ids, keeps process/thread names as metadata and counts what it skips.
class TraceEventBuilder
{
public:
    /// `currentLine` gives the line of the event being added, for warnings.
    TraceEventBuilder(data::KernelTrace& trace, ReadWarnings& warnings,
                      std::function<std::int64_t()> currentLine);

    enum class Added
    {
        Ok,
        NegativeDuration, ///< A complete event with dur < 0: the caller reports an Error.
        OutOfMemory,
    };
    /// Adds one event (or records why it was skipped as a warning).
    Added add(const RawEvent& raw);
    /// Closes the trace: unmatched B events become a warning; events move into the trace,
    /// with times relative to the earliest event.
    void finish();
    std::size_t eventCount() const { return m_events.size(); }

private:
    data::EventCategory category(std::string_view cat, char ph);
    /// The category, with the event's name where it decides (ProfilerStep#N as an operator).
    data::EventCategory category(const RawEvent& raw);
    std::uint32_t intern(std::string_view name);
    std::int32_t mapId(const RawId& id);
    double relativeS(const Micros& t);
    bool emit(const RawEvent& raw, data::EventPhase phase, std::uint32_t nameId,
              data::EventCategory category, double startS, double durationS);
    void metadataEvent(const RawEvent& raw);
    Added beginEnd(const RawEvent& raw, double startS);
    void skip(const std::string& kind, const std::string& message);

    struct Open
    {
        double startS;
        std::uint32_t nameId;
        data::EventCategory category;
        std::int64_t correlation, externalId, device, stream;
    };

    data::KernelTrace& m_trace;
    ReadWarnings& m_warnings;
    std::function<std::int64_t()> m_currentLine;
    EventBlocks m_events;
    NameInterner m_names;
    std::vector<std::pair<std::string, data::EventCategory>> m_categories;
    std::map<std::int64_t, std::int32_t> m_bigIds;
    std::map<std::string, std::int32_t, std::less<>> m_textIds;
    std::map<std::pair<std::int32_t, std::int32_t>, std::vector<Open>> m_open;
    std::optional<Micros> m_origin;
    double m_minStartS = 0.0;
    std::int32_t m_nextSyntheticId = -2;
};

} // namespace bs::io
