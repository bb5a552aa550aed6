#include "export/stepsdialog.h"

#include "topocast/model/error.h"

#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QMessageBox>
#include <QSpinBox>

#include <algorithm>

namespace topocast::app {

StepRange checkedStepRange(const SnapshotPtr& snap, std::uint32_t first, std::uint32_t last, const std::string& purpose)
{
    if (!snap)
        throw Error("nothing to " + purpose + ": no schedule has been computed");
    const std::uint32_t steps = snap->stepCount();
    last = last == 0 ? steps : last;
    if (steps == 0)
        throw Error("the schedule has no steps to " + purpose + " (a single node?)");
    if (first < 1 || first > last || last > steps)
        throw Error("steps " + std::to_string(first) + "-" + std::to_string(last) +
                    " are not within the schedule's steps 1.." + std::to_string(steps));
    return {first, last};
}

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
