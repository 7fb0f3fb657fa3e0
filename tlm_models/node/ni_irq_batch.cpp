#include "tlm_models/node/ni_irq_batch.h"

namespace starfish::node {

void NiIrqBatch::end() {
    changed_ = false;
    driver_.irqs_changed_in_batch();
}

} // namespace starfish::node
