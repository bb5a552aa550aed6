#include "panels/lessonpanel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace topocast::app {

LessonPanel::LessonPanel(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_text = new QTextBrowser;
    m_text->setObjectName(QStringLiteral("lessonText"));
    m_text->setOpenLinks(false); // the links are the panel's own: open a preset, reveal an answer
    connect(m_text, &QTextBrowser::anchorClicked, this, &LessonPanel::follow);
    layout->addWidget(m_text, 1);
    auto* row = new QHBoxLayout;
    m_previous = new QPushButton(QStringLiteral("◀ Previous scenario"));
    m_next = new QPushButton(QStringLiteral("Next scenario ▶"));
    m_previous->setObjectName(QStringLiteral("lessonPrevious"));
    m_next->setObjectName(QStringLiteral("lessonNext"));
    m_where = new QLabel;
    m_where->setAlignment(Qt::AlignCenter);
    row->addWidget(m_previous);
    row->addWidget(m_where, 1);
    row->addWidget(m_next);
    layout->addLayout(row);
    connect(m_previous, &QPushButton::clicked, this, [this] {
        if (m_preset > 0)
            openPresetAt(m_preset - 1);
    });
    connect(m_next, &QPushButton::clicked, this, [this] { openPresetAt(m_preset + 1); });
}

void LessonPanel::setLesson(const Lesson& lesson, std::size_t number)
{
    m_lesson = lesson;
    m_number = number;
    m_preset = 0;
    m_revealed.clear();
    render();
    m_text->verticalScrollBar()->setValue(0);
}

void LessonPanel::reveal(std::size_t index)
{
    if (index >= m_lesson.items.size() || m_lesson.items[index].ask.empty())
        return;
    m_revealed.insert(index);
    const int scroll = m_text->verticalScrollBar()->value(); // the reader stays where they were
    render();
    m_text->verticalScrollBar()->setValue(scroll);
}

QString LessonPanel::shownText() const
{
    return m_text->toPlainText();
}

void LessonPanel::follow(const QUrl& link)
{
    const QString path = link.path();
    if (link.scheme() == QLatin1String("reveal")) {
        bool ok = false;
        const qulonglong index = path.toULongLong(&ok);
        if (ok)
            reveal(static_cast<std::size_t>(index));
    } else if (link.scheme() == QLatin1String("open")) {
        for (std::size_t i = 0; i < m_lesson.presets.size(); ++i)
            if (QString::fromStdString(m_lesson.presets[i]) == path)
                return openPresetAt(i);
    }
}

void LessonPanel::openPresetAt(std::size_t index)
{
    if (index >= m_lesson.presets.size())
        return;
    m_preset = index;
    render();
    emit openPreset(QString::fromStdString(m_lesson.presets[index]));
}

void LessonPanel::render()
{
    LessonMarkdownOptions options;
    options.panel = true;
    options.revealed = m_revealed;
    m_text->setMarkdown(QString::fromStdString(lessonMarkdown(m_lesson, m_number, options)));
    const std::size_t count = m_lesson.presets.size();
    m_where->setText(count == 0 ? QString()
                                : QStringLiteral("%1 (%2 of %3)")
                                      .arg(QString::fromStdString(m_lesson.presets[m_preset]))
                                      .arg(m_preset + 1)
                                      .arg(count));
    m_previous->setEnabled(m_preset > 0);
    m_next->setEnabled(m_preset + 1 < count);
}

} // namespace topocast::app
