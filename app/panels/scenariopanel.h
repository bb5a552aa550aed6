#pragma once

#include "topocast/scenario/scenario.h"

#include <QWidget>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace topocast::app {

/// Edits a Scenario: topology kind and sides (or hypercube dimension), algorithm (only those
/// that apply are enabled; the others show why not), mode, pattern, the algorithm's parameters
/// and the source. Emits edited() after a change; scenario(base) reads the widgets back onto the
/// scenario being edited, which the panel only shows (its title, view and compare side stay the
/// caller's).
class ScenarioPanel : public QWidget {
    Q_OBJECT
public:
    enum Kind { Mesh2D, Mesh3D, Torus2D, Torus3D, Hypercube, Mesh1D, Torus1D }; // (the order of the chooser)

    explicit ScenarioPanel(QWidget* parent = nullptr);

    /// Shows `scenario` in the widgets without emitting edited().
    void setScenario(const Scenario& scenario);
    /// `base` with the network, algorithm, parameters, source and network model (its size among
    /// them) the widgets describe (title,
    /// description, view kept; the compare side dropped when the network changes). Throws
    /// topocast::Error naming a bad field.
    Scenario scenario(Scenario base) const;
    /// The parameter keys offered for `algorithm` (besides mode/pattern).
    static QStringList parameterKeys(const QString& algorithm);
    /// The parameter field for `key`, or null (for tests).
    QLineEdit* parameterField(const QString& key) const;
    QLineEdit* sourceField() const { return m_source; }
    QComboBox* algorithmBox() const { return m_algorithm; }
    /// The one-line note shown when the chosen algorithm does not apply (hidden otherwise).
    QLabel* whyNotLabel() const { return m_whyNot; }
    QComboBox* kindBox() const { return m_kind; }
    QSpinBox* sideBox(int dim) const { return m_sides[dim]; }
    /// The network model's preset chooser and the field of `key` ("message", "bandwidth",
    /// "latency", "hop_latency", "ports"), or null (for tests).
    QComboBox* networkPresetBox() const { return m_netPreset; }
    QLineEdit* networkField(const QString& key) const;
    /// Shows the network model of `file` (a "network" object: from `measured --network-out`, a
    /// scenario or `time --json`) in the fields, its size kept, and emits edited(). Throws
    /// topocast::Error naming the file and what is wrong with it.
    void loadNetwork(const QString& file);

signals:
    void edited();

private:
    /// Shows `source` (a node of `topology`) in the source field without emitting edited().
    void setSource(const Topology& topology, NodeId source);
    /// The sides a chooser kind has: 1, 2 or 3 (hypercube: 3, unused).
    static int kindDims(int kind);

    /// Disables the source field for a pattern without a source, saying why in its tooltip.
    void updateSourceField();

    Topology currentTopology() const;
    void updateKind();
    void updateAlgorithms();
    void updateWhyNot();
    void updateParameters();
    QWidget* buildNetworkFields();
    /// The network fields, each showing `m`'s value with its unit.
    void showNetwork(const NetworkModel& m);
    void changed();

    QComboBox* m_kind = nullptr;
    QSpinBox* m_sides[3] = {};
    QSpinBox* m_cubeDim = nullptr;
    QLabel* m_sidesLabel = nullptr;
    QComboBox* m_algorithm = nullptr;
    QLabel* m_whyNot = nullptr;
    QComboBox* m_mode = nullptr;
    QComboBox* m_pattern = nullptr;
    QFormLayout* m_paramForm = nullptr;
    QWidget* m_paramBox = nullptr;
    std::vector<std::pair<QString, QLineEdit*>> m_params;
    QLineEdit* m_source = nullptr;
    QComboBox* m_netPreset = nullptr;
    std::vector<std::pair<QString, QLineEdit*>> m_netFields;
    bool m_updating = false;
};

} // namespace topocast::app
