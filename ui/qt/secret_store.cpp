#include "qt/secret_store.h"

#ifdef REEF_HAVE_KEYCHAIN
#include <qt6keychain/keychain.h>
#endif

namespace reef::ui {

#ifdef REEF_HAVE_KEYCHAIN
namespace {

// QtKeychain's own text is often "Unknown error" where the desktop simply has no store running.
QString reasonOf(const QKeychain::Job& job) {
    switch (job.error()) {
    case QKeychain::NoBackendAvailable:
        return SecretStore::tr("no secret store (Secret Service or KWallet) is running on this desktop");
    case QKeychain::AccessDenied:
    case QKeychain::AccessDeniedByUser:
        return SecretStore::tr("the secret store refused access");
    default:
        break;
    }
    const QString said = job.errorString();
    return said.isEmpty() || said == QLatin1String("Unknown error")
               ? SecretStore::tr("the desktop's secret store did not answer (is a Secret Service or KWallet running?)")
               : said;
}

}  // namespace
#endif

SecretStore::SecretStore(QString service, QObject* parent) : QObject(parent), m_service(std::move(service)) {}

#ifdef REEF_HAVE_KEYCHAIN

void SecretStore::read(const QString& account) {
    auto* job = new QKeychain::ReadPasswordJob(m_service, this);
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    job->setKey(account);
    connect(job, &QKeychain::Job::finished, this, [this, account, job] {
        if (job->error() == QKeychain::NoError)
            Q_EMIT secretRead(account, job->textData());
        else if (job->error() == QKeychain::EntryNotFound)
            Q_EMIT secretRead(account, QString());
        else
            Q_EMIT failed(account, reasonOf(*job));
    });
    job->start();
}

void SecretStore::write(const QString& account, const QString& secret) {
    auto* job = new QKeychain::WritePasswordJob(m_service, this);
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    job->setKey(account);
    job->setTextData(secret);
    connect(job, &QKeychain::Job::finished, this, [this, account, job] {
        if (job->error() == QKeychain::NoError)
            Q_EMIT secretWritten(account);
        else
            Q_EMIT failed(account, reasonOf(*job));
    });
    job->start();
}

#else

void SecretStore::read(const QString& account) { Q_EMIT failed(account, tr("this build has no secret store support (QtKeychain)")); }
void SecretStore::write(const QString& account, const QString&) {
    Q_EMIT failed(account, tr("this build has no secret store support (QtKeychain)"));
}

#endif

}  // namespace reef::ui
