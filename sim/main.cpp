// The `starfish` command. Subcommands live in sim/cli/cmd_*.cpp.

#include "hw/config/config_error.h"
#include "sim/cli/cmd_config.h"
#include "sim/cli/cmd_disk.h"
#include "sim/cli/cmd_net.h"
#include "sim/cli/cmd_reproduce.h"
#include "sim/cli/cmd_run.h"
#include "sim/cli/cmd_study.h"
#include "sim/cli/common.h"
#include "sim/report/run_result.h"
#include "sim/runner/isolated_run.h"

#include <CLI/CLI.hpp>
#include <systemc>

#include <cstdlib>
#include <iostream>

// The SystemC banner is printed before sc_main runs, so it is switched off by a
// static initialiser.
static const int kNoBanner = ::setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);

int sc_main(int argc, char *argv[]) {
    using namespace starfish::sim;
    // Trial processes must not each print the SystemC banner.

    // A failed run stops the kernel with sc_stop, which SystemC announces as
    // "Info: /OSCI/SystemC: Simulation stopped by user."; the failure's own message
    // says what happened.
    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                            sc_core::SC_DO_NOTHING);

    CLI::App app{"starfish: SystemC/TLM co-simulation of Kotz's disk-directed I/O machine"};
    app.set_version_flag("--version", std::string("starfish ") + starfish_version() + " (SystemC " +
                                          SC_VERSION + ")");
    app.require_subcommand(1);
    int exit_status = kExitOk;
    add_run_command(app, exit_status);
    add_config_command(app, exit_status);
    add_study_command(app, exit_status);
    add_reproduce_command(app, exit_status);
    add_net_command(app, exit_status);
    add_disk_command(app, exit_status);

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp &e) {
        return app.exit(e);
    } catch (const CLI::Success &e) {
        return app.exit(e);
    } catch (const CLI::ParseError &e) {
        app.exit(e);
        return kExitUsage;
    } catch (const starfish::config::ConfigError &e) {
        std::cerr << "starfish: configuration error: " << e.what() << "\n";
        return kExitUsage;
    } catch (const IsolatedRunError &e) {
        std::cerr << "starfish: run failed: " << e.what() << "\n";
        return kExitRunFailed;
    } catch (const std::exception &e) {
        std::cerr << "starfish: error: " << e.what() << "\n";
        return kExitRunFailed;
    }
    return exit_status;
}
