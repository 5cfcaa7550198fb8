/*
 * ydom_json.h — the events libyaml would give for strict JSON, without
 * libyaml (ydom_json.c): ydom.c's fast path for `kubectl get -o json`.
 */
#ifndef KP_YDOM_JSON_H
#define KP_YDOM_JSON_H

#include <yaml.h>
#include "kp.h"

/* Not JSON this scanner is sure libyaml reads the same way: read the text
 * with libyaml instead. */
#define KP_YJSON_FALLBACK 1

/* Called with each event (stream and document start and end included);
 * the scalar's value lives until the call returns.  Non-zero stops the
 * scan and is returned. */
typedef int (*kp_yjson_emit_fn)(void *ctx, yaml_event_t *ev);

/* KP_OK: data was one JSON object or array, every event emitted;
 * KP_YJSON_FALLBACK: it is not (the events so far must be thrown away);
 * else fn's error. */
int kp_yjson_events(const char *data, size_t len, kp_yjson_emit_fn fn, void *ctx);

#endif
