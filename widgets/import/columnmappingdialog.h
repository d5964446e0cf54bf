#pragma once

#include "io/columnmapping.h"
#include "io/csvpreview.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace bs::widgets {

/// Lets the user say which CSV column is which field and in which unit, starting from
/// io::suggestColumnMapping's guess. The result is stored with the dataset so a reload reads
/// the file the same way. OK is enabled only when every required field has a column.
class ColumnMappingDialog : public QDialog
{
    Q_OBJECT
public:
    ColumnMappingDialog(const QString& fileName, io::CsvPreview preview, io::MappingTarget target,
                        const io::ColumnMapping& initial, QWidget* parent = nullptr);

    io::ColumnMapping mapping() const;
    /// The mapping as reader options JSON ({"columns": ..., "delimiter": ...}).
    nlohmann::json readerOptions() const { return io::toJson(mapping()); }

    /// For tests: choose a column (empty for none) and unit for a field.
    void setBinding(const QString& field, const QString& column, const QString& unit);

private:
    void validate();

    io::CsvPreview m_preview;
    io::MappingTarget m_target;
    QList<QComboBox*> m_columns; ///< Parallel to io::mappingFields(target).
    QList<QComboBox*> m_units;
    QLabel* m_status;
    QPushButton* m_ok = nullptr;
};

} // namespace bs::widgets
