#include "qt/model_fingerprint.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QHash>
#include <QMutex>
#include <algorithm>

namespace reef::ui {
namespace {

constexpr qint64 kSample = 64 * 1024;
constexpr int kSamples = 16;

void addFile(QCryptographicHash& h, QFile& f, bool whole) {
    const qint64 size = f.size();
    if (whole || size <= kSamples * kSample) {
        h.addData(&f);
        return;
    }
    for (int k = 0; k < kSamples; ++k) {
        const qint64 at = (size - kSample) * k / (kSamples - 1);
        f.seek(at);
        h.addData(f.read(kSample));
    }
}

}  // namespace

QString modelFingerprint(const QString& modelDir) {
    const QDir dir(modelDir);
    if (modelDir.isEmpty() || !dir.exists())
        return {};
    // The listing (names, sizes, times) is the cache key; reading the samples is the cost.
    QStringList files;
    QByteArray listing;
    QDirIterator it(dir.absolutePath(), QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        const QString rel = dir.relativeFilePath(it.filePath());
        if (rel.count(u'/') > 2)
            continue;   // model folders are flat; don't wander into big trees
        files << rel;
    }
    std::sort(files.begin(), files.end());
    for (const QString& rel : files) {
        const QFileInfo fi(dir.filePath(rel));
        listing += rel.toUtf8() + '\0' + QByteArray::number(fi.size()) + '\0' +
                   QByteArray::number(fi.lastModified().toMSecsSinceEpoch()) + '\n';
    }
    static QMutex mutex;
    static QHash<QByteArray, QString> cache;
    const QByteArray key = dir.absolutePath().toUtf8() + '\n' + listing;
    {
        QMutexLocker lock(&mutex);
        if (const auto hit = cache.constFind(key); hit != cache.constEnd())
            return *hit;
    }
    QCryptographicHash h(QCryptographicHash::Sha256);
    for (const QString& rel : files) {
        QFile f(dir.filePath(rel));
        if (!f.open(QIODevice::ReadOnly))
            return {};
        h.addData(rel.toUtf8() + '\0' + QByteArray::number(f.size()) + '\0');
        addFile(h, f, rel == QStringLiteral("config.json"));
    }
    const QString out = QStringLiteral("sha256:") + QString::fromLatin1(h.result().toHex().left(32));
    QMutexLocker lock(&mutex);
    cache.insert(key, out);
    return out;
}

}  // namespace reef::ui
