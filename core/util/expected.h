#pragma once

#include "util/error.h"

#include <cassert>
#include <utility>
#include <variant>

namespace bs {

/// The result of an operation that can fail: either a T or an Error. Readers, models and
/// simulators return this instead of throwing, so failures are values the GUI can show inline.
template <typename T>
class [[nodiscard]] Expected
{
public:
    Expected(T value)
        : m_state(std::in_place_index<0>, std::move(value))
    {}
    Expected(Error error)
        : m_state(std::in_place_index<1>, std::move(error))
    {}

    bool hasValue() const { return m_state.index() == 0; }
    explicit operator bool() const { return hasValue(); }

    T& value() &
    {
        assert(hasValue());
        return std::get<0>(m_state);
    }
    const T& value() const&
    {
        assert(hasValue());
        return std::get<0>(m_state);
    }
    T&& value() &&
    {
        assert(hasValue());
        return std::get<0>(std::move(m_state));
    }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const Error& error() const
    {
        assert(!hasValue());
        return std::get<1>(m_state);
    }

private:
    std::variant<T, Error> m_state;
};

/// Expected<void>: success carries nothing.
template <>
class [[nodiscard]] Expected<void>
{
public:
    Expected() = default;
    Expected(Error error)
        : m_error(std::move(error))
        , m_failed(true)
    {}

    bool hasValue() const { return !m_failed; }
    explicit operator bool() const { return hasValue(); }
    const Error& error() const
    {
        assert(m_failed);
        return m_error;
    }

private:
    Error m_error;
    bool m_failed = false;
};

using Status = Expected<void>;

} // namespace bs
