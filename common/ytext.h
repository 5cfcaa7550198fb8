/*
 * ytext.h — a YAML document's own text, cut out of the file it came from and
 * blank-padded so that a parse of it gives the file's lines and columns.
 *
 * Imported KubeSchedulerConfigurations are stored as JSON and read again at
 * plan time; their errors must point at the file, line and column the user
 * wrote, also when the document is the data value of a ConfigMap (a literal
 * block scalar `|`: its content starts on the next line, every line indented
 * by the same number of spaces, so a line of the value is a line of the file).
 */
#ifndef KP_YTEXT_H
#define KP_YTEXT_H

#include <stddef.h>

/* The document whose top node starts at line/col (1-based, col in
 * characters) of text: from there to the next document marker (--- or ...)
 * or, for a node not in column 1, the first line indented less; preceded by
 * line - 1 newlines and col - 1 spaces.  NULL: no such line, or no memory.
 * Owned by the caller (kp_free). */
char *kp_ytext_cut(const char *text, size_t len, unsigned line, unsigned col);

/* A scalar value (value, vlen) read at line/col of text: when it is a
 * literal block scalar whose lines are the text's next lines, each indented
 * by the same n spaces, return n; else -1 (a plain, quoted or folded value). */
int kp_ytext_literal_indent(const char *text, size_t len, unsigned line, unsigned col, const char *value, size_t vlen);

/* value with `lines` newlines before it and `indent` spaces before each of
 * its non-empty lines: with kp_ytext_literal_indent's n and the scalar's
 * line, the value positioned where it is in its file.  NULL: no memory. */
char *kp_ytext_shift(const char *value, size_t vlen, unsigned lines, unsigned indent);

/* 1 when yaml parses to one document whose JSON (kp_ynode_to_json) is json:
 * a cut text can stand for the stored document. */
int kp_ytext_same(const char *yaml, const char *json);

#endif
