// Keeps a table's columns inside its view's width (issue #47: the Compare table needed horizontal
// scrolling at 1280×860): each column as wide as its contents while they fit, and when they do not,
// the widest are narrowed to one shared cap, their text elided (the full text stays in the cell's
// tooltip, which the models give), so no column is cut to nothing and no scrollbar appears.
#pragma once

class QTableView;

namespace reef::ui {

// Fits the columns now and again whenever the model resets, its rows change or the view resizes.
void keepColumnsInView(QTableView* table);

}  // namespace reef::ui
