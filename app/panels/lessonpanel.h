#pragma once

#include "topocast/io/lessons.h"

#include <QString>
#include <QWidget>

#include <set>

class QLabel;
class QPushButton;
class QTextBrowser;
class QUrl;

namespace topocast::app {

/// The Lesson panel: one lesson of the lessons file as core lessonMarkdown writes it for the
/// panel — its goal, its presets as links, what to show and the questions to ask, each answer
/// behind a "Show the answer" link until it is revealed (in the notation the app uses). Under
/// it, Previous and Next open the lesson's presets in order. Shows only; the window opens the
/// presets it asks for (openPreset).
class LessonPanel : public QWidget {
    Q_OBJECT
public:
    explicit LessonPanel(QWidget* parent = nullptr);

    /// Shows `lesson` (number: its place in the book, from 1) with every answer hidden, at its
    /// first preset.
    void setLesson(const Lesson& lesson, std::size_t number);
    const Lesson& lesson() const { return m_lesson; }
    /// The index in lesson().presets of the preset opened last through the panel.
    std::size_t presetIndex() const { return m_preset; }
    /// Reveals the answer of item `index` (what the "Show the answer" link does).
    void reveal(std::size_t index);
    const std::set<std::size_t>& revealed() const { return m_revealed; }
    /// The text shown, as plain text (what a reader sees).
    QString shownText() const;
    /// Follows a link of the text: "open:NAME" asks for the preset, "reveal:N" reveals an answer.
    void follow(const QUrl& link);
    /// Opens the lesson's preset `index` (emits openPreset).
    void openPresetAt(std::size_t index);

signals:
    /// The preset named `name` (its file name without .json) should be opened.
    void openPreset(const QString& name);

private:
    void render();

    Lesson m_lesson;
    std::size_t m_number = 0;
    std::size_t m_preset = 0;
    std::set<std::size_t> m_revealed;
    QTextBrowser* m_text = nullptr;
    QLabel* m_where = nullptr;
    QPushButton* m_previous = nullptr;
    QPushButton* m_next = nullptr;
};

} // namespace topocast::app
