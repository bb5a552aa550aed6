#pragma once

#include "topocast/model/params.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace topocast {

/// One parameter an algorithm takes, declared once in the registry (AlgorithmInfo::params): the
/// CLI's options, the scenario check and the app's panel are built from these declarations, and
/// the algorithms read their values through them (defaults and ranges included).
struct ParamSpec {
    /// Choice: one of `choices`; Integer, Number: within [min, max]; Text: checked by the
    /// algorithm (a dimension order such as "yx", whose letters depend on the network).
    enum class Kind { Choice, Integer, Number, Text };
    std::string key;   ///< the Params key: "message", "layers", "mode"
    std::string label; ///< in words for the panel: "message size M"
    Kind kind = Kind::Number;
    std::vector<std::string> choices;      ///< Choice: the allowed values; the first is the default
    std::vector<std::string> alsoAccepted; ///< Choice: accepted too, not listed ("one-port" for "one")
    std::string textAllowed;               ///< Text: what is allowed, in words
    double min = 0.0;                      ///< Integer, Number: the allowed range, inclusive
    double max = 0.0;
    bool minExcluded = false;         ///< Number: the value must be above min ("> 0")
    std::optional<double> byDefault;  ///< Integer, Number: the default; empty: see defaultText
    std::string defaultText;          ///< how the default is chosen when it is not a number ("= M")
    std::string unit;                 ///< "elements", "s", "bytes"; empty if none
    std::string help;                 ///< one line: what it means, where it comes from
    std::vector<std::string> aliases; ///< other keys accepted for it ("ports" for divisible-load's p)

    /// What is allowed, in words: "optimal, eye-best, paper", "a whole number 1..1073741824",
    /// "a number ≥ 0", "a number > 0".
    std::string allowedText() const;
    /// The default in words: "optimal", "1", "= M".
    std::string defaultValueText() const;
};

/// The declaration of `key` (or of a parameter that has it as an alias) among `specs`; null if none.
const ParamSpec* findParam(const std::vector<ParamSpec>& specs, std::string_view key);

/// Checks `params` against `specs`: a key that is not declared (nor an alias) is refused naming
/// the keys `algorithm` takes; a whole number or number outside its declared range, or not a
/// number, is refused naming what is allowed; so is a choice outside `choices` and `alsoAccepted`
/// ("binomial does not take pattern 'scatter'; allowed: broadcast"). Texts are checked where the
/// algorithm reads them. Empty values count as not given.
void checkParams(std::string_view algorithm, const std::vector<ParamSpec>& specs, const Params& params);

/// A number as the declarations print it: whole numbers without a decimal point, else %g.
std::string paramNumberText(double v);

/// An algorithm's parameters as the types their declarations give, parsed once per build
/// (parseParams): a choice or a text as text, a whole number, a number; under the declared key
/// (aliases resolved), with the declared default where there is one. The algorithms read these,
/// never the text of Params.
class ParamValues {
public:
    using Value = std::variant<std::string, long long, double>;

    /// Whether `key` has a value, given or by default.
    bool has(std::string_view key) const { return m_values.find(key) != m_values.end(); }
    /// Whether the user gave `key` (a default does not count).
    bool given(std::string_view key) const { return m_given.find(key) != m_given.end(); }
    /// The value of a choice or text; `fallback` for a key without one.
    std::string text(std::string_view key, std::string_view fallback = {}) const;
    /// The value of a whole-number parameter; `fallback` for a key without one.
    long long integer(std::string_view key, long long fallback = 0) const;
    /// The value of a number parameter; `fallback` for a key without one.
    double number(std::string_view key, double fallback = 0.0) const;

    /// These values with `key` set to `value` (as given): a build that changes one thing.
    ParamValues with(const std::string& key, Value value) const;
    void set(const std::string& key, Value value, bool given);

private:
    std::map<std::string, Value, std::less<>> m_values;
    std::set<std::string, std::less<>> m_given;
};

/// checkParams, then every declared parameter of `specs` as its type (ParamValues). Throws Error
/// as checkParams and the typed readers below do. O(params).
ParamValues parseParams(std::string_view algorithm, const std::vector<ParamSpec>& specs, const Params& params);

/// The value of a declared parameter (its aliases read too), or its default. Throws Error as
/// checkParams does for a bad value.
std::string choiceParam(const ParamSpec& spec, const Params& params);
long long intParam(const ParamSpec& spec, const Params& params);
double numberParam(const ParamSpec& spec, const Params& params);
/// The text given for `spec` under its key or an alias; empty if none.
std::optional<std::string> givenParam(const ParamSpec& spec, const Params& params);

} // namespace topocast
