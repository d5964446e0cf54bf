#pragma once

#include <cstddef>

namespace bs::io {

/// Asks the OS to back the 2 MiB-aligned interior of [data, data + bytes) with huge pages
/// (Linux transparent huge pages in "madvise" mode). Readers call it on the large column
/// vectors they fill once: touching fresh memory page by page costs a fault per 4 KiB, which on
/// some virtual machines is most of a CSV read. A no-op elsewhere and for small ranges.
void adviseHugePages(void* data, std::size_t bytes);

/// Same, for the unused capacity of a vector that is about to be filled.
template <typename Vector>
void adviseHugePagesFor(Vector& vector)
{
    adviseHugePages(vector.data(), vector.capacity() * sizeof(typename Vector::value_type));
}

} // namespace bs::io
