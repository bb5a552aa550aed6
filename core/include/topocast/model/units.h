#pragma once

// Quantities with units, as the network model takes them on the command line and in files:
// sizes ("64B", "8KiB", "1MiB", "1.5GB"), durations ("1us", "2500ns", "1.5 ms", "0") and
// bandwidths ("12.5GB/s", "100Gbit/s", or a time per byte, "6ns/B", as LogGP's G is given).
// A number without a unit is refused where a unit is needed (only 0 is the same in every unit),
// so "--latency 1" never means one second by accident.

#include <cstdint>
#include <string>
#include <string_view>

namespace topocast {

/// `text` as a whole number of bytes: a number and one of B, KB, MB, GB, TB (powers of 1000),
/// KiB, MiB, GiB, TiB (powers of 1024); spaces between them allowed, units case-sensitive as
/// written here (k and kB accepted for KB). The result must be whole (1.5KiB = 1536 B; 1.5B is
/// refused) and at most 2^50 (1 PiB). Throws Error naming `what`, the text and the units allowed.
std::uint64_t parseBytes(std::string_view text, std::string_view what);

/// `text` as seconds: a number and one of s, ms, us (or µs), ns, ps; "0" alone is allowed.
/// Non-negative and finite. Throws Error naming `what`, the text and the units allowed.
double parseSeconds(std::string_view text, std::string_view what);

/// `text` as seconds per byte (the inverse of a bandwidth): a rate in B/s, KB/s, MB/s, GB/s,
/// TB/s, KiB/s, MiB/s, GiB/s (bytes) or bit/s, Kbit/s, Mbit/s, Gbit/s, Tbit/s, Gb/s … (bits, 8 to
/// the byte), or a time per byte ("6ns/B", "0.08ns/B"). Positive and finite: a zero or negative
/// bandwidth is refused. Throws Error naming `what`, the text and the forms allowed.
double parseSecondsPerByte(std::string_view text, std::string_view what);

/// A size as people read it: "64 B", "1 KiB", "1.5 MiB", "1000 B" (binary prefixes where the
/// size is a whole or half multiple of one, else bytes). Never throws.
std::string formatSize(std::uint64_t bytes);
/// The same in the compact form the parsers take back: "64B", "1KiB", "1536B". Never throws.
std::string compactSize(std::uint64_t bytes);

/// A duration with its unit, up to 6 significant digits, in the largest unit not below 1:
/// "2.5 us", "1.5 ms", "12 ns", "0 s". ASCII ("us") so the parsers read it back. Never throws.
std::string formatSeconds(double seconds);
/// The same without the space ("2.5us"), as files hold it. Never throws.
std::string compactSeconds(double seconds);

/// A bandwidth from seconds per byte: "12.5 GB/s", "166.667 MB/s" (decimal prefixes, as link
/// rates are quoted). Never throws.
std::string formatBandwidth(double secondsPerByte);
/// The compact form the parser reads back exactly: "12.5GB/s" where that is exact, else the
/// time per byte ("6ns/B"). Never throws.
std::string compactBandwidth(double secondsPerByte);

} // namespace topocast
