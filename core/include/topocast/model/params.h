#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace topocast {

/// Named algorithm parameters as text ("mode" → "optimal", "tau" → "100"), as they come from the
/// command line or a scenario file. Typed getters convert and throw Error naming the parameter,
/// the value and what is allowed.
class Params {
public:
    Params() = default;
    Params(std::initializer_list<std::pair<const std::string, std::string>> init) : m_values(init) {}

    void set(const std::string& key, std::string value) { m_values[key] = std::move(value); }
    bool has(const std::string& key) const { return m_values.count(key) != 0; }
    void erase(const std::string& key) { m_values.erase(key); }
    const std::map<std::string, std::string>& values() const { return m_values; }

    std::string getString(const std::string& key, const std::string& fallback) const;
    /// Finite number ≥ min (and ≤ max). Throws Error otherwise.
    double getDouble(const std::string& key, double fallback, double min = -1e300, double max = 1e300) const;
    /// Whole number in [min, max]. Throws Error otherwise.
    long long getInt(const std::string& key, long long fallback, long long min, long long max) const;
    std::optional<std::string> find(const std::string& key) const;

    friend bool operator==(const Params&, const Params&) = default;

private:
    std::map<std::string, std::string> m_values;
};

} // namespace topocast
