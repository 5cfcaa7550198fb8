/*
 * ydom_pipe.h — reading a big YAML/JSON stream on two threads (ydom_pipe.c):
 * a second thread parses and builds each object's tree while the caller's
 * thread runs the callback on the objects before it, in order.  Internal to
 * ydom.c; kp_yaml_each_object uses it for big inputs.  The callback sees
 * exactly the calls, in exactly the order, of a one-thread read; it always
 * runs on the caller's thread (the database connection stays there).
 */
#ifndef KP_YDOM_PIPE_H
#define KP_YDOM_PIPE_H

#include "ynode.h"

/* Inputs at least this big are read on two threads. */
#define KP_YPIPE_MIN_BYTES (1u << 20)

typedef struct kp_ypipe kp_ypipe;

/* The producer's parse: run(data, len, file) delivering through the pipe
 * (kp_ypipe_put), returning its result and filling its own error. */
typedef int (*kp_ypipe_parse_fn)(kp_ypipe *pipe, void *arg, kp_err *perr);

/* Run parse on a new thread and the callback fn on this one.  The first
 * error in object order wins: the callback's, else the parse's. */
int kp_ypipe_run(kp_ypipe_parse_fn parse, void *arg, kp_arena *user_arena, kp_yobj_fn fn, void *ctx, kp_err *err);

/* From the producer: hand obj over.  item_arena (a List item's arena) is
 * taken by the pipe and replaced by an empty one; NULL: a whole document,
 * delivered before this returns (its arena is the producer's until the
 * document ends).  Returns the callback's result for a document, KP_OK for
 * an item, or KP_ERROR when the reader has stopped (parse no further). */
int kp_ypipe_put(kp_ypipe *pipe, kp_ynode *obj, const kp_yobj_info *info, kp_arena *item_arena);

/* From the producer: wait until the reader has taken every object handed
 * over (before the document's own arena, which items may point into — the
 * List's kind — is reset or released). */
void kp_ypipe_drain(kp_ypipe *pipe);

#endif
