#include "data/sweeptable.h"

namespace bs::data {

const char* loadAxisName(LoadAxis axis)
{
    switch (axis) {
    case LoadAxis::None:
        return "none";
    case LoadAxis::Concurrency:
        return "concurrency";
    case LoadAxis::RequestRate:
        return "request_rate";
    }
    return "none";
}

} // namespace bs::data
