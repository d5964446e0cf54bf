#include "panels/jsontreeview.h"

#include <QHeaderView>

namespace bs::widgets {

JsonTreeView::JsonTreeView(QWidget* parent)
    : QTreeWidget(parent)
{
    setColumnCount(2);
    setHeaderLabels({tr("Parameter"), tr("Value")});
    header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    setUniformRowHeights(true);
}

void JsonTreeView::setJson(const nlohmann::json& value, const QString& rootLabel)
{
    clear();
    auto* root = new QTreeWidgetItem(this, {rootLabel});
    addChildren(root, value);
    expandAll();
}

void JsonTreeView::addChildren(QTreeWidgetItem* parent, const nlohmann::json& value)
{
    if (value.is_object()) {
        for (const auto& [key, child] : value.items()) {
            auto* item = new QTreeWidgetItem(parent, {QString::fromStdString(key)});
            if (child.is_structured())
                addChildren(item, child);
            else
                item->setText(1, QString::fromStdString(child.is_string() ? child.get<std::string>()
                                                                          : child.dump()));
        }
    } else if (value.is_array()) {
        for (std::size_t i = 0; i < value.size(); ++i) {
            auto* item = new QTreeWidgetItem(parent, {QStringLiteral("[%1]").arg(i)});
            if (value[i].is_structured())
                addChildren(item, value[i]);
            else
                item->setText(1, QString::fromStdString(value[i].dump()));
        }
    } else {
        parent->setText(1, QString::fromStdString(value.dump()));
    }
}

} // namespace bs::widgets
