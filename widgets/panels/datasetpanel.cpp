#include "panels/datasetpanel.h"

#include "document/projectdocument.h"
#include "models/datasetlistmodel.h"
#include "panels/columnfitter.h"
#include "panels/flowlayout.h"

#include <QComboBox>
#include <QDesktopServices>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QUrl>
#include <QVBoxLayout>

namespace bs::widgets {

namespace {

const data::Dataset* findDataset(const ProjectDocument* document, const QString& id)
{
    return document->project().findDataset(id.toStdString());
}

QString formatBytes(std::uint64_t bytes)
{
    return QLocale().formattedDataSize(qint64(bytes));
}

/// "key=value; key=value" for the free tags.
QString extraToText(const std::map<std::string, std::string>& extra)
{
    QStringList parts;
    for (const auto& [k, v] : extra)
        parts << QString::fromStdString(k) + QLatin1Char('=') + QString::fromStdString(v);
    return parts.join(QStringLiteral("; "));
}

std::map<std::string, std::string> extraFromText(const QString& text)
{
    std::map<std::string, std::string> extra;
    const auto parts = text.split(QLatin1Char(';'), Qt::SkipEmptyParts);
    for (const QString& part : parts) {
        const qsizetype eq = part.indexOf(QLatin1Char('='));
        if (eq <= 0)
            continue;
        extra[part.left(eq).trimmed().toStdString()] = part.mid(eq + 1).trimmed().toStdString();
    }
    return extra;
}

} // namespace

void DatasetPanel::showColumnsThatFitTheDock()
{
    // The dock is a side panel (300-400 px): names wrap rather than being cut (ColumnFitter);
    // reader and warnings are in the provenance pane below, so their columns start hidden and
    // the header's context menu shows them.
    m_view->setColumnHidden(DatasetListModel::ReaderColumn, true);
    m_view->setColumnHidden(DatasetListModel::WarningsColumn, true);
    ColumnFitter* fitter = ColumnFitter::attach(m_view);
    QHeaderView* header = m_view->horizontalHeader();
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(header, &QHeaderView::customContextMenuRequested, this,
            [this, fitter](const QPoint& at) {
                QMenu menu(this);
                for (int column = 0; column < DatasetListModel::ColumnCount; ++column) {
                    if (column == DatasetListModel::NameColumn)
                        continue;
                    QAction* action = menu.addAction(
                        m_model->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString());
                    action->setCheckable(true);
                    action->setChecked(!m_view->isColumnHidden(column));
                    connect(action, &QAction::toggled, this, [this, fitter, column](bool shown) {
                        m_view->setColumnHidden(column, !shown);
                        fitter->refit();
                    });
                }
                menu.exec(m_view->horizontalHeader()->mapToGlobal(at));
            });
}

DatasetPanel::DatasetPanel(ProjectDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_model(new DatasetListModel(document, this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTableView(this))
    , m_role(new QComboBox(this))
    , m_remove(new QPushButton(tr("Remove"), this))
    , m_reveal(new QPushButton(tr("Reveal file"), this))
    , m_provenance(new QPlainTextEdit(this))
    , m_extraTags(new QLineEdit(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(DatasetListModel::SortRole);
    m_view->setModel(m_proxy);
    m_view->verticalHeader()->hide();
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setShowGrid(false);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder);
    m_view->setAlternatingRowColors(true);
    showColumnsThatFitTheDock();
    m_view->setEditTriggers(QAbstractItemView::EditKeyPressed | QAbstractItemView::DoubleClicked);

    auto* importButton = new QPushButton(tr("Import…"), this);
    m_role->addItem(tr("No role"), int(data::DatasetRole::None));
    m_role->addItem(tr("Baseline"), int(data::DatasetRole::Baseline));
    m_role->addItem(tr("Candidate"), int(data::DatasetRole::Candidate));
    m_role->setToolTip(
        tr("Baseline and candidate are compared by the sweep view and the playbook"));
    // The buttons wrap onto a second row in a narrow dock (projector fonts) instead of
    // squeezing the role picker until "Baseline" is cut.
    auto* buttons = new FlowLayout(nullptr, 6, 4);
    buttons->addWidget(importButton);
    buttons->addWidget(m_role);
    buttons->addWidget(m_reveal);
    buttons->addWidget(m_remove);

    m_provenance->setReadOnly(true);
    m_provenance->setPlaceholderText(tr("Select a dataset to see where it came from."));
    m_provenance->setMaximumBlockCount(500);

    auto* tagsBox = new QWidget(this);
    auto* form = new QFormLayout(tagsBox);
    m_tagsForm = form;
    form->setContentsMargins(0, 0, 0, 0);
    const QStringList labels = {tr("Workload seed"), tr("Model revision"), tr("Compiler"),
                                tr("Firmware"),      tr("Runtime"),        tr("Hardware")};
    for (const QString& label : labels) {
        auto* edit = new QLineEdit(tagsBox);
        m_tagEdits.append(edit);
        form->addRow(label, edit);
        connect(edit, &QLineEdit::editingFinished, this, &DatasetPanel::applyTags);
    }
    m_extraTags->setPlaceholderText(tr("driver=535.104; clocks=locked"));
    form->addRow(tr("Other tags"), m_extraTags);
    connect(m_extraTags, &QLineEdit::editingFinished, this, &DatasetPanel::applyTags);

    auto* details = new QWidget(this);
    auto* detailsLayout = new QVBoxLayout(details);
    detailsLayout->setContentsMargins(0, 0, 0, 0);
    detailsLayout->addWidget(m_provenance, 1);
    detailsLayout->addWidget(tagsBox);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_view);
    splitter->addWidget(details);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(buttons);
    layout->addWidget(splitter, 1);

    connect(importButton, &QPushButton::clicked, this, &DatasetPanel::importRequested);
    connect(m_remove, &QPushButton::clicked, this, &DatasetPanel::removeCurrent);
    connect(m_reveal, &QPushButton::clicked, this, &DatasetPanel::revealCurrent);
    connect(m_role, &QComboBox::activated, this, &DatasetPanel::applyRole);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this]() {
        const QModelIndex index = m_proxy->mapToSource(m_view->currentIndex());
        m_currentId = m_model->datasetId(index.row());
        showDetails();
        Q_EMIT currentDatasetChanged(m_currentId);
    });
    // After a reset (undo, import) keep the same dataset selected when it still exists.
    connect(m_model, &QAbstractItemModel::modelReset, this, [this]() {
        const QString keep = m_currentId;
        if (!keep.isEmpty() && m_model->rowOf(keep) >= 0)
            selectDataset(keep);
        else if (m_model->rowCount() > 0)
            selectDataset(m_model->datasetId(0));
        else
            showDetails();
    });
    showDetails();
}

QString DatasetPanel::currentDatasetId() const
{
    return m_currentId;
}

void DatasetPanel::selectDataset(const QString& id)
{
    const int row = m_model->rowOf(id);
    if (row < 0)
        return;
    m_currentId = id;
    m_view->setCurrentIndex(m_proxy->mapFromSource(m_model->index(row, 0)));
    showDetails();
}

void DatasetPanel::showDetails()
{
    const data::Dataset* d = findDataset(m_document, m_currentId);
    const bool has = d != nullptr;
    m_remove->setEnabled(has);
    m_reveal->setEnabled(has && !d->provenance.path.empty());
    m_role->setEnabled(has);
    for (QLineEdit* edit : std::as_const(m_tagEdits))
        edit->setEnabled(has);
    m_extraTags->setEnabled(has);
    if (!has) {
        m_provenance->clear();
        for (QLineEdit* edit : std::as_const(m_tagEdits))
            edit->clear();
        m_extraTags->clear();
        return;
    }
    const auto& p = d->provenance;
    QStringList lines;
    lines << tr("File: %1")
                 .arg(p.path.empty() ? tr("(built into the project)")
                                     : QString::fromStdString(p.path));
    if (p.sizeBytes > 0)
        lines << tr("Size: %1").arg(formatBytes(p.sizeBytes));
    if (!p.sha256.empty())
        lines << tr("SHA-256: %1").arg(QString::fromStdString(p.sha256));
    if (!p.reader.empty())
        lines << tr("Format: %1 (reader version %2)")
                     .arg(QString::fromStdString(p.reader))
                     .arg(p.readerVersion);
    if (!p.detectedBecause.empty())
        lines << tr("Detected because: %1").arg(QString::fromStdString(p.detectedBecause));
    if (!d->isLoaded())
        lines << tr("Not loaded: the referenced file could not be read.");
    if (!p.warnings.empty()) {
        lines << tr("%n warning(s):", nullptr, int(p.warnings.size()));
        for (const auto& w : p.warnings) {
            lines << (w.line > 0
                          ? tr("  line %1: %2").arg(w.line).arg(QString::fromStdString(w.message))
                          : QStringLiteral("  ") + QString::fromStdString(w.message));
        }
    }
    m_provenance->setPlainText(lines.join(QLatin1Char('\n')));
    const std::string* values[] = {&d->tags.workloadSeed, &d->tags.modelRevision,
                                   &d->tags.compiler,     &d->tags.firmware,
                                   &d->tags.runtime,      &d->tags.hardware};
    for (int i = 0; i < m_tagEdits.size(); ++i)
        m_tagEdits[i]->setText(QString::fromStdString(*values[i]));
    m_extraTags->setText(extraToText(d->tags.extra));
    m_role->setCurrentIndex(m_role->findData(int(d->role)));
    placeTagLabels();
}

void DatasetPanel::placeTagLabels()
{
    // A tag that does not fit beside its label (a model revision in a narrow dock, projector
    // fonts) would scroll out of sight in its field: then every label goes above its field, which
    // gets the dock's whole width.
    if (!m_tagsForm || !m_tagsForm->parentWidget())
        return;
    int labelPx = 0;
    for (int row = 0; row < m_tagsForm->rowCount(); ++row)
        if (QLayoutItem* label = m_tagsForm->itemAt(row, QFormLayout::LabelRole))
            labelPx = std::max(labelPx, label->sizeHint().width());
    const int spacingPx = std::max(m_tagsForm->horizontalSpacing(), 0);
    const QMargins margins = layout() ? layout()->contentsMargins() : QMargins();
    const int besideLabelPx = width() - margins.left() - margins.right() - labelPx - spacingPx;
    bool fits = true;
    QList<QLineEdit*> edits = m_tagEdits;
    edits << m_extraTags;
    for (const QLineEdit* edit : std::as_const(edits)) {
        // The frame and the text margins of a line edit: about one average character each side.
        const int framePx = 2 * edit->fontMetrics().averageCharWidth() + 8;
        fits =
            fits && edit->fontMetrics().horizontalAdvance(edit->text()) + framePx <= besideLabelPx;
    }
    const auto policy = fits ? QFormLayout::DontWrapRows : QFormLayout::WrapAllRows;
    if (m_tagsForm->rowWrapPolicy() != policy)
        m_tagsForm->setRowWrapPolicy(policy);
}

void DatasetPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    placeTagLabels();
}

void DatasetPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        placeTagLabels();
}

void DatasetPanel::applyTags()
{
    const data::Dataset* d = findDataset(m_document, m_currentId);
    if (!d)
        return;
    data::RunTags tags;
    std::string* targets[] = {&tags.workloadSeed, &tags.modelRevision, &tags.compiler,
                              &tags.firmware,     &tags.runtime,       &tags.hardware};
    for (int i = 0; i < m_tagEdits.size(); ++i)
        *targets[i] = m_tagEdits[i]->text().trimmed().toStdString();
    tags.extra = extraFromText(m_extraTags->text());
    m_document->setDatasetTags(m_currentId, tags);
}

void DatasetPanel::applyRole(int comboIndex)
{
    m_document->setDatasetRole(m_currentId,
                               data::DatasetRole(m_role->itemData(comboIndex).toInt()));
}

void DatasetPanel::removeCurrent()
{
    m_document->removeDataset(m_currentId);
}

void DatasetPanel::revealCurrent()
{
    const data::Dataset* d = findDataset(m_document, m_currentId);
    if (!d || d->provenance.path.empty())
        return;
    const QFileInfo info(QString::fromStdString(d->provenance.path));
    QDesktopServices::openUrl(QUrl::fromLocalFile(info.absolutePath()));
}

} // namespace bs::widgets
