#include "import/columnmappingdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace bs::widgets {

namespace {
QString q(const std::string& text)
{
    return QString::fromStdString(text);
}
} // namespace

ColumnMappingDialog::ColumnMappingDialog(const QString& fileName, io::CsvPreview preview,
                                         io::MappingTarget target, const io::ColumnMapping& initial,
                                         QWidget* parent)
    : QDialog(parent)
    , m_preview(std::move(preview))
    , m_target(target)
    , m_status(new QLabel(this))
{
    setWindowTitle(tr("Column mapping — %1").arg(fileName));
    auto* intro = new QLabel(tr("Which column holds what, and in which unit? BatchScope guessed "
                                "from the header names and unit suffixes; check before importing."),
                             this);
    intro->setWordWrap(true);

    const auto& fields = io::mappingFields(target);
    auto* table = new QTableWidget(int(fields.size()), 3, this);
    table->setHorizontalHeaderLabels({tr("Field"), tr("Column"), tr("Unit")});
    table->verticalHeader()->hide();
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(true);
    for (int row = 0; row < int(fields.size()); ++row) {
        const io::MappingField& field = fields[std::size_t(row)];
        auto* name = new QTableWidgetItem(q(field.key) +
                                          (field.required ? QStringLiteral(" *") : QString()));
        name->setToolTip(q(field.description));
        name->setFlags(Qt::ItemIsEnabled);
        table->setItem(row, 0, name);
        auto* column = new QComboBox(table);
        column->addItem(tr("(not in file)"), QString());
        for (const auto& header : m_preview.headers)
            column->addItem(q(header), q(header));
        auto* unit = new QComboBox(table);
        for (const auto& u : io::unitsFor(field.dimension))
            unit->addItem(u.empty() ? tr("(none)") : q(u), q(u));
        if (const io::ColumnBinding* binding = initial.find(field.key)) {
            column->setCurrentIndex(std::max(0, column->findData(q(binding->column))));
            unit->setCurrentIndex(std::max(0, unit->findData(q(binding->unit))));
        }
        table->setCellWidget(row, 1, column);
        table->setCellWidget(row, 2, unit);
        m_columns.append(column);
        m_units.append(unit);
        connect(column, &QComboBox::currentIndexChanged, this, &ColumnMappingDialog::validate);
    }

    auto* sample =
        new QTableWidget(int(m_preview.rows.size()), int(m_preview.headers.size()), this);
    QStringList headers;
    for (const auto& h : m_preview.headers)
        headers << q(h);
    sample->setHorizontalHeaderLabels(headers);
    for (int r = 0; r < int(m_preview.rows.size()); ++r) {
        const auto& row = m_preview.rows[std::size_t(r)];
        for (int c = 0; c < int(row.size()) && c < sample->columnCount(); ++c)
            sample->setItem(r, c, new QTableWidgetItem(q(row[std::size_t(c)])));
    }
    sample->setEditTriggers(QAbstractItemView::NoEditTriggers);
    sample->setMaximumHeight(160);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(table, 1);
    layout->addWidget(new QLabel(tr("First rows of the file:"), this));
    layout->addWidget(sample);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(720, 620);
    validate();
}

io::ColumnMapping ColumnMappingDialog::mapping() const
{
    io::ColumnMapping mapping;
    mapping.target = m_target;
    mapping.delimiter = m_preview.delimiter;
    const auto& fields = io::mappingFields(m_target);
    for (int i = 0; i < m_columns.size(); ++i) {
        const QString column = m_columns[i]->currentData().toString();
        if (column.isEmpty())
            continue;
        mapping.columns.push_back({fields[std::size_t(i)].key, column.toStdString(),
                                   m_units[i]->currentData().toString().toStdString()});
    }
    return mapping;
}

void ColumnMappingDialog::setBinding(const QString& field, const QString& column,
                                     const QString& unit)
{
    const auto& fields = io::mappingFields(m_target);
    for (int i = 0; i < m_columns.size(); ++i) {
        if (q(fields[std::size_t(i)].key) != field)
            continue;
        m_columns[i]->setCurrentIndex(std::max(0, m_columns[i]->findData(column)));
        m_units[i]->setCurrentIndex(std::max(0, m_units[i]->findData(unit)));
    }
    validate();
}

void ColumnMappingDialog::validate()
{
    QStringList missing;
    const auto& fields = io::mappingFields(m_target);
    for (int i = 0; i < m_columns.size(); ++i) {
        if (fields[std::size_t(i)].required && m_columns[i]->currentData().toString().isEmpty())
            missing << q(fields[std::size_t(i)].key);
    }
    m_ok->setEnabled(missing.isEmpty());
    m_status->setText(missing.isEmpty()
                          ? tr("Every required field has a column.")
                          : tr("Still needed: %1").arg(missing.join(QStringLiteral(", "))));
}

} // namespace bs::widgets
