/*
 * cel_int.h — what the files of the CEL subset share (not for other
 * modules): the syntax tree, static and runtime types, runtime values, the
 * function table and the semver and quantity helpers.
 *
 *   cel.c        lexer and parser: text -> tree (syntax, macros, limits)
 *   cel_check.c  names, types and overloads: refuses what kube's checker
 *                refuses and what kplan does not evaluate
 *   cel_eval.c   evaluation of a checked tree for one device
 *   cel_lib.c    the functions (strings, semver, quantity) and their table
 */
#ifndef KP_CEL_INT_H
#define KP_CEL_INT_H

#include <stddef.h>
#include <stdint.h>
#include "cel.h"

/* node kinds */
enum {
	CN_INT, CN_BOOL, CN_STR, CN_LIST,
	CN_IDENT,     /* a name; cel_check turns it into CN_DEVICE or CN_VAR */
	CN_DEVICE, CN_VAR,
	CN_SELECT,    /* kid[0].s */
	CN_INDEX,     /* kid[0][kid[1]] */
	CN_HAS,       /* has(kid[0].s) */
	CN_CALL,      /* s(kid...) or kid[0].s(kid[1]...) when member */
	CN_AND, CN_OR,/* n terms */
	CN_NOT, CN_NEG,
	CN_COND,      /* kid[0] ? kid[1] : kid[2] */
	CN_BIN,       /* kid[0] op kid[1] */
	CN_BIND,      /* cel.bind(s, kid[0], kid[1]); slot */
};

/* binary operators (CN_BIN op) */
enum { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_IN, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD };

/* static types; runtime values use the same numbers (CT_DYN never at runtime) */
enum {
	CT_ERR,       /* runtime: an error value */
	CT_DYN,       /* static: an attribute value, known only at runtime */
	CT_INT, CT_BOOL, CT_STRING, CT_SEMVER, CT_QTY,
	CT_LIST,      /* a list literal */
	CT_DEVICE,    /* `device` */
	CT_MAP,       /* device.attributes / device.capacity (map: which) */
	CT_DOMAIN,    /* device.attributes["d"] / device.capacity["d"] */
};

/* device fields (CN_SELECT / CN_HAS on a device: op) */
enum { DF_DRIVER, DF_ATTRIBUTES, DF_CAPACITY, DF_MULTI };

typedef struct cel_val cel_val;
typedef struct cel_node cel_node;

struct cel_node {
	uint8_t kind;
	uint8_t op;        /* CN_BIN: OP_*; CN_CALL: function id; CN_SELECT/CN_HAS on device: DF_* */
	uint8_t type;      /* static type (CT_*) once checked */
	uint8_t elem;      /* CT_LIST: element type; CT_MAP/CT_DOMAIN: map (0 attributes, 1 capacity) */
	uint8_t member;    /* CN_CALL: receiver form (kid[0] is the receiver) */
	uint8_t depth;     /* height of the subtree (bounded by KP_CEL_MAX_DEPTH) */
	int line, col;     /* where the construct starts (its operator for CN_BIN and friends) */
	int64_t i;         /* CN_INT / CN_BOOL value; CN_VAR / CN_BIND: slot */
	const char *s;     /* CN_STR text (NUL-terminated, may hold NULs: use n); names */
	size_t n;
	cel_node **kid;
	int nkid;
	const cel_val *pre;/* a value computed at compile time (quantity('1Gi'), semver('1.2.3')) */
};

/* semantic version, as blang/semver v4 holds it (build metadata is kept only as text) */
typedef struct cel_semver {
	uint64_t major, minor, patch;
	const char *pre;   /* prerelease identifiers, '.'-separated, without the '-'; npre 0: none */
	size_t npre;
} cel_semver;

/* runtime error kinds (CT_ERR values: op) */
enum {
	E_NO_KEY, E_OVERLOAD, E_OVERFLOW, E_DIV0, E_MOD0, E_NOT_INT, E_CONVERT,
	E_QTY_SYNTAX, E_QTY_RANGE, E_QTY_FINE, E_QTY_RESULT, E_SEMVER, E_SEMVER_NORM,
	E_SCRATCH, E_VALUE, E_RESULT, E_STEPS,
};

struct cel_val {
	uint8_t t;         /* CT_* */
	uint8_t op;        /* CT_ERR: E_*; CT_MAP/CT_DOMAIN: map; CT_QTY: 1 when made by add/sub/mul */
	uint8_t ta, tb;    /* E_OVERLOAD / E_CONVERT / E_RESULT: the runtime types involved */
	int64_t i;         /* INT, BOOL, QTY (milli-units) */
	const char *s;     /* STRING; SEMVER text; DOMAIN domain; ERR: the text it is about */
	size_t n;
	const cel_node *node;  /* LIST: the literal; ERR: where it happened */
	cel_semver v;      /* SEMVER */
};

/* function ids (CN_CALL op) */
enum {
	FN_SIZE, FN_CONTAINS, FN_STARTS, FN_ENDS, FN_LOWER, FN_UPPER,
	FN_QUANTITY, FN_IS_QUANTITY, FN_SEMVER, FN_IS_SEMVER,
	FN_GREATER, FN_LESS, FN_COMPARE, FN_SIGN, FN_IS_INTEGER, FN_AS_INTEGER,
	FN_ADD, FN_SUB, FN_MUL, FN_MAJOR, FN_MINOR, FN_PATCH,
};

/* what a function implementation may use: the scratch space of one evaluation */
typedef struct cel_scratch {
	char *buf;
	size_t used, cap;
} cel_scratch;

typedef cel_val (*cel_impl)(const cel_val *a, const cel_node *call, cel_scratch *sc);

/* one overload: name(args) or args[0].name(args[1..]) */
typedef struct cel_overload {
	const char *name;
	uint8_t id, member, nargs;
	uint8_t arg[3];    /* CT_*; nargs counts the receiver */
	uint8_t result;
	cel_impl impl;
} cel_overload;

extern const cel_overload kp_cel_overloads[];
extern const size_t kp_cel_noverloads;

/* The compiled expression. */
struct kp_cel {
	kp_arena arena;    /* every node and string */
	cel_node *root;
	int nslots;        /* cel.bind() variables */
};

/* cel.c */
/* Parse src (already checked for length and UTF-8) into a tree in arena;
 * KP_OK, KP_PARSE (msg, pos) or KP_NOMEM. */
int kp_cel_parse(const char *src, size_t len, kp_arena *arena, cel_node **root, int *nslots,
		 kp_cel_pos *pos, char *msg, size_t size);

/* cel_check.c */
/* Resolve names and overloads, compute static types, precompute literal
 * quantities and versions; KP_OK, KP_PARSE (msg, pos) or KP_NOMEM. */
int kp_cel_check(cel_node *root, kp_arena *arena, kp_cel_pos *pos, char *msg, size_t size);
/* "int", "kubernetes.Quantity", ... for messages */
const char *kp_cel_type_name(int t, int elem);

/* cel_lib.c */
cel_val kp_cel_err(int kind, const cel_node *at, const char *s, size_t n);
cel_val kp_cel_overload_err(const cel_node *at, int ta, int tb);
/* blang/semver v4 Parse: 0 and *v, or -1 and the message in msg */
int kp_cel_semver_parse(const char *s, size_t n, cel_semver *v, char *msg, size_t size);
/* -1, 0, 1 as semver.Version.Compare */
int kp_cel_semver_cmp(const cel_semver *a, const cel_semver *b);
/* a quantity's text to milli-units: 0, or E_QTY_SYNTAX / E_QTY_RANGE / E_QTY_FINE */
int kp_cel_qty_parse(const char *s, size_t n, int64_t *milli);
/* the message of an error value */
void kp_cel_err_format(const cel_val *v, char *msg, size_t size);

#endif
