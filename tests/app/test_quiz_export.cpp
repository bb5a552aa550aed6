// File ▸ Export ▸ Quiz and `topocast quiz`: Moodle XML with one question a step and the picture
// of the network before it — which shows the step before in the receiving colour, never the
// step asked about.
#include "export/frameoverlay.h"
#include "export/quiz.h"
#include "helpers.h"
#include "style/scenestyle.h"
#include "temp_dir.h"

#include "topocast/analysis/grade.h"
#include "topocast/io/scenario_json.h"

#include <catch2/catch.hpp>

#include <QFile>
#include <QImage>
#include <QXmlStreamReader>

#include <map>

using namespace topocast;
using namespace topocast::app;
using topocast::testing::TempDir;

namespace {

struct QuizFileQuestion {
    QString type;
    QImage picture;
    std::map<QString, double> answers;
};

/// The questions of a Moodle XML file, read with Qt's XML reader (the category left out).
std::vector<QuizFileQuestion> readQuizFile(const QString& path)
{
    QFile f(path);
    REQUIRE(f.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&f);
    std::vector<QuizFileQuestion> out;
    double fraction = 0;
    bool inAnswer = false;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            const auto name = xml.name();
            if (name == QLatin1String("question") &&
                xml.attributes().value(QLatin1String("type")) != QLatin1String("category"))
                out.push_back({xml.attributes().value(QLatin1String("type")).toString(), {}, {}});
            else if (name == QLatin1String("file") && !out.empty())
                out.back().picture = QImage::fromData(QByteArray::fromBase64(xml.readElementText().toLatin1()), "PNG");
            else if (name == QLatin1String("answer")) {
                fraction = xml.attributes().value(QLatin1String("fraction")).toDouble();
                inAnswer = true;
            } else if (name == QLatin1String("text") && inAnswer) {
                out.back().answers[xml.readElementText()] = fraction;
                inAnswer = false;
            }
        }
    }
    REQUIRE_FALSE(xml.hasError());
    return out;
}

} // namespace

TEST_CASE("quiz export: a question a step, its right answers the step's receivers, its picture the step before",
          "[app][quiz][gl]")
{
    const SnapshotPtr snap =
        buildSnapshot(loadScenario(TOPOCAST_SOURCE_DIR "/resources/scenarios/baseline-binomial-4x4.json"));
    TempDir dir;
    const QString out = QString::fromStdString((dir.path / "q.xml").string());
    QuizSettings settings;
    settings.view.size = QSize(800, 640);
    settings.request = QStringLiteral("test");
    const QuizResult r = writeQuiz(snap, out, settings);
    CHECK(r.questions == 4);
    CHECK(r.numerical == 0);
    const std::vector<QuizFileQuestion> questions = readQuizFile(out);
    REQUIRE(questions.size() == 4);
    // Where the view sits in each picture (its legend strip below), as writeQuiz lays it out.
    const LegendStrip legend = legendStrip(*snap, ViewMode::Plain, true, Palette::normal());
    FrameOverlay overlay;
    overlay.legend = true;
    const QRect view = overlayLayout(settings.view.size, overlay, legend).view;
    const QColor receiving = Palette::normal().receiving.to<QColor>();
    for (std::uint32_t k = 1; k <= 4; ++k) {
        INFO("step " << k);
        const QuizFileQuestion& q = questions[k - 1];
        CHECK(q.type == QStringLiteral("multichoice"));
        std::set<QString> right;
        for (const auto& [text, fraction] : q.answers)
            if (fraction > 0)
                right.insert(text);
        std::set<QString> receivers;
        for (NodeId n : stepReceivers(snap->schedule, StepNo{k}))
            receivers.insert(QString::fromStdString(snap->topology().nodeName(n)));
        CHECK(right == receivers);
        REQUIRE(q.picture.size() == settings.view.size);
        // Before step k the receiving colour marks step k − 1's receivers (none before step 1).
        const int before = k == 1 ? 0 : static_cast<int>(stepReceivers(snap->schedule, StepNo{k - 1}).size());
        CHECK(test::colourBlobs(q.picture, view, receiving) == before);
    }
    settings.firstStep = 3;
    settings.lastStep = 9;
    CHECK_THROWS_WITH(writeQuiz(snap, out, settings), "steps 3-9 are not within the schedule's steps 1..4");
}
