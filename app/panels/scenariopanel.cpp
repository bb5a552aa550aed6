#include "panels/scenariopanel.h"

#include "topocast/algorithms/registry.h"
#include "topocast/io/network_file.h"
#include "topocast/model/error.h"
#include "topocast/model/network.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>

namespace topocast::app {

namespace {
/// The algorithm called `name`, or null.
const AlgorithmInfo* algorithmNamed(const QString& name)
{
    for (const AlgorithmInfo& a : algorithms())
        if (QString::fromStdString(a.name) == name)
            return &a;
    return nullptr;
}

/// The panel's fields for `algorithm`: its declared parameters (param_spec.h) but mode, pattern
/// (their own choosers), the dimension order and choices with nothing to choose.
std::vector<ParamSpec> fieldSpecs(const QString& algorithm)
{
    std::vector<ParamSpec> out;
    if (const AlgorithmInfo* info = algorithmNamed(algorithm))
        for (const ParamSpec& p : panelParamSpecs(*info))
            if (p.kind != ParamSpec::Kind::Choice || p.choices.size() > 1)
                out.push_back(p);
    return out;
}
} // namespace

/// The network model's fields: preset (with Load…) and the values a class varies, each with its
/// unit; the times of the Time vs size dock, the metrics table and the exports use it.
QWidget* ScenarioPanel::buildNetworkFields()
{
    auto* netBox = new QWidget;
    auto* netForm = new QFormLayout(netBox);
    netForm->setContentsMargins(0, 0, 0, 0);
    m_netPreset = new QComboBox;
    for (const auto& [name, what] : networkPresets()) {
        m_netPreset->addItem(QString::fromStdString(name));
        m_netPreset->setItemData(m_netPreset->count() - 1, QString::fromStdString(what), Qt::ToolTipRole);
    }
    m_netPreset->addItem(QStringLiteral("custom"));
    auto* netRow = new QWidget;
    auto* netRowLayout = new QHBoxLayout(netRow);
    netRowLayout->setContentsMargins(0, 0, 0, 0);
    netRowLayout->addWidget(m_netPreset, 1);
    auto* load = new QPushButton(QStringLiteral("Load…"));
    load->setToolTip(QStringLiteral("a network model from a file: the fit of measured times (topocast-cli measured "
                                    "--network-out), a scenario, or time --json"));
    netRowLayout->addWidget(load);
    connect(load, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, QStringLiteral("Network model"), QString(),
                                                          QStringLiteral("JSON (*.json)"));
        if (file.isEmpty())
            return;
        try {
            loadNetwork(file);
        } catch (const Error& e) {
            QMessageBox::warning(this, QStringLiteral("Network model"), QString::fromStdString(e.what()));
        }
    });
    netForm->addRow(QStringLiteral("Network"), netRow);
    const std::pair<const char*, const char*> netKeys[] = {{"message", "Message size"},
                                                           {"bandwidth", "Bandwidth"},
                                                           {"latency", "Latency L"},
                                                           {"hop_latency", "Per hop"},
                                                           {"ports", "Ports"}};
    for (const auto& [key, label] : netKeys) {
        auto* edit = new QLineEdit;
        edit->setToolTip(QStringLiteral("%1 of the network model, with its unit (1MiB, 12.5GB/s, 1us, 10ns, one-port, "
                                        "half-duplex or all-port): the times of the Time vs size dock use it")
                             .arg(QString::fromLatin1(label)));
        connect(edit, &QLineEdit::editingFinished, this, [this] { changed(); });
        netForm->addRow(QString::fromLatin1(label), edit);
        m_netFields.emplace_back(QString::fromLatin1(key), edit);
    }
    connect(m_netPreset, &QComboBox::currentIndexChanged, this, [this] {
        if (m_updating || m_netPreset->currentText() == QLatin1String("custom"))
            return;
        // Another preset: its values in the fields, the message size kept.
        NetworkModel m = networkPreset(m_netPreset->currentText().toStdString());
        if (QLineEdit* size = networkField(QStringLiteral("message")); size && !size->text().trimmed().isEmpty())
            setNetworkField(m, "message", size->text().trimmed().toStdString());
        showNetwork(m);
        changed();
    });
    return netBox;
}

ScenarioPanel::ScenarioPanel(QWidget* parent) : QWidget(parent)
{
    auto* form = new QFormLayout(this);
    m_kind = new QComboBox;
    m_kind->addItems({QStringLiteral("2-D mesh"), QStringLiteral("3-D mesh"), QStringLiteral("2-D torus"),
                      QStringLiteral("3-D torus"), QStringLiteral("hypercube"), QStringLiteral("1-D mesh (path)"),
                      QStringLiteral("1-D torus (ring)")});
    form->addRow(QStringLiteral("Topology"), m_kind);

    auto* sides = new QWidget;
    auto* sidesLayout = new QHBoxLayout(sides);
    sidesLayout->setContentsMargins(0, 0, 0, 0);
    for (auto*& box : m_sides) {
        box = new QSpinBox;
        box->setRange(1, 64);
        box->setValue(8);
        sidesLayout->addWidget(box);
        connect(box, &QSpinBox::valueChanged, this, [this] {
            updateAlgorithms();
            changed();
        });
    }
    m_cubeDim = new QSpinBox;
    m_cubeDim->setRange(1, 10);
    m_cubeDim->setValue(4);
    m_cubeDim->setToolTip(QStringLiteral("hypercube dimension n (2^n nodes; the view draws up to n = 10)"));
    sidesLayout->addWidget(m_cubeDim);
    connect(m_cubeDim, &QSpinBox::valueChanged, this, [this] {
        updateAlgorithms();
        changed();
    });
    m_sidesLabel = new QLabel(QStringLiteral("Sides"));
    form->addRow(m_sidesLabel, sides);

    m_algorithm = new QComboBox;
    for (const AlgorithmInfo& a : algorithms()) {
        m_algorithm->addItem(QString::fromStdString(a.name));
        m_algorithm->setItemData(m_algorithm->count() - 1, QString::fromStdString(a.summary), Qt::ToolTipRole);
    }
    form->addRow(QStringLiteral("Algorithm"), m_algorithm);
    // Algorithms that do not apply are greyed out in the list with the reason as their tooltip; this
    // one line appears only when the chosen one does not apply.
    m_whyNot = new QLabel;
    m_whyNot->setWordWrap(true);
    m_whyNot->setStyleSheet(QStringLiteral("color: #e69f00"));
    m_whyNot->hide();
    form->addRow(m_whyNot);
    m_mode = new QComboBox;
    form->addRow(QStringLiteral("Mode"), m_mode);
    m_pattern = new QComboBox;
    form->addRow(QStringLiteral("Pattern"), m_pattern);
    m_paramBox = new QWidget;
    m_paramForm = new QFormLayout(m_paramBox);
    m_paramForm->setContentsMargins(0, 0, 0, 0);
    form->addRow(m_paramBox);
    m_source = new QLineEdit;
    m_source->setToolTip(
        QStringLiteral("source node: coordinates \"x,y,z\" (or a hypercube address); click a node to choose"));
    form->addRow(QStringLiteral("Source"), m_source);

    form->addRow(buildNetworkFields());
    showNetwork(NetworkModel{});

    connect(m_kind, &QComboBox::currentIndexChanged, this, [this] {
        updateKind();
        updateAlgorithms();
        changed();
    });
    connect(m_algorithm, &QComboBox::currentIndexChanged, this, [this] {
        updateWhyNot();
        updateParameters();
        changed();
    });
    connect(m_mode, &QComboBox::currentIndexChanged, this, [this] { changed(); });
    connect(m_pattern, &QComboBox::currentIndexChanged, this, [this] {
        updateSourceField();
        changed();
    });
    connect(m_source, &QLineEdit::editingFinished, this, [this] { changed(); });
    updateKind();
    updateAlgorithms();
    updateParameters();
}

QStringList ScenarioPanel::parameterKeys(const QString& algorithm)
{
    QStringList keys;
    for (const ParamSpec& p : fieldSpecs(algorithm))
        keys << QString::fromStdString(p.key);
    return keys;
}

QLineEdit* ScenarioPanel::parameterField(const QString& key) const
{
    for (const auto& [k, edit] : m_params)
        if (k == key)
            return edit;
    return nullptr;
}

void ScenarioPanel::changed()
{
    if (!m_updating)
        emit edited();
}

int ScenarioPanel::kindDims(int kind)
{
    switch (kind) {
    case Mesh1D:
    case Torus1D:
        return 1;
    case Mesh2D:
    case Torus2D:
        return 2;
    default:
        return 3;
    }
}

void ScenarioPanel::updateKind()
{
    const int kind = m_kind->currentIndex();
    const bool cube = kind == Hypercube;
    m_cubeDim->setVisible(cube);
    m_sidesLabel->setText(cube ? QStringLiteral("Dimension n") : QStringLiteral("Sides"));
    const int dims = kindDims(kind);
    const bool torus = kind == Torus1D || kind == Torus2D || kind == Torus3D;
    for (int d = 0; d < 3; ++d) {
        m_sides[d]->setVisible(!cube && d < dims);
        m_sides[d]->setMinimum(torus ? 3 : 1);
    }
}

Topology ScenarioPanel::currentTopology() const
{
    const int kind = m_kind->currentIndex();
    if (kind == Hypercube)
        return Topology::hypercube(m_cubeDim->value());
    const int dims = kindDims(kind);
    std::vector<int> sides;
    for (int d = 0; d < dims; ++d)
        sides.push_back(m_sides[d]->value());
    return (kind == Torus1D || kind == Torus2D || kind == Torus3D) ? Topology::torus(sides) : Topology::mesh(sides);
}

void ScenarioPanel::updateAlgorithms()
{
    Topology topo = Topology::mesh({1});
    try {
        topo = currentTopology();
    } catch (const Error& e) {
        m_whyNot->setText(QString::fromStdString(e.what()));
        m_whyNot->setToolTip(m_whyNot->text());
        m_whyNot->show();
        return;
    }
    auto* model = qobject_cast<QStandardItemModel*>(m_algorithm->model());
    const auto& list = algorithms();
    for (int i = 0; i < m_algorithm->count() && i < static_cast<int>(list.size()); ++i) {
        const AlgorithmInfo& info = list[static_cast<std::size_t>(i)];
        const auto why = info.whyNot(topo);
        if (auto* item = model ? model->item(i) : nullptr) {
            item->setEnabled(!why);
            item->setToolTip(why ? QStringLiteral("Not for this network: %1").arg(QString::fromStdString(*why))
                                 : QString::fromStdString(info.summary));
        }
    }
    updateWhyNot();
}

void ScenarioPanel::updateWhyNot()
{
    // One short line when the current algorithm does not apply; its reason is the item's tooltip.
    auto* model = qobject_cast<QStandardItemModel*>(m_algorithm->model());
    const QStandardItem* item = model ? model->item(m_algorithm->currentIndex()) : nullptr;
    if (!item || item->isEnabled()) {
        m_whyNot->clear();
        m_whyNot->hide();
        return;
    }
    m_whyNot->setText(QStringLiteral("%1 does not apply to this network").arg(m_algorithm->currentText()));
    m_whyNot->setToolTip(item->toolTip());
    m_whyNot->show();
}

void ScenarioPanel::updateParameters()
{
    const bool wasUpdating = m_updating;
    m_updating = true;
    const QString name = m_algorithm->currentText();
    const AlgorithmInfo* info = algorithmNamed(name);
    const QString mode = m_mode->currentText(), pattern = m_pattern->currentText();
    m_mode->clear();
    m_pattern->clear();
    if (info) {
        for (const auto& m : info->modes)
            m_mode->addItem(QString::fromStdString(m));
        for (const auto& p : info->patterns)
            m_pattern->addItem(QString::fromStdString(p));
    }
    if (m_mode->findText(mode) >= 0)
        m_mode->setCurrentText(mode);
    if (m_pattern->findText(pattern) >= 0)
        m_pattern->setCurrentText(pattern);
    m_mode->setEnabled(m_mode->count() > 1);
    m_pattern->setEnabled(m_pattern->count() > 1);
    updateSourceField();

    std::map<QString, QString> old;
    for (const auto& [k, e] : m_params)
        old[k] = e->text();
    while (m_paramForm->rowCount() > 0)
        m_paramForm->removeRow(0);
    m_params.clear();
    for (const ParamSpec& spec : fieldSpecs(name)) {
        const QString key = QString::fromStdString(spec.key);
        auto* edit = new QLineEdit;
        edit->setPlaceholderText(QString::fromStdString(spec.defaultValueText()));
        edit->setToolTip(
            QStringLiteral("%1: %2; default %3%4")
                .arg(QString::fromStdString(spec.help), QString::fromStdString(spec.allowedText()),
                     QString::fromStdString(spec.defaultValueText()),
                     spec.unit.empty() ? QString() : QStringLiteral(" (%1)").arg(QString::fromStdString(spec.unit))));
        edit->setText(old[key]);
        connect(edit, &QLineEdit::editingFinished, this, [this] { changed(); });
        const QString unit =
            spec.unit.empty() ? QString() : QStringLiteral(" (%1)").arg(QString::fromStdString(spec.unit));
        m_paramForm->addRow(QString::fromStdString(spec.label) + unit, edit);
        m_params.emplace_back(key, edit);
    }
    m_paramBox->setVisible(!m_params.empty());
    m_updating = wasUpdating;
}

void ScenarioPanel::setScenario(const Scenario& s)
{
    m_updating = true;
    const Topology& t = s.topology;
    int kind = Mesh3D;
    if (t.isHypercube())
        kind = Hypercube;
    else if (t.isTorus())
        kind = t.dims() == 1 ? Torus1D : t.dims() == 2 ? Torus2D : Torus3D;
    else
        kind = t.dims() == 1 ? Mesh1D : t.dims() == 2 ? Mesh2D : Mesh3D;
    m_kind->setCurrentIndex(kind);
    updateKind();
    if (t.isHypercube())
        m_cubeDim->setValue(t.dims());
    else
        for (int d = 0; d < std::min(3, t.dims()); ++d)
            m_sides[d]->setValue(t.side(d));
    updateAlgorithms();
    m_algorithm->setCurrentText(QString::fromStdString(s.algorithm));
    updateWhyNot();
    updateParameters();
    if (auto m = s.params.find("mode"))
        m_mode->setCurrentText(QString::fromStdString(*m));
    if (auto p = s.params.find("pattern"))
        m_pattern->setCurrentText(QString::fromStdString(*p));
    for (const auto& [k, e] : m_params)
        e->setText(s.params.has(k.toStdString()) ? QString::fromStdString(*s.params.find(k.toStdString())) : QString());
    setSource(t, s.source);
    showNetwork(s.network.value_or(NetworkModel{}));
    m_updating = false;
}

QLineEdit* ScenarioPanel::networkField(const QString& key) const
{
    for (const auto& [k, e] : m_netFields)
        if (k == key)
            return e;
    return nullptr;
}

void ScenarioPanel::loadNetwork(const QString& file)
{
    NetworkModel m = readNetworkFile(file.toStdString());
    if (QLineEdit* size = networkField(QStringLiteral("message")); size && !size->text().trimmed().isEmpty())
        setNetworkField(m, "message", size->text().trimmed().toStdString());
    const bool wasUpdating = m_updating;
    m_updating = true;
    if (m_netPreset->findText(QString::fromStdString(m.preset)) < 0)
        m_netPreset->addItem(QString::fromStdString(m.preset));
    m_updating = wasUpdating;
    showNetwork(m);
    changed();
}

void ScenarioPanel::showNetwork(const NetworkModel& m)
{
    const bool wasUpdating = m_updating;
    m_updating = true;
    m_netPreset->setCurrentText(QString::fromStdString(m.preset));
    for (const auto& [key, text] : networkFields(m))
        if (QLineEdit* edit = networkField(QString::fromStdString(key)))
            edit->setText(QString::fromStdString(text));
    m_updating = wasUpdating;
}

void ScenarioPanel::updateSourceField()
{
    // Allgather, alltoall, reduce-scatter, allreduce: every node starts with data; no source to pick.
    bool root = true;
    try {
        root = m_pattern->count() == 0 || hasRoot(parsePattern(m_pattern->currentText().toStdString()));
    } catch (const Error&) {
    }
    m_source->setEnabled(root);
    m_source->setToolTip(
        root ? QStringLiteral("source node: coordinates \"x,y,z\" (or a hypercube address); click a node to choose")
             : QStringLiteral("a %1 has no source: every node starts with its own data").arg(m_pattern->currentText()));
}

void ScenarioPanel::setSource(const Topology& topology, NodeId source)
{
    m_source->setText(source < topology.nodeCount() ? QString::fromStdString(topology.nodeName(source)) : QString());
}

Scenario ScenarioPanel::scenario(Scenario s) const
{
    if (const Topology t = currentTopology(); !(t == s.topology)) {
        s.topology = t;
        s.compare.reset(); // a comparison shares one network
    }
    s.params = Params{};
    s.algorithm = m_algorithm->currentText().toStdString();
    if (m_mode->count() > 0 && m_mode->currentIndex() > 0)
        s.params.set("mode", m_mode->currentText().toStdString());
    if (m_pattern->count() > 0 && m_pattern->currentIndex() > 0)
        s.params.set("pattern", m_pattern->currentText().toStdString());
    for (const auto& [k, e] : m_params) {
        const QString v = e->text().trimmed();
        if (!v.isEmpty())
            s.params.set(k.toStdString(), v.toStdString());
    }
    const QString src = m_source->text().trimmed();
    s.source = src.isEmpty() ? NodeId{0} : s.topology.parseNode(src.toStdString());
    // The network: the scenario's (or the default), another preset where one was chosen, and
    // every field that says something else than it does.
    NetworkModel m = s.network.value_or(NetworkModel{});
    if (const std::string preset = m_netPreset->currentText().toStdString(); preset != m.preset && preset != "custom") {
        const std::uint64_t size = m.message;
        m = networkPreset(preset);
        m.message = size;
    }
    for (const auto& [key, edit] : m_netFields) {
        const std::string text = edit->text().trimmed().toStdString();
        const auto fields = networkFields(m);
        const std::string name = key.toStdString();
        const auto now = std::find_if(fields.begin(), fields.end(), [&](const auto& f) { return f.first == name; });
        if (!text.empty() && (now == fields.end() || now->second != text))
            setNetworkField(m, name, text);
    }
    checkNetworkModel(m);
    if (s.network || !(m == NetworkModel{}))
        s.network = m;
    return s;
}

} // namespace topocast::app
