#include "qt/translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace reef::ui {

QStringList shippedLanguages() { return {QStringLiteral("zh_CN"), QStringLiteral("ja")}; }

QString languageNativeName(const QString& code) {
    if (code == QLatin1String("zh_CN"))
        return QStringLiteral("简体中文");
    if (code == QLatin1String("ja"))
        return QStringLiteral("日本語");
    return QStringLiteral("English");
}

QString languageForLocale(const QString& localeName) {
    const QLocale locale(localeName);
    switch (locale.language()) {
    case QLocale::Chinese:
        // Traditional-script locales (zh_TW, zh_HK) would rather read English than the wrong script.
        return locale.script() == QLocale::TraditionalChineseScript ? QString() : QStringLiteral("zh_CN");
    case QLocale::Japanese:
        return QStringLiteral("ja");
    default:
        return {};
    }
}

QString installTranslations(QCoreApplication& app, const QString& code) {
    const QString language = code.isEmpty() ? languageForLocale(QLocale::system().name())
                             : shippedLanguages().contains(code) ? code
                                                                 : QString();
    // English needs its plural forms ("1 take", "2 takes"); the others everything.
    auto* reef = new QTranslator(&app);
    if (!reef->load(QStringLiteral(":/i18n/reef_%1.qm").arg(language.isEmpty() ? QStringLiteral("en") : language))) {
        delete reef;
        return {};
    }
    QCoreApplication::installTranslator(reef);
    if (language.isEmpty())
        return {};
    // Qt's own strings (the file dialog, the text editors' context menus) where the system has them.
    auto* qt = new QTranslator(&app);
    if (qt->load(QStringLiteral("qtbase_%1").arg(language), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    else
        delete qt;
    return language;
}

}  // namespace reef::ui
