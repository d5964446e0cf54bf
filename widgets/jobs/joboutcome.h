#pragma once

#include "util/expected.h"

#include <QString>

#include <memory>

namespace bs::widgets {

/// What a background job hands to the GUI thread: the shared immutable result, or the error
/// text. Results are shared as shared_ptr<const T> (ARCHITECTURE.md), and moving a large
/// Expected through std::function trips GCC 12's maybe-uninitialized analysis.
template <typename T>
struct JobOutcome
{
    std::shared_ptr<const T> value;
    QString error;

    static JobOutcome from(Expected<T> result)
    {
        JobOutcome outcome;
        if (result)
            outcome.value = std::make_shared<const T>(std::move(*result));
        else
            outcome.error = QString::fromStdString(result.error().toString());
        return outcome;
    }
};

} // namespace bs::widgets
