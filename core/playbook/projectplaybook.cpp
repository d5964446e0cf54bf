#include "playbook/projectplaybook.h"

namespace bs::playbook {

Expected<StoredPlaybook> readStoredPlaybook(const data::Project& project, const std::string& path)
{
    StoredPlaybook stored;
    auto state = playbookStateFromJson(project.playbook, path);
    if (!state)
        return state.error();
    stored.state = std::move(*state);
    auto memo = memoFromJson(project.memo, path);
    if (!memo)
        return memo.error();
    stored.memo = std::move(*memo);
    return stored;
}

void storePlaybook(data::Project& project, const PlaybookState& state, const Memo& memo)
{
    project.playbook = toJson(state);
    project.memo = toJson(memo);
}

} // namespace bs::playbook
