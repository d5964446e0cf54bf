#pragma once

#include <string>

namespace bs {

/// The machine a report was generated on, for its provenance: "name (Linux 6.1.0 x86_64,
/// 16 logical CPUs)". Simulation results do not depend on it (scenarios are bit-identical
/// across machines); it tells a reviewer where to look when a rerun disagrees.
std::string hostDescription();

} // namespace bs
