#pragma once

#include <map>
#include <string>
#include <vector>

namespace bs::data {

/// What a measurement was run with: the playbook's step 1 ("freeze workload seed, model revision
/// and execution environment") compares these between a baseline and a candidate.
struct RunTags
{
    std::string workloadSeed;
    std::string modelRevision;
    std::string compiler;
    std::string firmware;
    std::string runtime;
    std::string hardware;
    std::map<std::string, std::string> extra; ///< Free key/values (driver, clocks, ...).

    friend bool operator==(const RunTags&, const RunTags&) = default;
};

/// One tag, named as in the project file ("workload_seed", ...), with its value on each side.
struct RunTagDifference
{
    std::string key;
    std::string baseline;
    std::string candidate;
};

/// Every tag whose value differs between two runs, the fixed tags first, then `extra` keys in
/// alphabetical order. An empty value on one side counts as a difference (unknown is not equal).
std::vector<RunTagDifference> differingTags(const RunTags& baseline, const RunTags& candidate);

} // namespace bs::data
