#include "svgraster.h"

#include <QPainter>
#include <QSvgRenderer>

namespace bs::render {

Expected<QImage> rasterizeSvg(const std::string& svg, double scale)
{
    QSvgRenderer renderer(QByteArray::fromStdString(svg));
    if (!renderer.isValid())
        return makeError(ErrorCode::Format, "the figure is not valid SVG");
    const QSize size = (QSizeF(renderer.defaultSize()) * scale).toSize();
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    renderer.render(&painter, QRectF(QPointF(0, 0), QSizeF(size)));
    painter.end();
    return image;
}

Status writeSvgAsPng(const std::string& svg, const QString& path, double scale)
{
    auto image = rasterizeSvg(svg, scale);
    if (!image) {
        Error error = image.error();
        error.path = path.toStdString();
        return error;
    }
    if (!image->save(path, "PNG"))
        return makeError(ErrorCode::Io, path.toStdString(), 0, 0, "cannot write the PNG");
    return {};
}

} // namespace bs::render
