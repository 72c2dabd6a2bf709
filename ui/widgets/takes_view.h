// Takes history: the table, plus replay, export and "re-use these settings" of the selected take,
// and export of all takes at once.
#pragma once
#include <QWidget>

class QTableView;
class QPushButton;

namespace reef::ui {

class TakesModel;

class TakesView : public QWidget {
    Q_OBJECT
public:
    explicit TakesView(TakesModel& takes, QWidget* parent = nullptr);
    QTableView* table() const { return m_table; }
    int selectedRow() const;

Q_SIGNALS:
    void replayRequested(int row);
    void exportRequested(int row);
    void reuseRequested(int row);   // make the take's settings (and voice) the current ones
    void exportAllRequested();

private:
    TakesModel& m_takes;
    QTableView* m_table = nullptr;
    QPushButton* m_replay = nullptr;
    QPushButton* m_export = nullptr;
    QPushButton* m_reuse = nullptr;
    QPushButton* m_exportAll = nullptr;
};

}  // namespace reef::ui
