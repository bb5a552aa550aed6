#include "topocast/algorithms/param_spec.h"

#include "topocast/model/error.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace topocast {

std::string paramNumberText(double v)
{
    if (v == std::floor(v) && std::fabs(v) < 1e15)
        return fmt::format("{}", static_cast<long long>(v));
    return fmt::format("{:g}", v);
}

namespace {

std::string choicesText(const std::vector<std::string>& choices)
{
    std::vector<std::string> shown;
    for (const std::string& c : choices)
        shown.push_back(c.empty() ? "(none)" : c);
    return fmt::format("{}", fmt::join(shown, ", "));
}

constexpr double kHuge = 1e300;

std::string rangeText(const ParamSpec& s)
{
    const std::string what = s.kind == ParamSpec::Kind::Integer ? "a whole number" : "a number";
    if (s.min <= -kHuge && s.max >= kHuge)
        return what;
    if (s.max >= kHuge)
        return fmt::format("{} {} {}", what, s.minExcluded ? ">" : "≥", paramNumberText(s.min));
    if (s.min <= -kHuge)
        return fmt::format("{} ≤ {}", what, paramNumberText(s.max));
    return fmt::format("{} {}..{}", what, paramNumberText(s.min), paramNumberText(s.max));
}

} // namespace

std::string ParamSpec::allowedText() const
{
    if (kind == Kind::Text)
        return textAllowed;
    return kind == Kind::Choice ? choicesText(choices) : rangeText(*this);
}

std::string ParamSpec::defaultValueText() const
{
    if (kind == Kind::Text)
        return defaultText;
    if (kind == Kind::Choice)
        return choices.empty() || choices.front().empty() ? defaultText : choices.front();
    return byDefault ? paramNumberText(*byDefault) : defaultText;
}

const ParamSpec* findParam(const std::vector<ParamSpec>& specs, std::string_view key)
{
    for (const ParamSpec& s : specs)
        if (s.key == key || std::find(s.aliases.begin(), s.aliases.end(), key) != s.aliases.end())
            return &s;
    return nullptr;
}

std::optional<std::string> givenParam(const ParamSpec& spec, const Params& params)
{
    if (auto v = params.find(spec.key))
        return v;
    for (const std::string& a : spec.aliases)
        if (auto v = params.find(a))
            return v;
    return std::nullopt;
}

std::string choiceParam(const ParamSpec& spec, const Params& params)
{
    const auto text = givenParam(spec, params);
    if (!text)
        return spec.choices.empty() ? std::string() : spec.choices.front();
    if (std::find(spec.choices.begin(), spec.choices.end(), *text) == spec.choices.end() &&
        std::find(spec.alsoAccepted.begin(), spec.alsoAccepted.end(), *text) == spec.alsoAccepted.end())
        throw Error(fmt::format("unknown {} '{}'; allowed: {}", spec.key, *text, spec.allowedText()));
    return *text;
}

long long intParam(const ParamSpec& spec, const Params& params)
{
    const auto text = givenParam(spec, params);
    const long long fallback = spec.byDefault ? static_cast<long long>(*spec.byDefault) : 0;
    if (!text)
        return fallback;
    Params one;
    one.set(spec.key, *text);
    long long v = 0;
    try {
        v = one.getInt(spec.key, fallback, std::numeric_limits<long long>::min(),
                       std::numeric_limits<long long>::max());
    } catch (const Error&) {
        throw Error(fmt::format("parameter {} = '{}' is not {}", spec.key, *text, spec.allowedText()));
    }
    if (static_cast<double>(v) < spec.min || static_cast<double>(v) > spec.max)
        throw Error(fmt::format("parameter {} = {} is out of range; allowed: {}", spec.key, *text, spec.allowedText()));
    return v;
}

double numberParam(const ParamSpec& spec, const Params& params)
{
    const auto text = givenParam(spec, params);
    const double fallback = spec.byDefault.value_or(0.0);
    if (!text)
        return fallback;
    Params one;
    one.set(spec.key, *text);
    double v = 0.0;
    try {
        v = one.getDouble(spec.key, fallback);
    } catch (const Error&) {
        throw Error(fmt::format("parameter {} = '{}' is not {}", spec.key, *text, spec.allowedText()));
    }
    if (v < spec.min || v > spec.max || (spec.minExcluded && v == spec.min))
        throw Error(fmt::format("parameter {} = {} is out of range; allowed: {}", spec.key, *text, spec.allowedText()));
    return v;
}

void checkParams(std::string_view algorithm, const std::vector<ParamSpec>& specs, const Params& params)
{
    for (const auto& [key, value] : params.values()) {
        if (value.empty())
            continue;
        const ParamSpec* spec = findParam(specs, key);
        if (!spec) {
            std::vector<std::string> keys;
            for (const ParamSpec& s : specs)
                keys.push_back(s.key);
            throw Error(keys.empty() ? fmt::format("{} takes no parameters; got {} = '{}'", algorithm, key, value)
                                     : fmt::format("{} takes no parameter '{}'; its parameters: {}", algorithm, key,
                                                   fmt::join(keys, ", ")));
        }
        Params one;
        one.set(spec->key, value);
        // Every declared choice is enforced here, once for every algorithm (a baseline given
        // --pattern scatter used to build a broadcast); numbers against their declared range;
        // texts (a dimension order) where the algorithm reads them.
        if (spec->kind == ParamSpec::Kind::Choice &&
            std::find(spec->choices.begin(), spec->choices.end(), value) == spec->choices.end() &&
            std::find(spec->alsoAccepted.begin(), spec->alsoAccepted.end(), value) == spec->alsoAccepted.end())
            throw Error(
                fmt::format("{} does not take {} '{}'; allowed: {}", algorithm, spec->key, value, spec->allowedText()));
        if (spec->kind == ParamSpec::Kind::Integer)
            intParam(*spec, one);
        else if (spec->kind == ParamSpec::Kind::Number)
            numberParam(*spec, one);
    }
}

std::string ParamValues::text(std::string_view key, std::string_view fallback) const
{
    const auto it = m_values.find(key);
    if (it == m_values.end())
        return std::string(fallback);
    if (const auto* v = std::get_if<std::string>(&it->second))
        return *v;
    throw Error(fmt::format("parameter {} is a number, not a text", key));
}

long long ParamValues::integer(std::string_view key, long long fallback) const
{
    const auto it = m_values.find(key);
    if (it == m_values.end())
        return fallback;
    if (const auto* v = std::get_if<long long>(&it->second))
        return *v;
    throw Error(fmt::format("parameter {} is not a whole number", key));
}

double ParamValues::number(std::string_view key, double fallback) const
{
    const auto it = m_values.find(key);
    if (it == m_values.end())
        return fallback;
    if (const auto* v = std::get_if<double>(&it->second))
        return *v;
    if (const auto* v = std::get_if<long long>(&it->second))
        return static_cast<double>(*v);
    throw Error(fmt::format("parameter {} is a text, not a number", key));
}

ParamValues ParamValues::with(const std::string& key, Value value) const
{
    ParamValues copy = *this;
    copy.set(key, std::move(value), true);
    return copy;
}

void ParamValues::set(const std::string& key, Value value, bool given)
{
    m_values[key] = std::move(value);
    if (given)
        m_given.insert(key);
    else
        m_given.erase(key);
}

ParamValues parseParams(std::string_view algorithm, const std::vector<ParamSpec>& specs, const Params& params)
{
    checkParams(algorithm, specs, params);
    ParamValues values;
    for (const ParamSpec& spec : specs) {
        const bool given = givenParam(spec, params).has_value();
        switch (spec.kind) {
        case ParamSpec::Kind::Choice:
            if (given || !spec.choices.empty())
                values.set(spec.key, choiceParam(spec, params), given);
            break;
        case ParamSpec::Kind::Text:
            if (given)
                values.set(spec.key, *givenParam(spec, params), true);
            break;
        case ParamSpec::Kind::Integer:
            if (given || spec.byDefault)
                values.set(spec.key, intParam(spec, params), given);
            break;
        case ParamSpec::Kind::Number:
            if (given || spec.byDefault)
                values.set(spec.key, numberParam(spec, params), given);
            break;
        }
    }
    return values;
}

} // namespace topocast
