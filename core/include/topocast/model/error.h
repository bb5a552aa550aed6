#pragma once

#include <stdexcept>
#include <string>

namespace topocast {

/// The one exception type that crosses the core boundary. Its message names the bad value and
/// what is allowed ("mesh side 6 is not a power of two; cang-wu needs 2^k"), so front ends can
/// print it as it is. Internal invariants use assert, never Error.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace topocast
