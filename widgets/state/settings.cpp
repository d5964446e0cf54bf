#include "state/settings.h"

#include <QDir>

namespace bs::widgets {

namespace Keys {
constexpr auto kRecentFiles = "files/recent";
constexpr auto kLastDirectory = "files/lastDirectory";
constexpr auto kGeometry = "window/geometry";
constexpr auto kState = "window/state";
constexpr auto kStateVersion = "window/stateVersion";
constexpr auto kLargeFont = "view/largeFontMode";
constexpr auto kPresetFolders = "model/userPresetFolders";
} // namespace Keys

namespace {
QString key(const char* name)
{
    return QString::fromLatin1(name);
}
} // namespace

Settings::Settings() = default;

Settings::Settings(const QString& iniPath)
    : m_settings(iniPath, QSettings::IniFormat)
{}

QStringList Settings::recentFiles() const
{
    return m_settings.value(key(Keys::kRecentFiles)).toStringList();
}

void Settings::setRecentFiles(const QStringList& paths)
{
    m_settings.setValue(key(Keys::kRecentFiles), paths);
}

QByteArray Settings::windowGeometry() const
{
    return m_settings.value(key(Keys::kGeometry)).toByteArray();
}

void Settings::setWindowGeometry(const QByteArray& geometry)
{
    m_settings.setValue(key(Keys::kGeometry), geometry);
}

QByteArray Settings::windowState() const
{
    if (m_settings.value(key(Keys::kStateVersion), 0).toInt() != kWindowStateVersion)
        return {};
    return m_settings.value(key(Keys::kState)).toByteArray();
}

void Settings::setWindowState(const QByteArray& state)
{
    m_settings.setValue(key(Keys::kState), state);
    m_settings.setValue(key(Keys::kStateVersion), kWindowStateVersion);
}

QString Settings::lastDirectory() const
{
    return m_settings.value(key(Keys::kLastDirectory), QDir::homePath()).toString();
}

void Settings::setLastDirectory(const QString& directory)
{
    m_settings.setValue(key(Keys::kLastDirectory), directory);
}

bool Settings::largeFontMode() const
{
    return m_settings.value(key(Keys::kLargeFont), false).toBool();
}

void Settings::setLargeFontMode(bool on)
{
    m_settings.setValue(key(Keys::kLargeFont), on);
}

QStringList Settings::userPresetFolders() const
{
    return m_settings.value(key(Keys::kPresetFolders)).toStringList();
}

void Settings::setUserPresetFolders(const QStringList& folders)
{
    m_settings.setValue(key(Keys::kPresetFolders), folders);
}

} // namespace bs::widgets
