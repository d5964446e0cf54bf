#pragma once

#include <atomic>
#include <memory>

namespace bs {

/// A shared flag a long job checks in its loops. Copies share the flag; cancel() from any
/// thread makes every copy report isCancelled(). A default token can be cancelled too.
class CancelToken
{
public:
    CancelToken()
        : m_flag(std::make_shared<std::atomic<bool>>(false))
    {}

    void cancel() const { m_flag->store(true, std::memory_order_relaxed); }
    bool isCancelled() const { return m_flag->load(std::memory_order_relaxed); }

private:
    std::shared_ptr<std::atomic<bool>> m_flag;
};

} // namespace bs
