#include "panels/memoeditor.h"

#include "document/projectdocument.h"

#include <QComboBox>
#include <QDate>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace bs::widgets {

namespace {
/// Merge ids for the undo stack: one per field, so typing in a field is one step.
constexpr int kMergeIdBase = 0x4d454d00; // "MEM"
constexpr int kOwnersMergeId = kMergeIdBase + 0xf0;
constexpr int kDecisionMergeId = kMergeIdBase + 0xf1;

QString fromStd(const std::string& text)
{
    return QString::fromStdString(text);
}
} // namespace

MemoEditor::MemoEditor(ProjectDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
{
    m_fields.resize(playbook::memoFields().size());
    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    m_error = new QLabel(content);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #b0302f"));
    m_error->hide();
    layout->addWidget(m_error);
    layout->addWidget(buildSection(tr("1. Symptom"), "symptom"));
    layout->addWidget(buildSection(tr("2. Mechanism hypothesis"), "mechanism"));
    layout->addWidget(buildSection(tr("3. Proposed action"), "action"));
    layout->addWidget(buildSignoff());
    layout->addWidget(buildEvidence());
    layout->addStretch(1);

    auto* scroll = new QScrollArea(this);
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);

    connect(m_document, &ProjectDocument::projectReset, this, &MemoEditor::loadFromDocument);
    connect(m_document, &ProjectDocument::sectionChanged, this, [this](ProjectSection section) {
        if (section == ProjectSection::Memo)
            loadFromDocument();
    });
    loadFromDocument();
}

QWidget* MemoEditor::buildSection(const QString& title, const char* sectionKey)
{
    auto* box = new QGroupBox(title);
    auto* form = new QFormLayout(box);
    form->setRowWrapPolicy(QFormLayout::WrapAllRows);
    const auto& refs = playbook::memoFields();
    for (std::size_t i = 0; i < refs.size(); ++i) {
        const auto& ref = refs[i];
        if (std::string_view(ref.section) != sectionKey)
            continue;
        FieldWidgets& w = m_fields[i];
        w.edit = new QPlainTextEdit(box);
        w.edit->setObjectName(QString::fromLatin1(ref.key));
        w.edit->setTabChangesFocus(true);
        w.edit->setFixedHeight(w.edit->fontMetrics().lineSpacing() * 4 + 12);
        w.draftNote = new QLabel(box);
        w.draftNote->setWordWrap(true);
        w.draftNote->setTextFormat(Qt::PlainText);
        w.accept = new QPushButton(tr("Accept draft"), box);
        w.draftNote->hide();
        w.accept->hide();
        auto* cell = new QWidget(box);
        auto* cellLayout = new QVBoxLayout(cell);
        cellLayout->setContentsMargins(0, 0, 0, 0);
        cellLayout->addWidget(w.edit);
        cellLayout->addWidget(w.draftNote);
        cellLayout->addWidget(w.accept, 0, Qt::AlignLeft);
        // Wrapped, so the long review question does not force the dock wider.
        auto* label = new QLabel(tr(ref.label), box);
        label->setWordWrap(true);
        form->addRow(label, cell);
        connect(w.edit, &QPlainTextEdit::textChanged, this, [this, &ref]() { fieldEdited(ref); });
        connect(w.accept, &QPushButton::clicked, this, [this, &ref]() { acceptDraft(ref); });
    }
    return box;
}

QWidget* MemoEditor::buildEvidence()
{
    auto* box = new QGroupBox(tr("Evidence attached (charts: \"Attach to memo\")"));
    m_evidence = new QListWidget(box);
    m_evidence->setObjectName(QStringLiteral("memoEvidence"));
    m_evidence->setMaximumHeight(110);
    auto* remove = new QPushButton(tr("Remove"), box);
    remove->setToolTip(tr("Take the selected chart out of the memo"));
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(m_evidence);
    layout->addWidget(remove, 0, Qt::AlignRight);
    connect(remove, &QPushButton::clicked, this, &MemoEditor::removeSelectedEvidence);
    return box;
}

void MemoEditor::removeSelectedEvidence()
{
    const int row = m_evidence->currentRow();
    playbook::Memo memo = this->memo();
    if (row < 0 || row >= int(memo.evidence.size()))
        return;
    const QString title = fromStd(memo.evidence[std::size_t(row)].title);
    memo.evidence.erase(memo.evidence.begin() + row);
    storeMemo(memo, tr("Remove \"%1\" from the memo").arg(title), -1);
}

QWidget* MemoEditor::buildSignoff()
{
    QWidget* box = buildSection(tr("4. Signoff"), "signoff");
    auto* form = static_cast<QFormLayout*>(box->layout());
    const playbook::Memo blank = playbook::Memo::blank();
    for (const auto& owner : blank.owners) {
        OwnerWidgets w;
        w.name = new QLineEdit(box);
        w.name->setPlaceholderText(tr("Name"));
        w.state = new QComboBox(box);
        w.state->addItem(tr("Pending"), int(playbook::SignoffState::Pending));
        w.state->addItem(tr("Approved"), int(playbook::SignoffState::Approved));
        w.state->addItem(tr("Rejected"), int(playbook::SignoffState::Rejected));
        auto* row = new QWidget(box);
        auto* rowLayout = new QHBoxLayout(row);
        rowLayout->setContentsMargins(0, 0, 0, 0);
        w.rationale = new QLineEdit(box);
        w.rationale->setPlaceholderText(tr("Rationale"));
        rowLayout->addWidget(w.name, 1);
        rowLayout->addWidget(w.state);
        rowLayout->addWidget(w.rationale, 2);
        form->addRow(tr(owner.role.c_str()), row);
        connect(w.name, &QLineEdit::textEdited, this, &MemoEditor::ownersEdited);
        connect(w.state, &QComboBox::activated, this, &MemoEditor::ownersEdited);
        connect(w.rationale, &QLineEdit::textEdited, this, &MemoEditor::ownersEdited);
        m_owners.push_back(w);
    }
    m_decision = new QComboBox(box);
    m_decision->setObjectName(QStringLiteral("decision"));
    for (auto d : {playbook::Decision::Undecided, playbook::Decision::Ship,
                   playbook::Decision::BoundedRollout, playbook::Decision::Rollback,
                   playbook::Decision::Escalate})
        m_decision->addItem(tr(playbook::decisionLabel(d)), int(d));
    form->addRow(tr("Final decision"), m_decision);
    m_decisionGate = new QLabel(box);
    m_decisionGate->setObjectName(QStringLiteral("decision_gate"));
    m_decisionGate->setWordWrap(true);
    m_decisionGate->setVisible(false);
    form->addRow(QString(), m_decisionGate);
    connect(m_decision, &QComboBox::activated, this, [this]() {
        playbook::Memo memo = this->memo();
        memo.decision = playbook::Decision(m_decision->currentData().toInt());
        storeMemo(memo, tr("Set decision"), kDecisionMergeId);
    });
    return box;
}

playbook::Memo MemoEditor::memo() const
{
    auto memo = playbook::memoFromJson(m_document->project().memo);
    return memo ? *memo : playbook::Memo::blank();
}

QPlainTextEdit* MemoEditor::fieldEdit(const QString& key) const
{
    const auto& refs = playbook::memoFields();
    for (std::size_t i = 0; i < refs.size(); ++i) {
        if (QLatin1String(refs[i].key) == key)
            return m_fields[i].edit;
    }
    return nullptr;
}

void MemoEditor::loadFromDocument()
{
    auto parsed = playbook::memoFromJson(m_document->project().memo);
    m_error->setVisible(!parsed);
    if (!parsed)
        m_error->setText(tr("The memo in this project could not be read: %1")
                             .arg(fromStd(parsed.error().toString())));
    const playbook::Memo memo = parsed ? *parsed : playbook::Memo::blank();
    m_loading = true;
    const auto& refs = playbook::memoFields();
    for (std::size_t i = 0; i < refs.size(); ++i) {
        const playbook::MemoField& field = memo.*(refs[i].field);
        FieldWidgets& w = m_fields[i];
        if (w.edit->toPlainText() != fromStd(field.text))
            w.edit->setPlainText(fromStd(field.text));
        const bool pending = field.hasPendingDraft();
        w.draftNote->setVisible(pending);
        w.accept->setVisible(pending);
        if (pending)
            w.draftNote->setText(
                tr("The playbook has a newer draft:\n%1").arg(fromStd(field.draft)));
    }
    for (std::size_t i = 0; i < m_owners.size() && i < memo.owners.size(); ++i) {
        if (m_owners[i].name->text() != fromStd(memo.owners[i].name))
            m_owners[i].name->setText(fromStd(memo.owners[i].name));
        m_owners[i].state->setCurrentIndex(m_owners[i].state->findData(int(memo.owners[i].state)));
        if (m_owners[i].rationale->text() != fromStd(memo.owners[i].note))
            m_owners[i].rationale->setText(fromStd(memo.owners[i].note));
    }
    m_decision->setCurrentIndex(m_decision->findData(int(memo.decision)));
    // The decision is kept as chosen, but a blocked one says why, as the report will.
    const auto gate = playbook::checkDecision(memo, memo.decision);
    m_decisionGate->setVisible(!gate.allowed);
    m_decisionGate->setText(gate.allowed ? QString() : fromStd(gate.message));
    m_evidence->clear();
    for (const auto& item : memo.evidence)
        m_evidence->addItem(fromStd(item.title) + QStringLiteral(" — ") + fromStd(item.source));
    m_loading = false;
}

void MemoEditor::storeMemo(const playbook::Memo& memo, const QString& what, int mergeId)
{
    m_document->setSection(ProjectSection::Memo, playbook::toJson(memo), what, mergeId);
}

void MemoEditor::fieldEdited(const playbook::MemoFieldRef& ref)
{
    if (m_loading)
        return;
    const auto& refs = playbook::memoFields();
    const auto index = std::size_t(&ref - refs.data());
    playbook::Memo memo = this->memo();
    (memo.*(ref.field)).setByUser(m_fields[index].edit->toPlainText().toStdString());
    storeMemo(memo, tr("Edit memo: %1").arg(tr(ref.label)), kMergeIdBase + int(index));
}

void MemoEditor::acceptDraft(const playbook::MemoFieldRef& ref)
{
    playbook::Memo memo = this->memo();
    (memo.*(ref.field)).acceptDraft();
    storeMemo(memo, tr("Accept draft: %1").arg(tr(ref.label)), -1);
}

void MemoEditor::ownersEdited()
{
    if (m_loading)
        return;
    playbook::Memo memo = this->memo();
    for (std::size_t i = 0; i < m_owners.size() && i < memo.owners.size(); ++i) {
        auto& owner = memo.owners[i];
        owner.name = m_owners[i].name->text().toStdString();
        owner.note = m_owners[i].rationale->text().toStdString();
        const auto state = playbook::SignoffState(m_owners[i].state->currentData().toInt());
        // The date a reviewer reads is when the sign-off changed, not when the memo was saved.
        if (state != owner.state)
            owner.date = state == playbook::SignoffState::Pending
                             ? std::string()
                             : QDate::currentDate().toString(Qt::ISODate).toStdString();
        owner.state = state;
    }
    storeMemo(memo, tr("Edit sign-off"), kOwnersMergeId);
}

} // namespace bs::widgets
