#pragma once

#include "topocast/model/params.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topocast {

/// One parameter an algorithm takes, declared once in the registry (AlgorithmInfo::params): the
/// CLI's options, the scenario check and the app's panel are built from these declarations, and
/// the algorithms read their values through them (defaults and ranges included).
struct ParamSpec {
    /// Choice: one of `choices`; Integer, Number: within [min, max]; Text: checked by the
    /// algorithm (a dimension order such as "yx", whose letters depend on the network).
    enum class Kind { Choice, Integer, Number, Text };
    std::string key;                   ///< the Params key: "message", "layers", "mode"
    std::string label;                 ///< in words for the panel: "message size M"
    Kind kind = Kind::Number;
    std::vector<std::string> choices;  ///< Choice: the allowed values; the first is the default
    std::vector<std::string> alsoAccepted;  ///< Choice: accepted too, not listed ("one-port" for "one")
    std::string textAllowed;           ///< Text: what is allowed, in words
    double min = 0.0;                  ///< Integer, Number: the allowed range, inclusive
    double max = 0.0;
    bool minExcluded = false;          ///< Number: the value must be above min ("> 0")
    std::optional<double> byDefault;   ///< Integer, Number: the default; empty: see defaultText
    std::string defaultText;           ///< how the default is chosen when it is not a number ("= M")
    std::string unit;                  ///< "elements", "s", "bytes"; empty if none
    std::string help;                  ///< one line: what it means, where it comes from
    std::vector<std::string> aliases;  ///< other keys accepted for it ("ports" for divisible-load's p)

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

/// The value of a declared parameter (its aliases read too), or its default. Throws Error as
/// checkParams does for a bad value.
std::string choiceParam(const ParamSpec& spec, const Params& params);
long long intParam(const ParamSpec& spec, const Params& params);
double numberParam(const ParamSpec& spec, const Params& params);
/// The text given for `spec` under its key or an alias; empty if none.
std::optional<std::string> givenParam(const ParamSpec& spec, const Params& params);

} // namespace topocast
