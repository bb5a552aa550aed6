#include "window/viewcontrols.h"

#include "scene/sceneview.h"

#include "topocast/drawing/colour.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace topocast::app {

ViewControls::ViewControls(SceneView* scene, QVBoxLayout* layout, QObject* parent) : QObject(parent), m_scene(scene)
{
    m_modeBox = new QComboBox;
    for (std::size_t i = 0; i < colour::kColourModes.size(); ++i)
        m_modeBox->addItem(QString::fromUtf8(colour::kColourModes[i].label), QVariant::fromValue(static_cast<int>(i)));
    layout->addWidget(new QLabel(QStringLiteral("Colour by")));
    layout->addWidget(m_modeBox);
    m_cumulative = new QCheckBox(QStringLiteral("cumulative load"));
    m_cumulative->setChecked(true);
    m_cumulative->setToolTip(QStringLiteral("heat map: load over steps 1..current (checked) or in this step only"));
    layout->addWidget(m_cumulative);
    addExplodeControls(layout);
    addSliceControls(layout);
    connect(m_modeBox, &QComboBox::currentIndexChanged, this, [this] { emit modeChanged(mode()); });
    connect(m_cumulative, &QCheckBox::toggled, this, &ViewControls::cumulativeToggled);
}

ViewMode ViewControls::mode() const
{
    return static_cast<ViewMode>(m_modeBox->currentData().toInt());
}

QString ViewControls::modeText() const
{
    return m_modeBox->currentText();
}

bool ViewControls::cumulative() const
{
    return m_cumulative->isChecked();
}

void ViewControls::setMode(ViewMode mode)
{
    for (int i = 0; i < m_modeBox->count(); ++i)
        if (m_modeBox->itemData(i).toInt() == static_cast<int>(mode))
            m_modeBox->setCurrentIndex(i);
}

void ViewControls::addExplodeControls(QVBoxLayout* layout)
{
    auto* explodeLabel = new QLabel(QStringLiteral("Explode planes (E)"));
    layout->addWidget(explodeLabel);
    m_explodeSlider = new QSlider(Qt::Horizontal);
    m_explodeSlider->setObjectName(QStringLiteral("explodeSlider"));
    m_explodeSlider->setRange(0, static_cast<int>(kMaxExplode * 10));
    m_explodeSlider->setToolTip(
        QStringLiteral("pull the planes of a 3-D mesh or torus apart so every plane is seen (E: on/off)"));
    layout->addWidget(m_explodeSlider);
    connect(m_explodeSlider, &QSlider::valueChanged, this, [this](int v) {
        if (v != qRound(m_scene->shape().explode() * 10))
            m_scene->shape().setExplode(static_cast<float>(v) / 10.0f);
    });
    connect(&m_scene->shape(), &SceneShape::explodeChanged, this, [this, explodeLabel](float explode) {
        const QSignalBlocker block(m_explodeSlider);
        m_explodeSlider->setValue(qRound(explode * 10));
        m_explodeSlider->setEnabled(m_scene->shape().canExplode());
        explodeLabel->setEnabled(m_scene->shape().canExplode());
        if (m_explodeAction) {
            const QSignalBlocker blockAction(m_explodeAction);
            m_explodeAction->setChecked(explode > 0);
            m_explodeAction->setEnabled(m_scene->shape().canExplode());
        }
    });
}

/// Slice: one plane in full, the others ghosted; "follow" moves to where the step happens.
void ViewControls::addSliceControls(QVBoxLayout* layout)
{
    auto* sliceRow = new QHBoxLayout;
    sliceRow->addWidget(new QLabel(QStringLiteral("Slice")));
    auto* sliceAxis = new QComboBox;
    sliceAxis->setObjectName(QStringLiteral("sliceAxis"));
    sliceAxis->addItem(QStringLiteral("off"), -1);
    sliceAxis->addItem(QStringLiteral("x planes"), 0);
    sliceAxis->addItem(QStringLiteral("y planes"), 1);
    sliceAxis->addItem(QStringLiteral("z planes"), 2);
    sliceAxis->setToolTip(QStringLiteral("show one plane across this axis in full and ghost the others"));
    sliceRow->addWidget(sliceAxis, 1);
    auto* slicePlane = new QSpinBox;
    slicePlane->setObjectName(QStringLiteral("slicePlane"));
    slicePlane->setToolTip(QStringLiteral("the plane shown in full (its coordinate)"));
    slicePlane->setEnabled(false);
    sliceRow->addWidget(slicePlane);
    layout->addLayout(sliceRow);
    auto* sliceFollow = new QCheckBox(QStringLiteral("follow the step"));
    sliceFollow->setObjectName(QStringLiteral("sliceFollow"));
    sliceFollow->setToolTip(QStringLiteral("each step moves the slice to the plane with most of its receivers"));
    layout->addWidget(sliceFollow);
    auto syncSlice = [this, sliceAxis, slicePlane](int dim, int plane) {
        const QSignalBlocker a(sliceAxis), b(slicePlane);
        sliceAxis->setCurrentIndex(std::max(0, sliceAxis->findData(dim)));
        slicePlane->setEnabled(dim >= 0);
        if (dim >= 0 && m_scene->snapshot())
            slicePlane->setRange(0, m_scene->snapshot()->topology().side(dim) - 1);
        slicePlane->setValue(plane);
    };
    connect(sliceAxis, &QComboBox::currentIndexChanged, this, [this, sliceAxis, slicePlane, syncSlice] {
        m_scene->shape().setSlice(sliceAxis->currentData().toInt(), slicePlane->value());
        syncSlice(m_scene->shape().sliceDimension(), m_scene->shape().slicePlane());
    });
    connect(slicePlane, &QSpinBox::valueChanged, this, [this](int plane) {
        if (m_scene->shape().sliceDimension() >= 0)
            m_scene->shape().setSlice(m_scene->shape().sliceDimension(), plane);
    });
    connect(sliceFollow, &QCheckBox::toggled, &m_scene->shape(), &SceneShape::setSliceFollowsStep);
    connect(&m_scene->shape(), &SceneShape::sliceChanged, this, syncSlice);
}

} // namespace topocast::app
