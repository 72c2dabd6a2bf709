#include "qt/sampling_json.h"

#include <QCoreApplication>
#include <QJsonValue>
#include <cmath>
#include <limits>

#include "reef/sampling_settings.h"

namespace reef::ui {
namespace {

// A translation context for lupdate ("SamplingJson") without a QObject.
struct SamplingJson {
    Q_DECLARE_TR_FUNCTIONS(SamplingJson)
};

QString camelCase(const char* snake) {
    QString out;
    bool upper = false;
    for (const char* c = snake; *c; ++c) {
        if (*c == '_') {
            upper = true;
            continue;
        }
        out += upper ? QChar(*c).toUpper() : QChar(*c);
        upper = false;
    }
    return out;
}

bool refuse(QString* problem, const QString& what) {
    if (problem)
        *problem = what;
    return false;
}

}  // namespace

QJsonObject samplingToJson(const SamplingParams& p) {
    QJsonObject o;
    for (const SamplingSetting& s : sampling_settings()) {
        const double v = sampling_value(p, s.key);
        if (s.decimals == 0)
            o.insert(QLatin1String(s.name), qint64(v));
        else
            o.insert(QLatin1String(s.name), double(float(v)));  // as stored: 0.8f, not 0.800000011920929
    }
    o.insert(QStringLiteral("seed"), QString::number(p.seed));
    return o;
}

bool samplingFromJson(const QJsonObject& o, SamplingParams* p, QString* problem, SamplingKeys keys) {
    SamplingParams read = *p;
    for (const SamplingSetting& s : sampling_settings()) {
        const QString key = keys == SamplingKeys::Engine ? QString::fromLatin1(s.name) : camelCase(s.name);
        const QJsonValue v = o.value(key);
        if (v.isUndefined())
            continue;
        if (!v.isDouble())
            return refuse(problem, SamplingJson::tr("\"%1\" is not a number").arg(key));
        const double d = v.toDouble();
        if (!sampling_value_in_range(s, d))
            return refuse(problem, SamplingJson::tr("\"%1\" = %2 is outside the allowed range %3%4")
                                       .arg(key)
                                       .arg(d)
                                       .arg(QString::fromStdString(sampling_range_text(s)))
                                       .arg(s.decimals == 0 && d != std::floor(d) ? SamplingJson::tr(" (whole numbers)")
                                                                                  : QString()));
        set_sampling_value(read, s.key, d);
    }
    const QJsonValue seed = o.value(QLatin1String("seed"));
    if (seed.isString()) {
        bool ok = false;
        const qulonglong n = seed.toString().toULongLong(&ok);
        if (!ok)
            return refuse(problem, SamplingJson::tr("\"seed\" = \"%1\" is not a whole number from 0 to %2")
                                       .arg(seed.toString(), QString::number(std::numeric_limits<quint64>::max())));
        read.seed = n;
    } else if (seed.isDouble()) {  // an integer written as a number: exact up to 2^53
        const double d = seed.toDouble();
        if (!(d >= 0 && d <= 9007199254740992.0 && d == std::floor(d)))
            return refuse(problem, SamplingJson::tr("\"seed\" = %1 is not a whole number a JSON number holds exactly "
                                                    "(0 to 2^53; larger seeds are written as strings)")
                                       .arg(d));
        read.seed = quint64(d);
    } else if (!seed.isUndefined()) {
        return refuse(problem, SamplingJson::tr("\"seed\" is not a number"));
    }
    *p = read;
    return true;
}

}  // namespace reef::ui
