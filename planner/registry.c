/*
 * registry.c — the plugin registry (registry.h): every line of
 * KP_PLUGIN_LIST becomes its entry here.  Nothing to edit in this file when
 * a plugin is added.
 */
#include "registry.h"

#define KP_PLUGIN_ENTRY_(index, file) [KP_P_##index] = &kp_plugin_##file,
const kp_plugin *const kp_plugins[KP_P_COUNT] = { KP_PLUGIN_LIST(KP_PLUGIN_ENTRY_) };
#undef KP_PLUGIN_ENTRY_

#define KP_PLUGIN_NAME_(index, file) [KP_P_##index] = kp_plugin_##file.name,
const char *const kp_plugin_names[KP_P_COUNT] = { KP_PLUGIN_LIST(KP_PLUGIN_NAME_) };
#undef KP_PLUGIN_NAME_
