#include "widgets/two_line_delegate.h"

#include <QApplication>
#include <QPainter>

namespace reef::ui {

QSize TwoLineDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex&) const {
    return {option.rect.width(), 2 * option.fontMetrics.lineSpacing() + 10};
}

TwoLineDelegate::Row TwoLineDelegate::drawBackground(QPainter* p, const QStyleOptionViewItem& option,
                                                     const QModelIndex& index, int leftInset) const {
    QStyleOptionViewItem o = option;
    initStyleOption(&o, index);
    o.text.clear();   // the lines are drawn by the caller
    QStyle* style = o.widget ? o.widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &o, p, o.widget);
    const QRect r = option.rect.adjusted(leftInset, 3, -6, -3);
    const int line = option.fontMetrics.lineSpacing();
    Row row;
    row.first = QRect(r.left(), r.top(), r.width(), line);
    row.second = QRect(r.left(), r.top() + line + 2, r.width(), line);
    row.selected = option.state & QStyle::State_Selected;
    return row;
}

void TwoLineDelegate::drawText(QPainter* p, const QStyleOptionViewItem& option, const Row& row, const QRect& rect,
                               const QString& text, bool dim) {
    const QPalette::ColorRole role = row.selected ? QPalette::HighlightedText : dim ? QPalette::PlaceholderText : QPalette::Text;
    p->save();
    p->setPen(option.palette.color(role));
    p->drawText(rect, Qt::AlignLeft | Qt::AlignVCenter, option.fontMetrics.elidedText(text, Qt::ElideRight, rect.width()));
    p->restore();
}

}  // namespace reef::ui
