/* et-fuzz-main.h — what every libFuzzer wrapper sets up once: GLib
 * warnings and criticals become crashes, since hostile bytes must never
 * reach a g_return_if_fail or a g_warning. */
#pragma once

#include <glib.h>
#include <stdlib.h>

int LLVMFuzzerInitialize (int *argc, char ***argv);

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  g_setenv ("G_DEBUG", "gc-friendly,fatal-warnings", TRUE);
  return 0;
}
