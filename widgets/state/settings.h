#pragma once

#include <QByteArray>
#include <QSettings>
#include <QStringList>

namespace bs::widgets {

/// The one typed facade over QSettings: every key and its default are declared here once.
/// Window state carries a version so a layout saved by an older build with other docks is
/// ignored rather than restored wrongly.
class Settings
{
public:
    /// Bump when docks or toolbars change so stale saved layouts are not applied.
    static constexpr int kWindowStateVersion = 1;

    Settings();
    /// Uses a specific settings file (tests).
    explicit Settings(const QString& iniPath);

    QStringList recentFiles() const;
    void setRecentFiles(const QStringList& paths);

    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray& geometry);
    /// The saved dock/toolbar state, or empty when it was saved with another layout version.
    QByteArray windowState() const;
    void setWindowState(const QByteArray& state);

    QString lastDirectory() const;
    void setLastDirectory(const QString& directory);

    /// Projector mode: larger fonts and thicker lines for a design review.
    bool largeFontMode() const;
    void setLargeFontMode(bool on);

    /// Extra folders with user accelerator/workload presets.
    QStringList userPresetFolders() const;
    void setUserPresetFolders(const QStringList& folders);

    QSettings& raw() { return m_settings; }

private:
    QSettings m_settings;
};

} // namespace bs::widgets
