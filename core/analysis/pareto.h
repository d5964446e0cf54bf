#pragma once

#include <cstddef>
#include <vector>

namespace bs::analysis {

/// The Pareto-optimal points among `points`, every objective to be minimised (negate one that
/// is to be maximised). A point is optimal when no other point is at least as good in every
/// objective and strictly better in one; equal points are all kept. Points with a NaN
/// objective take no part. Returns indices into `points`, ascending.
///
/// Sort-and-sweep: points in lexicographic order can only be dominated by earlier ones, and
/// only the front found so far needs checking, so the cost is O(n log n + n f) for a front of
/// f points.
std::vector<std::size_t> paretoFront(const std::vector<std::vector<double>>& points);

/// Whether a dominates b (all objectives <=, one <).
bool dominates(const std::vector<double>& a, const std::vector<double>& b);

} // namespace bs::analysis
