// The register block every device model decodes with (no SystemC): values and
// handlers, every kind of violation reported once through the device's callback,
// register arrays, names, and bad tables refused. Also that the NI and SCSI
// tables of hw/ make valid blocks whose names agree with the C lookup.
#include "hw/ni_regs.h"
#include "hw/node_map.h"
#include "hw/scsi_regs.h"
#include "tlm_models/common/register_block.h"

#include <boost/test/unit_test.hpp>

#include <stdexcept>
#include <string>
#include <vector>

using starfish::common::RegisterBlock;
using starfish::common::RegisterViolation;

namespace {

// A device table written the way hw/ headers write theirs.
#define TEST_REGISTERS(X)                                                                          \
    X(ID, 0x000, RO, 0x1234, 1, "identity")                                                        \
    X(SCRATCH, 0x004, RW, 7, 1, "holds what is written")                                           \
    X(GO, 0x008, WO, 0, 1, "starts something")                                                     \
    X(SLOT, 0x010, RO, HW_REG_RESET_INSTANCE, 4, "array of four")
#define TEST_REG_ENUMERATOR_(name, offset, access, reset, count, meaning) TEST_REG_##name = offset,
enum TestReg : uint32_t { TEST_REGISTERS(TEST_REG_ENUMERATOR_) };
const hw_reg_info_t kTable[] = {TEST_REGISTERS(HW_REG_INFO)};

struct Seen {
    RegisterViolation kind;
    uint32_t offset;
    std::string what;
};

struct Fixture {
    RegisterBlock block{kTable, 0x100};
    std::vector<Seen> seen;
    Fixture() {
        block.on_violation(
            [this](RegisterViolation kind, uint32_t offset, const std::string &what) {
                seen.push_back({kind, offset, what});
            });
    }
};

} // namespace

BOOST_AUTO_TEST_SUITE(register_block)

BOOST_FIXTURE_TEST_CASE(registers_hold_reset_values_and_writes, Fixture) {
    uint32_t v = 0;
    BOOST_TEST(block.read(TEST_REG_ID, v));
    BOOST_TEST(v == 0x1234u);
    BOOST_TEST(block.read(TEST_REG_SCRATCH, v));
    BOOST_TEST(v == 7u);
    BOOST_TEST(block.write(TEST_REG_SCRATCH, 99));
    BOOST_TEST(block.value(TEST_REG_SCRATCH) == 99u);
    BOOST_TEST(block.read(TEST_REG_SLOT + 8, v));
    BOOST_TEST(v == 0u); // an instance-set reset value starts at 0 until the device sets it
    block.set_value(TEST_REG_SLOT + 8, 5);
    BOOST_TEST(block.read(TEST_REG_SLOT + 8, v));
    BOOST_TEST(v == 5u);
    BOOST_TEST(seen.empty());
}

BOOST_FIXTURE_TEST_CASE(handlers_replace_the_value, Fixture) {
    std::vector<std::pair<uint32_t, unsigned>> writes;
    block.on_write(TEST_REG_GO,
                   [&](uint32_t value, unsigned index) { writes.emplace_back(value, index); });
    block.on_read(TEST_REG_SLOT, [](unsigned index) { return 100 + index; });
    BOOST_TEST(block.write(TEST_REG_GO, 3));
    BOOST_TEST(writes.size() == 1u);
    BOOST_TEST(writes[0].first == 3u);
    uint32_t v = 0;
    for (unsigned i = 0; i < 4; ++i) {
        BOOST_TEST(block.read(TEST_REG_SLOT + 4 * i, v));
        BOOST_TEST(v == 100 + i);
    }
    // Handlers attach to a register (an array's first element), nowhere else.
    BOOST_CHECK_THROW(block.on_read(TEST_REG_SLOT + 4, [](unsigned) { return 0u; }),
                      std::logic_error);
    BOOST_CHECK_THROW(block.on_write(0x0c, [](uint32_t, unsigned) {}), std::logic_error);
}

BOOST_FIXTURE_TEST_CASE(each_violation_is_reported_once_and_does_nothing, Fixture) {
    uint32_t v = 0xdead;
    BOOST_TEST(!block.write(TEST_REG_ID, 1));
    BOOST_TEST(!block.read(TEST_REG_GO, v));
    BOOST_TEST(!block.read(0x00c, v));  // a hole
    BOOST_TEST(!block.write(0x006, 1)); // misaligned
    BOOST_TEST(!block.read(0x400, v));  // beyond the window
    BOOST_TEST(v == 0xdeadu);
    BOOST_TEST(block.value(TEST_REG_ID) == 0x1234u);
    BOOST_REQUIRE(seen.size() == 5u);
    BOOST_TEST((seen[0].kind == RegisterViolation::WriteReadOnly));
    BOOST_TEST(seen[0].what == "write to a read-only register");
    BOOST_TEST((seen[1].kind == RegisterViolation::ReadWriteOnly));
    BOOST_TEST(seen[1].offset == uint32_t(TEST_REG_GO));
    BOOST_TEST(seen[1].what == "read of a write-only register");
    BOOST_TEST((seen[2].kind == RegisterViolation::Undefined));
    BOOST_TEST(seen[2].what == "read of an undefined register");
    BOOST_TEST((seen[3].kind == RegisterViolation::Undefined));
    BOOST_TEST(seen[3].what == "write to an undefined register");
    BOOST_TEST((seen[4].kind == RegisterViolation::Undefined));
}

BOOST_FIXTURE_TEST_CASE(write_only_registers_may_read_as_zero, Fixture) {
    block.write_only_reads_zero(true);
    uint32_t v = 1;
    BOOST_TEST(block.read(TEST_REG_GO, v));
    BOOST_TEST(v == 0u);
    BOOST_TEST(seen.empty());
}

BOOST_FIXTURE_TEST_CASE(bus_accesses_must_be_one_aligned_word, Fixture) {
    BOOST_TEST(block.check_access(TEST_REG_SCRATCH, 4, false, 4));
    BOOST_TEST(!block.check_access(TEST_REG_SCRATCH, 2, false, 4));
    BOOST_TEST(!block.check_access(TEST_REG_SCRATCH + 2, 4, false, 4));
    BOOST_TEST(!block.check_access(0x100, 4, false, 4));
    BOOST_TEST(!block.check_access(TEST_REG_SCRATCH, 4, true, 4));
    BOOST_TEST(!block.check_access(TEST_REG_SCRATCH, 4, false, 2));
    BOOST_REQUIRE(seen.size() == 5u);
    for (const Seen &s : seen) {
        BOOST_TEST((s.kind == RegisterViolation::BadAccess));
    }
    BOOST_TEST(seen[0].what == "access of 2 bytes at offset 0x4 (registers are 32-bit, word "
                               "aligned)");
}

BOOST_FIXTURE_TEST_CASE(names_and_rows, Fixture) {
    BOOST_TEST(block.name(TEST_REG_SCRATCH) == "SCRATCH");
    BOOST_TEST(block.name(TEST_REG_SLOT + 12) == "SLOT(3)");
    BOOST_TEST(block.name(0x00c) == "");
    unsigned index = 9;
    const hw_reg_info_t *r = block.find(TEST_REG_SLOT + 4, &index);
    BOOST_REQUIRE(r != nullptr);
    BOOST_TEST(std::string(r->name) == "SLOT");
    BOOST_TEST(index == 1u);
    BOOST_TEST(block.find(0x020) == nullptr);
}

BOOST_AUTO_TEST_CASE(a_violation_without_a_handler_is_a_model_bug) {
    RegisterBlock block(kTable, 0x100);
    uint32_t v = 0;
    BOOST_CHECK_THROW(block.read(0x00c, v), std::logic_error);
}

BOOST_AUTO_TEST_CASE(bad_tables_are_refused) {
    const hw_reg_info_t misaligned[] = {{"A", 0x2, HW_REG_ACCESS_RW, 0, 1, ""}};
    const hw_reg_info_t overlap[] = {{"A", 0x0, HW_REG_ACCESS_RW, 0, 2, ""},
                                     {"B", 0x4, HW_REG_ACCESS_RW, 0, 1, ""}};
    const hw_reg_info_t outside[] = {{"A", 0xfc, HW_REG_ACCESS_RW, 0, 2, ""}};
    const hw_reg_info_t no_access[] = {{"A", 0x0, 0, 0, 1, ""}};
    BOOST_CHECK_THROW(RegisterBlock(misaligned, 0x100), std::logic_error);
    BOOST_CHECK_THROW(RegisterBlock(overlap, 0x100), std::logic_error);
    BOOST_CHECK_THROW(RegisterBlock(outside, 0x100), std::logic_error);
    BOOST_CHECK_THROW(RegisterBlock(no_access, 0x100), std::logic_error);
}

// The hw/ tables: valid blocks, offsets and names agreeing with the C side.
BOOST_AUTO_TEST_CASE(device_tables_make_blocks) {
    RegisterBlock ni(hw_ni_register_table, HW_NI_SIZE);
    for (const hw_reg_info_t &r : hw_ni_register_table) {
        BOOST_TEST(ni.name(r.offset) == r.name);
        BOOST_TEST(hw_ni_reg_name(r.offset) == std::string(r.name));
    }
    BOOST_TEST(hw_ni_reg_name(0x100) == static_cast<const char *>(nullptr));
    BOOST_TEST(ni.name(HW_NI_REG_RX_CMD) == "RX_CMD");
    BOOST_TEST(ni.value(HW_NI_REG_ID) == HW_NI_ID_VALUE);
    BOOST_TEST(ni.value(HW_NI_REG_TX_DONE) == HW_NI_NONE);

    RegisterBlock scsi(hw_scsi_register_table, HW_SCSI_STRIDE);
    BOOST_TEST(scsi.name(HW_SCSI_REG_QFREE(5)) == "QFREE(5)");
    BOOST_TEST(scsi.name(HW_SCSI_REG_QFREE(HW_SCSI_MAX_TARGETS)) == "");
    BOOST_TEST(scsi.name(HW_SCSI_REG_DONE_COUNT) == "DONE_COUNT");
    BOOST_TEST(HW_SCSI_REG_QFREE0 == 0x100u);
}

BOOST_AUTO_TEST_SUITE_END()
