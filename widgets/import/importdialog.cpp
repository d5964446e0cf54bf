#include "import/importdialog.h"

#include "import/columnmappingdialog.h"
#include "io/csvpreview.h"
#include "io/readdataset.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace bs::widgets {

namespace {

enum Column
{
    FileColumn,
    DetectedColumn,
    FormatColumn,
    MappingColumn,
    RoleColumn,
    ColumnCount
};

io::MappingTarget targetOf(const QString& name)
{
    if (name == QLatin1String("request_trace"))
        return io::MappingTarget::RequestTrace;
    if (name == QLatin1String("power_series"))
        return io::MappingTarget::PowerSeries;
    return io::MappingTarget::Sweep;
}

} // namespace

QStringList distinguishingNames(const QStringList& paths)
{
    QList<QStringList> parts;
    for (const QString& path : paths)
        parts.append(QDir::fromNativeSeparators(path).split(QLatin1Char('/'), Qt::SkipEmptyParts));
    QStringList names;
    for (int i = 0; i < parts.size(); ++i) {
        // The shortest tail of the path (file name first) that no other path ends with.
        const QStringList& mine = parts[i];
        qsizetype depth = 1;
        for (; depth < mine.size(); ++depth) {
            const bool clash = std::any_of(parts.begin(), parts.end(), [&](const QStringList& o) {
                return &o != &mine && o.size() >= depth &&
                       o.mid(o.size() - depth) == mine.mid(mine.size() - depth);
            });
            if (!clash)
                break;
        }
        names.append(mine.mid(mine.size() - depth).join(QLatin1Char('/')));
    }
    return names;
}

QString importFileFilter()
{
    return QObject::tr(
        "Measurements (*.csv *.txt *.log *.json *.jsonl *.gz *.ckpt);;All files (*)");
}

ImportDialog::ImportDialog(const QStringList& paths, QWidget* parent)
    : QDialog(parent)
    , m_table(new QTableWidget(0, ColumnCount, this))
    , m_status(new QLabel(this))
{
    setWindowTitle(tr("Import measurements"));
    m_table->setHorizontalHeaderLabels(
        {tr("File"), tr("Detected as"), tr("Read as"), tr("Columns"), tr("Role")});
    m_table->verticalHeader()->hide();
    // The file column fits its names (the distinguishing parts of the paths); if the dialog
    // is too narrow, the middle of a name is elided, never the end that tells files apart.
    m_table->horizontalHeader()->setSectionResizeMode(FileColumn, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(DetectedColumn, QHeaderView::Stretch);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->setWordWrap(true);
    auto* add = new QPushButton(tr("Add files…"), this);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("Import"));
    buttons->addButton(add, QDialogButtonBox::ActionRole);
    connect(add, &QPushButton::clicked, this, &ImportDialog::chooseMoreFiles);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    m_status->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(980, 420);
    addFiles(paths);
}

void ImportDialog::chooseMoreFiles()
{
    const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Import measurements"),
                                                            QString(), importFileFilter());
    addFiles(paths);
}

void ImportDialog::addFiles(const QStringList& paths)
{
    for (const QString& path : paths) {
        Entry entry;
        entry.request.path = QFileInfo(path).absoluteFilePath();
        auto detection = io::detectFormat(entry.request.path.toStdString());
        if (detection) {
            entry.detectedReader = QString::fromStdString(detection->reader);
            entry.detectedText = entry.detectedReader + QStringLiteral(": ") +
                                 QString::fromStdString(detection->reason);
        } else {
            entry.detectedText = QString::fromStdString(detection.error().toString());
        }
        m_entries.append(entry);
    }
    rebuildTable();
}

QString ImportDialog::effectiveReader(const Entry& entry) const
{
    return entry.request.format.isEmpty() ? entry.detectedReader : entry.request.format;
}

void ImportDialog::rebuildTable()
{
    m_table->setRowCount(int(m_entries.size()));
    const auto readers = io::availableReaders();
    QStringList paths;
    for (const Entry& entry : std::as_const(m_entries))
        paths.append(entry.request.path);
    const QStringList names = distinguishingNames(paths);
    for (int row = 0; row < m_entries.size(); ++row) {
        const Entry& entry = m_entries[row];
        auto* file = new QTableWidgetItem(names[row]);
        file->setToolTip(entry.request.path);
        m_table->setItem(row, FileColumn, file);
        auto* detected = new QTableWidgetItem(entry.detectedText);
        detected->setToolTip(entry.detectedText);
        m_table->setItem(row, DetectedColumn, detected);

        auto* format = new QComboBox(m_table);
        format->addItem(tr("Detected"), QString());
        for (const auto& reader : readers)
            format->addItem(QString::fromStdString(reader.name),
                            QString::fromStdString(reader.name));
        format->setCurrentIndex(std::max(0, format->findData(entry.request.format)));
        connect(format, &QComboBox::activated, this,
                [this, row, format]() { setFormat(row, format->currentData().toString()); });
        m_table->setCellWidget(row, FormatColumn, format);

        auto* mapping = new QPushButton(tr("Columns…"), m_table);
        mapping->setEnabled(readerNeedsMapping(effectiveReader(entry)));
        connect(mapping, &QPushButton::clicked, this, [this, row]() { editMapping(row); });
        m_table->setCellWidget(row, MappingColumn, mapping);

        auto* role = new QComboBox(m_table);
        role->addItem(tr("No role"), int(data::DatasetRole::None));
        role->addItem(tr("Baseline"), int(data::DatasetRole::Baseline));
        role->addItem(tr("Candidate"), int(data::DatasetRole::Candidate));
        role->setCurrentIndex(role->findData(int(entry.request.role)));
        connect(role, &QComboBox::activated, this, [this, row, role]() {
            m_entries[row].request.role = data::DatasetRole(role->currentData().toInt());
        });
        m_table->setCellWidget(row, RoleColumn, role);
    }
    m_table->resizeRowsToContents();
    updateOk();
}

void ImportDialog::setFormat(int row, const QString& reader)
{
    if (row < 0 || row >= m_entries.size())
        return;
    m_entries[row].request.format = reader;
    m_entries[row].request.readerOptions = nlohmann::json::object();
    m_entries[row].mapped = false;
    rebuildTable();
}

bool ImportDialog::editMapping(int row)
{
    if (row < 0 || row >= m_entries.size())
        return false;
    Entry& entry = m_entries[row];
    const QString reader = effectiveReader(entry);
    const QString targetName = mappingTargetForReader(reader);
    if (targetName.isEmpty())
        return false;
    auto preview = io::previewCsv(entry.request.path.toStdString());
    if (!preview) {
        m_status->setText(QString::fromStdString(preview.error().toString()));
        return false;
    }
    const io::MappingTarget target = targetOf(targetName);
    io::ColumnMapping initial;
    auto saved = io::columnMappingFromJson(entry.request.readerOptions, target, {});
    if (entry.mapped && saved) {
        initial = *saved;
    } else {
        const std::vector<std::string> firstRow =
            preview->rows.empty() ? std::vector<std::string>{} : preview->rows.front();
        initial = io::suggestColumnMapping(preview->headers, firstRow, target, preview->delimiter);
    }
    ColumnMappingDialog dialog(QFileInfo(entry.request.path).fileName(), *preview, target, initial,
                               this);
    if (dialog.exec() != QDialog::Accepted)
        return false;
    // The format stays as the user left it: a mapping for the detected reader does not make
    // the reader the user's choice (the provenance says why it was detected).
    entry.request.readerOptions = dialog.readerOptions();
    entry.mapped = true;
    updateOk();
    return true;
}

void ImportDialog::updateOk()
{
    QStringList problems;
    for (const Entry& entry : std::as_const(m_entries)) {
        const QString reader = effectiveReader(entry);
        const QString name = QFileInfo(entry.request.path).fileName();
        if (reader.isEmpty())
            problems << tr("%1: format not recognised; choose one under “Read as”.").arg(name);
        else if (readerNeedsMapping(reader) && !entry.mapped)
            problems << tr("%1: say which column is which (Columns…).").arg(name);
    }
    m_ok->setEnabled(!m_entries.isEmpty() && problems.isEmpty());
    m_status->setText(problems.join(QLatin1Char('\n')));
}

QList<ImportRequest> ImportDialog::requests() const
{
    QList<ImportRequest> out;
    // A row left at "Detected" keeps an empty format: the reader detects again when it reads
    // (same bytes, same answer) and the provenance records why, not "chosen by the user".
    for (const Entry& entry : m_entries)
        out.append(entry.request);
    return out;
}

int ImportDialog::fileCount() const
{
    return int(m_entries.size());
}

QString ImportDialog::detectionText(int row) const
{
    return row >= 0 && row < m_entries.size() ? m_entries[row].detectedText : QString();
}

} // namespace bs::widgets
