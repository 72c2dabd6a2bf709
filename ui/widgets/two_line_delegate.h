// A list row of two text lines (a bold-less header and its detail), drawn over the style's usual
// item background: what the project's segment list and the queue share.
#pragma once
#include <QStyledItemDelegate>

namespace reef::ui {

class TwoLineDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

protected:
    struct Row {
        QRect first, second;   // the two lines' rectangles
        bool selected = false;
    };
    // Draws the background (selection, hover) and returns where the lines go; leftInset leaves
    // room for a mark drawn by the subclass.
    Row drawBackground(QPainter* p, const QStyleOptionViewItem& option, const QModelIndex& index, int leftInset) const;
    // Elided text in rect, in the normal or the placeholder (dim) colour of the row's state.
    static void drawText(QPainter* p, const QStyleOptionViewItem& option, const Row& row, const QRect& rect,
                         const QString& text, bool dim);
};

}  // namespace reef::ui
