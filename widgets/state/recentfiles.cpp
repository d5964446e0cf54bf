#include "state/recentfiles.h"

#include <QDir>
#include <QFileInfo>

namespace bs::widgets {

RecentFiles::RecentFiles(QStringList paths, int capacity)
    : m_capacity(capacity)
{
    // Add oldest first so that the given order (most recent first) is kept after dedupe.
    for (auto it = paths.crbegin(); it != paths.crend(); ++it)
        add(*it);
}

QString RecentFiles::normalised(const QString& path)
{
    return QDir::cleanPath(QFileInfo(path).absoluteFilePath());
}

void RecentFiles::add(const QString& path)
{
    if (path.isEmpty())
        return;
    const QString clean = normalised(path);
    m_paths.removeAll(clean);
    m_paths.prepend(clean);
    while (m_paths.size() > m_capacity)
        m_paths.removeLast();
}

void RecentFiles::remove(const QString& path)
{
    m_paths.removeAll(normalised(path));
}

QStringList RecentFiles::existing()
{
    m_paths.erase(std::remove_if(m_paths.begin(), m_paths.end(),
                                 [](const QString& p) { return !QFileInfo::exists(p); }),
                  m_paths.end());
    return m_paths;
}

} // namespace bs::widgets
