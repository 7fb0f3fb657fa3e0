#pragma once
// Writing an output file whole or not at all: the text goes to a temporary file
// beside it, which is renamed into place, so an interrupted command never leaves
// half a table.

#include <functional>
#include <iosfwd>
#include <string>

namespace starfish::sim {

// Throws std::runtime_error naming the file when it cannot be written.
void write_text_file(const std::string &path, const std::function<void(std::ostream &)> &fill);

} // namespace starfish::sim
