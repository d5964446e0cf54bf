#pragma once

#include <QTreeWidget>

#include <nlohmann/json.hpp>

namespace bs::widgets {

/// Read-only tree of a JSON value (key, value), for showing scenario and model inputs exactly
/// as they will be saved and re-run.
class JsonTreeView : public QTreeWidget
{
    Q_OBJECT
public:
    explicit JsonTreeView(QWidget* parent = nullptr);
    void setJson(const nlohmann::json& value, const QString& rootLabel);

private:
    void addChildren(QTreeWidgetItem* parent, const nlohmann::json& value);
};

} // namespace bs::widgets
