#include "widgets/about_dialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QVBoxLayout>

#include "qt/app_versions.h"

namespace reef::ui {

AboutDialog::AboutDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("About Reef"));
    const AppVersions v = appVersions();
    auto* layout = new QVBoxLayout(this);
    auto* title = new QLabel(tr("<h2>Reef %1</h2><p>A native desktop studio for fish-speech text-to-speech.</p>").arg(v.reef));
    m_versions = new QLabel(QStringLiteral("Qt %1\nlibtorch %2 (CUDA %3)\nCPU kernels %4\n%5\n%6")
                                .arg(v.qt, v.libtorch, v.cuda, v.cpuKernels, v.portaudio, v.sndfile));
    m_versions->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_versions->setObjectName(QStringLiteral("aboutVersions"));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(title);
    layout->addWidget(m_versions);
    layout->addWidget(buttons);
}

QString AboutDialog::versionsText() const { return m_versions->text(); }

}  // namespace reef::ui
