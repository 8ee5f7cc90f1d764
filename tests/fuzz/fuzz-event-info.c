/* fuzz-event-info.c — libFuzzer entry for schemas from a trace's event
 * metadata (MetaData/EventInfo, EventMapInfo: et-event-info) and payloads
 * decoded with them. The body is et_fuzz_event_info in et-fuzz-targets.c.
 */
#include "et-fuzz-targets.h"
#include "et-fuzz-main.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  return et_fuzz_event_info (data, size);
}
