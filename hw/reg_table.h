/* The form of a device's register table. Each device header (hw/ni_regs.h,
 * hw/scsi_regs.h) declares its register map once, as an X-macro list
 *
 *   #define HW_<DEV>_REGISTERS(X)
 *       X(NAME, OFFSET, ACCESS, RESET, COUNT, "meaning") ...
 *
 *   NAME    register name; HW_<DEV>_REG_<NAME> is its byte offset (an enumerator)
 *   OFFSET  byte offset in the device's window, a multiple of 4
 *   ACCESS  RO, WO or RW (as seen from the bus; side effects are in the meaning)
 *   RESET   value read after reset, or HW_REG_RESET_INSTANCE when the instance
 *           sets it (node id, configuration); 0 for write-only registers
 *   COUNT   1, or the length of a register array at OFFSET + 4 i, i < COUNT
 *
 * and its bit fields as
 *
 *   #define HW_<DEV>_FIELDS(F)
 *       F(REGISTER, FIELD, MASK, "meaning") ...
 *
 * where MASK is the C expression of the field's bits (a contiguous run).
 *
 * A device's data formats in memory or in a packet (a frame, a record) are
 * layouts of little-endian 32-bit words, declared as
 *
 *   #define HW_<DEV>_<FORMAT>_LAYOUT(L)
 *       L(FIELD, OFFSET, WORDS, MASK, "meaning") ...
 *
 *   OFFSET  byte offset of the field's (first) word in the format, a multiple of 4
 *   WORDS   1, or the length of a word array (a byte array: its bytes in memory order)
 *   MASK    the field's bits in each of its words (a contiguous run)
 *
 * and a format's enumerated values (a record's kinds) as
 *
 *   #define HW_<DEV>_<THING>S(K)
 *       K(NAME, VALUE, "meaning") ...
 *
 * Everything else is derived from those lists: the offset enumerators, the name
 * lookup, the models' register decoding, the register tables in docs/ and the
 * Verilog includes rtl/include/hw_ni_regs.vh (registers) and hw_ni_frame.vh
 * (layouts and values) (hw/tools/hw_tables.cpp; the
 * hw_tables_current test fails while a generated view is stale, and
 * `cmake --build build --target update_hw_tables` regenerates them). */
#ifndef STARFISH_HW_REG_TABLE_H
#define STARFISH_HW_REG_TABLE_H

#include <stdint.h>

#define HW_REG_ACCESS_RO 1u /* readable */
#define HW_REG_ACCESS_WO 2u /* writable */
#define HW_REG_ACCESS_RW 3u

/* Not a 32-bit value: the reset value depends on the instance. */
#define HW_REG_RESET_INSTANCE 0x100000000ull

typedef struct hw_reg_info {
    const char *name;
    uint32_t offset;
    uint32_t access; /* HW_REG_ACCESS_* */
    uint64_t reset;  /* a 32-bit value or HW_REG_RESET_INSTANCE */
    uint32_t count;
    const char *meaning;
} hw_reg_info_t;

typedef struct hw_layout_info {
    const char *name;
    uint32_t offset; /* bytes */
    uint32_t words;
    uint32_t mask;
    const char *meaning;
} hw_layout_info_t;

typedef struct hw_value_info {
    const char *name;
    uint32_t value;
    const char *meaning;
} hw_value_info_t;

typedef struct hw_field_info {
    const char *reg;
    const char *name;
    uint32_t mask;
    const char *meaning;
} hw_field_info_t;

/* X-macro consumers: a table row as data. */
#define HW_REG_INFO(name, offset, access, reset, count, meaning)                                   \
    {#name, (offset), HW_REG_ACCESS_##access, (reset), (count), (meaning)},
#define HW_FIELD_INFO(reg, name, mask, meaning) {#reg, #name, (mask), (meaning)},
#define HW_LAYOUT_INFO(name, offset, words, mask, meaning)                                         \
    {#name, (offset), (words), (mask), (meaning)},
#define HW_VALUE_INFO(name, value, meaning) {#name, (value), (meaning)},

/* Offsets are enumerators; in C++ they keep the unsigned type the offset macros had. */
#ifdef __cplusplus
#define HW_REG_ENUM(tag) enum tag : uint32_t
#else
#define HW_REG_ENUM(tag) enum tag
#endif

#endif /* STARFISH_HW_REG_TABLE_H */
