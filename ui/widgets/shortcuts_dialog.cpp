#include "widgets/shortcuts_dialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QTableWidget>
#include <QVBoxLayout>

namespace reef::ui {
namespace {

QString plainText(QString text) {
    text.remove(QRegularExpression(QStringLiteral("\\(&\\w\\)")));   // CJK mnemonics: "文件(&F)"
    return text.remove(QLatin1Char('&')).remove(QStringLiteral("…")).trimmed();
}

void addRows(QTableWidget* table, const QMenu* menu, const QString& path) {
    for (QAction* a : menu->actions()) {
        if (a->menu()) {
            addRows(table, a->menu(), path + QStringLiteral(" › ") + plainText(a->text()));
            continue;
        }
        if (a->isSeparator() || a->shortcuts().isEmpty())
            continue;
        QStringList keys;
        for (const QKeySequence& k : a->shortcuts())
            keys << k.toString(QKeySequence::NativeText);
        const int row = table->rowCount();
        table->insertRow(row);
        table->setItem(row, 0, new QTableWidgetItem(path + QStringLiteral(" › ") + plainText(a->text())));
        table->setItem(row, 1, new QTableWidgetItem(keys.join(QStringLiteral(", "))));
    }
}

}  // namespace

ShortcutsDialog::ShortcutsDialog(const QMenuBar& menus, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Keyboard shortcuts"));
    m_table = new QTableWidget(0, 2);
    m_table->setObjectName(QStringLiteral("shortcutsTable"));
    m_table->setAccessibleName(tr("Keyboard shortcuts"));
    m_table->setHorizontalHeaderLabels({tr("Action"), tr("Keys")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (QAction* a : menus.actions())
        if (a->menu())
            addRows(m_table, a->menu(), plainText(a->text()));
    m_table->resizeColumnToContents(1);

    auto* notes = new QLabel(tr("<p><b>Space</b> plays or pauses unless you are typing text or a button has the "
                                "focus (then Space presses it). <b>Tab</b> and <b>Shift+Tab</b> move between controls; "
                                "<b>Alt</b> with an underlined letter opens a menu or jumps to a field.</p>"
                                "<p>Generate works on the Synthesis tab's text; on the Project tab it generates the "
                                "selected segment.</p>"));
    notes->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* v = new QVBoxLayout(this);
    v->addWidget(m_table, 1);
    v->addWidget(notes);
    v->addWidget(buttons);
    resize(560, 520);
}

}  // namespace reef::ui
