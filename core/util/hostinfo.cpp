#include "util/hostinfo.h"

#include <thread>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/utsname.h>
#endif

namespace bs {

std::string hostDescription()
{
    const std::string cpus = std::to_string(std::thread::hardware_concurrency()) + " logical CPUs";
#if defined(__unix__) || defined(__APPLE__)
    utsname name{};
    if (uname(&name) == 0)
        return std::string(name.nodename) + " (" + name.sysname + " " + name.release + " " +
               name.machine + ", " + cpus + ")";
#endif
    return "unknown host (" + cpus + ")";
}

} // namespace bs
