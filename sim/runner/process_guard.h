#pragma once
// What must not outlive the starfish command: its trial processes (and the
// helpers it runs) and the temporary files it is writing.
//
// Two mechanisms, because a process killed with SIGKILL cannot clean up:
//   * every trial process asks the kernel to kill it when its parent dies
//     (PR_SET_PDEATHSIG), so no trial runs on after `kill -KILL <starfish>`;
//   * on SIGINT, SIGTERM and SIGHUP the command itself kills every child it
//     tracks (SIGKILL, by pid), removes the temporary files it tracks, and then
//     dies of the same signal (so its parent sees the usual status).
// The handlers are installed on the first use of either list, and only for
// signals whose disposition is still the default (an ignored SIGHUP under nohup
// stays ignored).

#include <string>
#include <sys/types.h>

namespace starfish::sim {

// In a forked child, first thing: SIGKILL when the parent dies; exits at once
// when the parent is already gone. `parent` is the pid before the fork.
void die_with_parent(pid_t parent);

// In a forked child: the signals this guard handles get their default action
// back (a child must die of them, not run the parent's cleanup).
void restore_default_signals();

// Children to kill (SIGKILL) if this command is interrupted. At most 1024 at once.
void track_child(pid_t pid);
void untrack_child(pid_t pid);

// Temporary files to remove if this command is interrupted. At most 256 at once.
void track_temporary(const std::string &path);
void untrack_temporary(const std::string &path);

} // namespace starfish::sim
