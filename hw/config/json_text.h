#pragma once
// Reading user-written JSON (configuration and study files) so that every problem
// is a ConfigError naming the place: malformed text, a number too large for a
// double (9e999), nesting deeper than kMaxJsonDepth, bytes that are not UTF-8.
// Also the text helpers that keep such input printable in error messages.

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace starfish::config {

// Configuration and study files are a few levels deep; anything deeper is a mistake
// (and would cost stack in code that walks the document).
inline constexpr size_t kMaxJsonDepth = 32;

// Parses `text`; throws ConfigError "origin:line:column: <problem>" on any error.
nlohmann::json parse_json_text(const std::string &text, const std::string &origin);

// "line:column" (1-based) of the byte at offset `byte` (0-based) in text.
std::string line_column(std::string_view text, size_t byte);

// Whether s is well-formed UTF-8 (no overlong forms, surrogates or values above U+10FFFF).
bool is_valid_utf8(std::string_view s);

// s for an error message: control characters and bytes that are not UTF-8 written as
// \xNN, cut after max_chars bytes with "...".
std::string printable(std::string_view s, size_t max_chars = 120);

// Every digit a number needs for an error message (1048576, not 1.04858e+06; 0.1,
// not 0.10000000000000001): whole values below 1e15 as integers, others as the
// shortest %g text that reads back as the same double, so it can be pasted back.
std::string exact_number_text(double v);

// value.dump() that never throws (strings holding invalid UTF-8 are escaped) and is
// cut like printable().
std::string printable_json(const nlohmann::json &value, size_t max_chars = 120);

} // namespace starfish::config
