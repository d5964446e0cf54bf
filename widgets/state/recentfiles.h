#pragma once

#include <QStringList>

namespace bs::widgets {

/// The "Open Recent" list: most recent first, absolute paths, no duplicates, at most `capacity`
/// entries, and files that no longer exist are dropped when the list is read.
class RecentFiles
{
public:
    explicit RecentFiles(QStringList paths = {}, int capacity = 10);

    /// Moves `path` (made absolute and clean) to the front.
    void add(const QString& path);
    void remove(const QString& path);
    void clear() { m_paths.clear(); }

    /// The entries whose files still exist (missing ones are forgotten as a side effect).
    QStringList existing();
    /// All entries as stored, for saving.
    const QStringList& paths() const { return m_paths; }
    int capacity() const { return m_capacity; }

private:
    static QString normalised(const QString& path);

    QStringList m_paths;
    int m_capacity;
};

} // namespace bs::widgets
