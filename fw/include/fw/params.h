/* The firmware's own configuration parameters, declared where the firmware is:
 * the cost of each piece of firmware work (cost.msg_*, cost.scsi_*, cost.ddio_*,
 * ...), the messaging sizes (msg.*), the file system (fs.*, ddio.*), the transfer
 * request (workload.pattern, ...) and the communication self-test (commtest.*).
 *
 * A constant table, one entry per parameter, under the names of fw/param_keys.h.
 * The simulator turns it into configuration-registry entries (the starfish_params
 * library), which validate every value before a run starts, so the firmware reads
 * its parameters with hal_config_* without checking their ranges again. Checks
 * across parameters (msg.rx_ring_slots a power of two, commtest.sweep_words a
 * list, ...) are registered beside that conversion. */
#ifndef STARFISH_FW_PARAMS_H
#define STARFISH_FW_PARAMS_H

#include "fw/param_keys.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fw_param_type {
    FW_PARAM_INT,
    FW_PARAM_REAL,
    FW_PARAM_BOOL, /* read as 0/1 with hal_config_int */
    FW_PARAM_STRING
} fw_param_type_t;

/* fw_param_decl_t.flags: a boolean that older configuration files gave as 0/1;
 * those still load, with a deprecation warning naming the key. */
#define FW_PARAM_ACCEPTS_0_1 1u

typedef struct fw_param_decl {
    const char *key; /* FW_KEY_* */
    fw_param_type_t type;
    double def;             /* default of an Int (a whole number), a Real or a Bool (0/1) */
    const char *def_text;   /* default of a String */
    const char *unit;       /* "" when dimensionless */
    double min, max;        /* Int and Real: allowed values, inclusive */
    const char *choices;    /* String: the allowed values as "a|b|c"; "" allows any text */
    const char *meaning;    /* one line */
    const char *provenance; /* where the default comes from: given / derived / estimate /
                               convention, with its source */
    unsigned flags;
} fw_param_decl_t;

/* The table and its length. */
const fw_param_decl_t *fw_param_decls(size_t *count);

#ifdef __cplusplus
}
#endif

#endif
