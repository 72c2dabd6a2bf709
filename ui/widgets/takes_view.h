// Takes history: the table, plus replay and export of the selected take.
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

private:
    TakesModel& m_takes;
    QTableView* m_table = nullptr;
    QPushButton* m_replay = nullptr;
    QPushButton* m_export = nullptr;
};

}  // namespace reef::ui
