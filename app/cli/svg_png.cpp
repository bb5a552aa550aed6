// topocast-cli sweep --plot FILE.png: the chart's SVG drawn into a PNG by Qt SVG, in the app
// program (topocast-cli loads no Qt library and hands the command over, cli/handoff.h). Twice the
// SVG's size, on white, written atomically.
#include "handoff.h"

#include "topocast/model/error.h"

#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSaveFile>
#include <QSvgRenderer>

#include <memory>

namespace topocast::cli {

namespace {

void drawSvgAsPng(const std::string& svg, const std::string& path)
{
    // No display needed: a chart is drawn in memory (the offscreen platform gives the fonts).
    static int argc = 3;
    static char name[] = "topocast-cli", platform[] = "-platform", offscreen[] = "offscreen";
    static char* argv[] = {name, platform, offscreen, nullptr};
    std::unique_ptr<QGuiApplication> own;
    if (!QCoreApplication::instance())
        own = std::make_unique<QGuiApplication>(argc, argv);
    QSvgRenderer renderer(QByteArray::fromStdString(svg));
    if (!renderer.isValid())
        throw Error(path + ": the chart's SVG could not be read back to draw it");
    QImage image(renderer.defaultSize() * 2, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    renderer.render(&painter);
    painter.end();
    QSaveFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::WriteOnly) || !image.save(&file, "PNG") || !file.commit())
        throw Error(path + ": could not write the PNG (" + file.errorString().toStdString() + ")");
}

/// Registered wherever this file is linked in (the app program, its tests).
const bool registered = [] {
    registerSvgToPng(&drawSvgAsPng);
    return true;
}();

} // namespace

} // namespace topocast::cli
