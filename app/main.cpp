// reef: the desktop app. Wires the engine, the Qt glue and the widgets; nothing else.
#include <QApplication>

#include "widgets/main_window.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Reef"));
    QApplication::setOrganizationName(QStringLiteral("Reef"));
    QApplication::setApplicationVersion(QStringLiteral(REEF_VERSION));
    reef::ui::MainWindow window;
    window.show();
    return QApplication::exec();
}
