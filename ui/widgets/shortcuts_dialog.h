// Help → Keyboard shortcuts: every menu action that has a shortcut, read from the menus themselves
// (so the page cannot drift from what the keys do), plus the keys that are not menu actions.
#pragma once
#include <QDialog>

class QMenuBar;
class QTableWidget;

namespace reef::ui {

class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    explicit ShortcutsDialog(const QMenuBar& menus, QWidget* parent = nullptr);
    QTableWidget* table() const { return m_table; }

private:
    QTableWidget* m_table = nullptr;
};

}  // namespace reef::ui
