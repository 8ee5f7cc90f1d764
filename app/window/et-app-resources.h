/* et-app-resources.h — the GResource with the .ui templates, icons and the
 * shortcuts window (data/etlscope.gresource.xml). Registered by hand, not
 * by a constructor: a static library's constructor object would be dropped
 * by the linker when nothing refers to it. */
#pragma once

void et_app_resources_ensure (void);
