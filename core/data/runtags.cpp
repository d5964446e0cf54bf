#include "data/runtags.h"

#include <set>

namespace bs::data {

std::vector<RunTagDifference> differingTags(const RunTags& baseline, const RunTags& candidate)
{
    std::vector<RunTagDifference> out;
    auto compare = [&out](const char* key, const std::string& a, const std::string& b) {
        if (a != b || a.empty())
            out.push_back({key, a, b});
    };
    compare("workload_seed", baseline.workloadSeed, candidate.workloadSeed);
    compare("model_revision", baseline.modelRevision, candidate.modelRevision);
    compare("compiler", baseline.compiler, candidate.compiler);
    compare("firmware", baseline.firmware, candidate.firmware);
    compare("runtime", baseline.runtime, candidate.runtime);
    compare("hardware", baseline.hardware, candidate.hardware);

    std::set<std::string> keys;
    for (const auto& [key, value] : baseline.extra)
        keys.insert(key);
    for (const auto& [key, value] : candidate.extra)
        keys.insert(key);
    for (const auto& key : keys) {
        const auto a = baseline.extra.find(key);
        const auto b = candidate.extra.find(key);
        const std::string va = a == baseline.extra.end() ? std::string() : a->second;
        const std::string vb = b == candidate.extra.end() ? std::string() : b->second;
        if (va != vb)
            out.push_back({key, va, vb});
    }
    return out;
}

} // namespace bs::data
