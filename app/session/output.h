#pragma once
// Writing what the app saves and exports: every file through one atomic save (QSaveFile: the old file
// stays until the new one is complete), and one way to name a picture's size.

#include <QByteArray>
#include <QSize>
#include <QString>

#include <functional>

class QIODevice;
class QImage;

namespace topocast::app {

/// Opens a QSaveFile for `path`, lets `write` fill it (false: it failed) and commits it; an
/// existing file is replaced only when all of it was written. Throws topocast::Error "cannot
/// write PATH: reason".
void saveAtomically(const QString& path, const std::function<bool(QIODevice&)>& write);
/// `image` as a PNG at `path`, atomically. Throws topocast::Error as saveAtomically.
void savePng(const QImage& image, const QString& path);
/// `bytes` at `path`, atomically. Throws topocast::Error as saveAtomically.
void saveBytes(const QByteArray& bytes, const QString& path);

/// "1600×1000".
QString sizeText(QSize size);

} // namespace topocast::app
