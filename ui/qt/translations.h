// The interface language: Reef's own .qm files (compiled from ui/translations/*.ts into the
// resources under :/i18n) plus Qt's own strings (standard dialogs, context menus) where the system
// has them. Chosen from the system locale, or from the Settings override; a change needs a restart
// because widgets translate their strings when they are built.
#pragma once
#include <QString>
#include <QStringList>

class QCoreApplication;

namespace reef::ui {

// The languages Reef ships besides English: "zh_CN", "ja".
QStringList shippedLanguages();
// What to show in the language picker for a code: the language's own name ("简体中文", "日本語").
QString languageNativeName(const QString& code);
// Which shipped language a locale name ("zh_CN", "ja_JP", "en_US") picks; empty = English.
QString languageForLocale(const QString& localeName);
// Installs the translators for `code` (empty = follow the system locale) on the application; returns
// the language actually loaded, empty for English (whose translator holds only the plural forms).
QString installTranslations(QCoreApplication& app, const QString& code);

}  // namespace reef::ui
