#pragma once

// Text for XML and SVG files: the five escapes, for names that come from users.

#include <string>
#include <string_view>

namespace topocast {

/// `s` with & < > " ' escaped, for XML attribute values and text. O(|s|).
inline std::string xmlEscaped(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&apos;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

} // namespace topocast
