#include "style/scenestyle.h"

namespace topocast::app {

QString viewModeName(ViewMode mode)
{
    return QString::fromLatin1(colour::kColourModes[static_cast<std::size_t>(mode)].name);
}

std::optional<ViewMode> parseViewMode(const QString& text)
{
    if (const auto i = colour::colourModeIndex(text.toStdString()))
        return static_cast<ViewMode>(*i);
    return std::nullopt;
}

} // namespace topocast::app
