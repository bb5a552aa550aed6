#include "export/stepsdialog.h"

#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QMessageBox>
#include <QSpinBox>

#include <algorithm>

namespace topocast::app {

std::optional<StepRange> askStepRange(QWidget* window, const QString& title, int steps,
                                      const std::function<void(QFormLayout*)>& extraRows)
{
    QDialog dialog(window);
    dialog.setWindowTitle(title);
    auto* form = new QFormLayout(&dialog);
    if (extraRows)
        extraRows(form);
    auto* first = new QSpinBox;
    first->setRange(1, steps);
    auto* last = new QSpinBox;
    last->setRange(1, steps);
    last->setValue(steps);
    form->addRow(QStringLiteral("First step"), first);
    form->addRow(QStringLiteral("Last step"), last);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    return StepRange{static_cast<std::uint32_t>(std::min(first->value(), last->value())),
                     static_cast<std::uint32_t>(std::max(first->value(), last->value()))};
}

void writeReported(QWidget* window, const QString& title, const QString& what, const std::function<QString()>& write,
                   const std::function<void(const QString&)>& report)
{
    QApplication::setOverrideCursor(Qt::WaitCursor);
    try {
        const QString message = write();
        QApplication::restoreOverrideCursor();
        report(message);
    } catch (const std::exception& e) {
        QApplication::restoreOverrideCursor();
        report(what + QStringLiteral(" not written: ") + QString::fromStdString(e.what()));
        QMessageBox::warning(window, title, QString::fromStdString(e.what()));
    }
}

} // namespace topocast::app
