// Server keys in the desktop's secret store (the Secret Service or KWallet, through QtKeychain),
// never in a settings file: QtKeychain's insecure fallback (a plain QSettings file) is off. Where
// the desktop has no secret store (a bare X session, CI) every call reports failed() with the
// reason, and the caller keeps the key for the session only. Asynchronous; one account per server.
#pragma once
#include <QObject>
#include <QString>

namespace reef::ui {

class SecretStore : public QObject {
    Q_OBJECT
public:
    explicit SecretStore(QString service = QStringLiteral("Reef"), QObject* parent = nullptr);
    void read(const QString& account);
    void write(const QString& account, const QString& secret);

Q_SIGNALS:
    void secretRead(const QString& account, const QString& secret);   // empty when none is stored
    void secretWritten(const QString& account);
    void failed(const QString& account, const QString& reason);

private:
    QString m_service;
};

}  // namespace reef::ui
