#include "io/utf8text.h"

#include <map>

namespace bs::io {

namespace {

/// Length of the well-formed UTF-8 sequence at text[i], or 0 when it is ill-formed.
std::size_t sequenceLength(std::string_view text, std::size_t i)
{
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char c = byte(i);
    if (c < 0x80)
        return 1;
    std::size_t length = 0;
    unsigned char lo = 0x80, hi = 0xbf; // allowed range of the second byte
    if (c >= 0xc2 && c <= 0xdf) {
        length = 2;
    } else if (c >= 0xe0 && c <= 0xef) {
        length = 3;
        lo = c == 0xe0 ? 0xa0 : 0x80;
        hi = c == 0xed ? 0x9f : 0xbf;
    } else if (c >= 0xf0 && c <= 0xf4) {
        length = 4;
        lo = c == 0xf0 ? 0x90 : 0x80;
        hi = c == 0xf4 ? 0x8f : 0xbf;
    } else {
        return 0;
    }
    if (i + length > text.size() || byte(i + 1) < lo || byte(i + 1) > hi)
        return 0;
    for (std::size_t k = 2; k < length; ++k) {
        if (byte(i + k) < 0x80 || byte(i + k) > 0xbf)
            return 0;
    }
    return length;
}

bool fix(std::string& text)
{
    if (isValidUtf8(text))
        return false;
    text = sanitizedUtf8(text);
    return true;
}

bool fix(std::map<std::string, std::string>& map)
{
    bool changed = false;
    std::map<std::string, std::string> fixed;
    for (const auto& [constKey, constValue] : map) {
        std::string key = constKey;
        std::string value = constValue;
        changed |= fix(key);
        changed |= fix(value);
        fixed.emplace(std::move(key), std::move(value));
    }
    if (changed)
        map = std::move(fixed);
    return changed;
}

bool fix(std::vector<std::string>& texts)
{
    bool changed = false;
    for (auto& t : texts)
        changed |= fix(t);
    return changed;
}

bool fix(data::RunTags& t)
{
    bool changed = false;
    for (auto* s :
         {&t.workloadSeed, &t.modelRevision, &t.compiler, &t.firmware, &t.runtime, &t.hardware})
        changed |= fix(*s);
    return fix(t.extra) || changed;
}

bool fix(data::SweepTable& t)
{
    // Every part is fixed, so no short-circuit `||` here.
    bool changed = fix(t.name);
    changed |= fix(t.metadata);
    changed |= fix(t.tags);
    for (auto& p : t.points)
        changed |= fix(p.series);
    return changed;
}

bool fix(data::RequestTrace& t)
{
    bool changed = fix(t.name);
    changed |= fix(t.streamNames);
    changed |= fix(t.tags);
    return changed;
}

bool fix(data::KernelTrace& t)
{
    bool changed = fix(t.name);
    changed |= fix(t.names);
    changed |= fix(t.metadata);
    changed |= fix(t.tags);
    return changed;
}

bool fix(data::PowerSeries& s)
{
    bool changed = fix(s.name);
    changed |= fix(s.channelNames);
    changed |= fix(s.tags);
    return changed;
}

bool valid(const std::string& text)
{
    return isValidUtf8(text);
}

bool valid(const std::map<std::string, std::string>& map)
{
    for (const auto& [key, value] : map) {
        if (!valid(key) || !valid(value))
            return false;
    }
    return true;
}

bool valid(const std::vector<std::string>& texts)
{
    for (const auto& t : texts) {
        if (!valid(t))
            return false;
    }
    return true;
}

bool valid(const data::RunTags& t)
{
    return valid(t.workloadSeed) && valid(t.modelRevision) && valid(t.compiler) &&
           valid(t.firmware) && valid(t.runtime) && valid(t.hardware) && valid(t.extra);
}

bool valid(const data::SweepTable& t)
{
    for (const auto& p : t.points) {
        if (!valid(p.series))
            return false;
    }
    return valid(t.name) && valid(t.metadata) && valid(t.tags);
}

bool valid(const data::RequestTrace& t)
{
    return valid(t.name) && valid(t.streamNames) && valid(t.tags);
}

bool valid(const data::KernelTrace& t)
{
    return valid(t.name) && valid(t.names) && valid(t.metadata) && valid(t.tags);
}

bool valid(const data::PowerSeries& s)
{
    return valid(s.name) && valid(s.channelNames) && valid(s.tags);
}

/// Checks shared, immutable content without copying it; copies and fixes it only when a
/// string is ill-formed (rare: a file in another encoding).
template <typename T>
void fixShared(data::Dataset& dataset, const std::shared_ptr<const T>& content)
{
    if (valid(*content))
        return;
    T copy = *content;
    fix(copy);
    dataset.setContent(std::make_shared<const T>(std::move(copy)));
}

} // namespace

bool isValidUtf8(std::string_view text)
{
    for (std::size_t i = 0; i < text.size();) {
        if (static_cast<unsigned char>(text[i]) < 0x80) {
            ++i;
            continue;
        }
        const std::size_t length = sequenceLength(text, i);
        if (length == 0)
            return false;
        i += length;
    }
    return true;
}

std::string sanitizedUtf8(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t length = sequenceLength(text, i);
        if (length == 0) {
            out += "\xef\xbf\xbd"; // U+FFFD REPLACEMENT CHARACTER
            ++i;
        } else {
            out.append(text.substr(i, length));
            i += length;
        }
    }
    return out;
}

void sanitizeDatasetText(data::Dataset& dataset)
{
    fix(dataset.name);
    auto& p = dataset.provenance;
    fix(p.path);
    fix(p.detectedBecause);
    for (auto& w : p.warnings)
        fix(w.message);
    fix(dataset.readerOptionsJson);
    if (auto t = dataset.sweep())
        fixShared(dataset, t);
    else if (auto r = dataset.requestTrace())
        fixShared(dataset, r);
    else if (auto k = dataset.kernelTrace())
        fixShared(dataset, k);
    else if (auto s = dataset.powerSeries())
        fixShared(dataset, s);
}

} // namespace bs::io
