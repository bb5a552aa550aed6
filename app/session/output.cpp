#include "session/output.h"

#include "topocast/model/error.h"

#include <QImage>
#include <QSaveFile>

namespace topocast::app {

void saveAtomically(const QString& path, const std::function<bool(QIODevice&)>& write)
{
    QSaveFile file(path);
    // QSaveFile keeps its first error: the reason a write or commit failed is errorString().
    if (!file.open(QIODevice::WriteOnly) || !write(file) || !file.commit())
        throw Error("cannot write " + path.toStdString() + ": " + file.errorString().toStdString());
}

void savePng(const QImage& image, const QString& path)
{
    saveAtomically(path, [&](QIODevice& file) { return image.save(&file, "PNG"); });
}

void saveBytes(const QByteArray& bytes, const QString& path)
{
    saveAtomically(path, [&](QIODevice& file) { return file.write(bytes) == bytes.size(); });
}

QString sizeText(QSize size)
{
    return QStringLiteral("%1×%2").arg(size.width()).arg(size.height());
}

} // namespace topocast::app
