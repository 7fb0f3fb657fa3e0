#pragma once
// Writing a whole buffer to a file descriptor (a pipe, a FIFO, a device or a
// temporary file), the one loop the trial processes and the output files share.

#include <string>

namespace starfish::sim {

// Writes all of `data` to `fd`, resuming after short writes and signals. Returns 0,
// or the errno of the write that failed (EIO when one wrote nothing).
int write_fully(int fd, const std::string &data);

} // namespace starfish::sim
