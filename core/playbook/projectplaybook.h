#pragma once

#include "data/project.h"
#include "playbook/memo.h"
#include "playbook/playbookstate.h"
#include "util/expected.h"

#include <string>

namespace bs::playbook {

/// The playbook's part of a project file: the user's state ("playbook" section) and the memo
/// ("memo" section). Both sections were opaque JSON objects before the playbook existed; an
/// empty object still reads as the default state and the blank memo, so older projects open
/// unchanged.
struct StoredPlaybook
{
    PlaybookState state;
    Memo memo;
};

/// Validates and reads both sections; errors name the project file and the key
/// ("demo.bsproj: memo.decision: unknown value ...").
Expected<StoredPlaybook> readStoredPlaybook(const data::Project& project,
                                            const std::string& path = {});

/// Writes both sections into the project (saved with io::saveProject).
void storePlaybook(data::Project& project, const PlaybookState& state, const Memo& memo);

} // namespace bs::playbook
