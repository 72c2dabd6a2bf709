#include <QPushButton>
#include <QtTest>

#include "widgets/about_dialog.h"
#include "widgets/main_window.h"

using namespace reef::ui;

class TstMainWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void constructsWithTitleAndVersions() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.windowTitle(), QStringLiteral("Reef"));
        QVERIFY(w.statusDeviceText().contains(QStringLiteral("libtorch 2.")));
        QVERIFY(!w.generateButton()->isEnabled());  // no model loaded yet: disabled, not fake
    }
    void aboutShowsLibraryVersions() {
        AboutDialog d;
        const QString t = d.versionsText();
        QVERIFY(t.contains(QStringLiteral("Qt ") + QString::fromLatin1(qVersion())));
        QVERIFY(t.contains(QStringLiteral("PortAudio")));
        QVERIFY(t.contains(QStringLiteral("libsndfile")));
    }
};

QTEST_MAIN(TstMainWindow)
#include "tst_main_window.moc"
