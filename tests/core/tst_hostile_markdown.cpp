// Hostile text in the Markdown report (issue 22): "\r" line endings, "~~~" fences, indented
// code and bare URLs in memo text, owner names or the title stay literal text.
#include "playbook/report.h"

#include <QtTest>

#include <sstream>

using namespace bs;
using namespace bs::playbook;

namespace {

std::string markdownOf(const std::string& title, const std::string& paragraph)
{
    ReportDocument document;
    document.title = title;
    ReportSection section;
    section.id = "memo";
    section.heading = "Memo";
    section.blocks.push_back(ReportParagraph{paragraph, ParagraphStyle::Normal});
    section.blocks.push_back(ReportKeyValues{{{"Owner", paragraph}}});
    document.sections.push_back(std::move(section));
    return renderMarkdown(document, "r").markdown;
}

/// Lines of the Markdown as CommonMark splits them (at "\n", "\r\n" and "\r").
std::vector<std::string> lines(const std::string& md)
{
    std::vector<std::string> out(1);
    for (std::size_t i = 0; i < md.size(); ++i) {
        if (md[i] == '\r' || md[i] == '\n') {
            if (md[i] == '\r' && i + 1 < md.size() && md[i + 1] == '\n')
                ++i;
            out.emplace_back();
        } else {
            out.back() += md[i];
        }
    }
    return out;
}

bool anyLineStartsWith(const std::string& md, const std::string& prefix)
{
    for (const auto& line : lines(md))
        if (line.starts_with(prefix))
            return true;
    return false;
}

} // namespace

class TestHostileMarkdown : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void carriageReturnDoesNotStartABlock_data();
    void carriageReturnDoesNotStartABlock();
    void tildeFenceDoesNotSwallowTheReport();
    void indentationDoesNotMakeCode();
    void bareUrlsAreNotLinks();
};

void TestHostileMarkdown::carriageReturnDoesNotStartABlock_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("forbidden");
    QTest::newRow("heading after CR") << QByteArray("a\r# X") << QByteArray("# X");
    QTest::newRow("list after CR") << QByteArray("a\r- item") << QByteArray("- item");
    QTest::newRow("quote after CRLF") << QByteArray("a\r\n> q") << QByteArray("> q");
    QTest::newRow("fence after CR") << QByteArray("a\r```") << QByteArray("```");
}

void TestHostileMarkdown::carriageReturnDoesNotStartABlock()
{
    // Regression: only "\n" split lines, so "a\r# X" put a heading into the memo.
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, forbidden);
    for (const auto& md :
         {markdownOf(text.toStdString(), "p"), markdownOf("T", text.toStdString())})
        QVERIFY2(!anyLineStartsWith(md, forbidden.toStdString()), md.c_str());
}

void TestHostileMarkdown::tildeFenceDoesNotSwallowTheReport()
{
    // Regression: a "~~~" line opened a code block that swallowed the following sections.
    const auto md = markdownOf("T", "before\n~~~\nafter");
    QVERIFY2(!anyLineStartsWith(md, "~~~"), md.c_str());
    QVERIFY(md.find("\\~\\~\\~") != std::string::npos);
}

void TestHostileMarkdown::indentationDoesNotMakeCode()
{
    const auto md = markdownOf("T", "    four spaces\n\ttab");
    QVERIFY2(!anyLineStartsWith(md, "    four"), md.c_str());
    QVERIFY(!anyLineStartsWith(md, "\ttab"));
    QVERIFY(md.find("&#32;&#32;&#32;&#32;four spaces") != std::string::npos);
}

void TestHostileMarkdown::bareUrlsAreNotLinks()
{
    // Regression: GitHub's renderer made live links of bare URLs in a memo.
    const auto md = markdownOf("see https://evil.example/x",
                               "HTTP://a.example www.b.example mail me@c.example ftp://d");
    for (const char* raw : {"www.b", "me@c"})
        QVERIFY2(md.find(raw) == std::string::npos, raw);
    for (auto at = md.find("://"); at != std::string::npos; at = md.find("://", at + 1))
        QVERIFY2(at > 0 && md[at - 1] == '\\', md.c_str());
    for (const char* escaped :
         {"https\\://evil.example", "HTTP\\://a", "www\\.b.example", "me\\@c.example", "ftp\\://d"})
        QVERIFY2(md.find(escaped) != std::string::npos, escaped);
    // A colon elsewhere is left alone.
    QVERIFY(markdownOf("T", "p99: 12 ms").find("p99: 12 ms") != std::string::npos);
}

QTEST_GUILESS_MAIN(TestHostileMarkdown)
#include "tst_hostile_markdown.moc"
