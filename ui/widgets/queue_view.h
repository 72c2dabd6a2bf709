// The Queue dock: every queued, running and finished generation with its state and progress, and
// Cancel (the selected item), Cancel all and Clear finished.
#pragma once
#include <QWidget>

class QLabel;
class QListView;
class QPushButton;

namespace reef::ui {

class SynthesisQueue;

class QueueView : public QWidget {
    Q_OBJECT
public:
    explicit QueueView(SynthesisQueue& queue, QWidget* parent = nullptr);
    QListView* list() const { return m_list; }
    QPushButton* cancelButton() const { return m_cancel; }
    QPushButton* cancelAllButton() const { return m_cancelAll; }
    QString summaryText() const;

private:
    void refresh();
    quint64 selectedId() const;

    SynthesisQueue& m_queue;
    QListView* m_list = nullptr;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_cancelAll = nullptr;
    QPushButton* m_clear = nullptr;
    QLabel* m_summary = nullptr;
};

}  // namespace reef::ui
