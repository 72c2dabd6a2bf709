#include "cli_profiles.h"

#include "cli_engine.h"

#include <algorithm>
#ifdef REEF_HAVE_QT
#include <QSettings>
#include <QStringList>
#include <QUrl>
#include <memory>
#endif

namespace reef::cli {

ServerProfile resolve_server(const std::string& s) {
    ServerProfile p;
    if (s.rfind("http://", 0) == 0 || s.rfind("https://", 0) == 0 || s.find("://") != std::string::npos) {
        p.url = s;
        return p;
    }
#ifdef REEF_HAVE_QT
    const QString file = qEnvironmentVariable("REEF_SETTINGS");
    std::unique_ptr<QSettings> store = file.isEmpty()
                                           ? std::make_unique<QSettings>(QSettings::NativeFormat, QSettings::UserScope,
                                                                         QStringLiteral("Reef"), QStringLiteral("Reef"))
                                           : std::make_unique<QSettings>(file, QSettings::IniFormat);
    const QString name = QString::fromStdString(s);
    store->beginGroup(QStringLiteral("server_profiles"));
    const QStringList groups = store->childGroups();
    QStringList names;
    for (const QString& g : groups) {
        names << QUrl::fromPercentEncoding(g.toLatin1());
        if (names.back() != name)
            continue;
        store->beginGroup(g);
        p.name = s;
        p.url = store->value(QStringLiteral("url")).toString().toStdString();
        p.flavour = parse_remote_flavour(store->value(QStringLiteral("flavour")).toString().toStdString())
                        .value_or(RemoteFlavour::Auto);
        p.model = store->value(QStringLiteral("model")).toString().toStdString();
        p.voice = store->value(QStringLiteral("voice")).toString().toStdString();
        p.concurrency = std::max(1, store->value(QStringLiteral("concurrency"), 1).toInt());
        return p;
    }
    fail("--server " + s + ": not a URL, and the studio has no server profile of that name (" +
         (names.isEmpty() ? std::string("it has none") : "it has: " + names.join(QStringLiteral(", ")).toStdString()) +
         "; " + store->fileName().toStdString() + ")");
#else
    fail("--server " + s + ": not a URL (this build of reef-cli cannot read the studio's profiles)");
#endif
}

ServerProfile server_from_flags(const std::string& server, const std::string& flavour, const std::string& api_key,
                                const std::string& model, const std::string& voice) {
    ServerProfile p = resolve_server(server);
    if (flavour != "auto" || p.name.empty()) {   // given on the command line: it wins over the profile's
        p.flavour = *parse_remote_flavour(flavour);
        p.openai_only = remote_flavour_openai(flavour);
    }
    p.api_key = api_key;
    if (!model.empty()) p.model = model;
    if (!voice.empty()) p.voice = voice;
    return p;
}

}  // namespace reef::cli
