#include "charts/charttools.h"

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QObject>
#include <QToolBar>

namespace bs::widgets {

QString askExportPath(QWidget* parent, const QString& suggestedName)
{
    QString selected;
    const QString path = QFileDialog::getSaveFileName(
        parent, QObject::tr("Export chart"), suggestedName,
        QObject::tr("PNG image (*.png);;SVG vector image (*.svg);;CSV table (*.csv)"), &selected);
    if (path.isEmpty() || !QFileInfo(path).suffix().isEmpty())
        return path;
    if (selected.contains(QLatin1String("svg")))
        return path + QStringLiteral(".svg");
    if (selected.contains(QLatin1String("csv")))
        return path + QStringLiteral(".csv");
    return path + QStringLiteral(".png");
}

bool writeTextFile(const QString& path, const QString& text)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text))
        return false;
    return file.write(text.toUtf8()) >= 0;
}

QToolBar* makeChartToolBar(QWidget* parent)
{
    auto* bar = new QToolBar(parent);
    bar->setMovable(false);
    bar->setFloatable(false);
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto* spacer = new QWidget(bar);
    spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    bar->addWidget(spacer);
    return bar;
}

} // namespace bs::widgets
