#include "renderhooks.h"

namespace bs::cli {

RenderHooks& renderHooks()
{
    static RenderHooks hooks;
    return hooks;
}

} // namespace bs::cli
