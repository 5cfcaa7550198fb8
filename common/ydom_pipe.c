/*
 * ydom_pipe.c — a big YAML/JSON stream on two threads (ydom_pipe.h).
 *
 * The producer thread runs libyaml and builds each List item's tree in an
 * arena of its own; the item goes into a queue of at most QUEUE objects,
 * and the caller's thread takes them in order, runs the callback, and gives
 * the arena back.  libyaml's scanning (about 40 % of an import of a kubectl
 * dump) then overlaps the conversion and the SQLite inserts.  A document
 * that is not streamed item by item is handed over synchronously: the
 * producer waits for its callback, as the one-thread reader would.
 */
#include "ydom_pipe.h"

#include <pthread.h>
#include <string.h>

enum { QUEUE = 16 };

typedef struct ymsg {
	int end;                 /* the producer is done (no object) */
	kp_ynode *obj;
	kp_yobj_info info;
	int slot;                /* the item's arena, -1 for a whole document */
} ymsg;

struct kp_ypipe {
	pthread_mutex_t mu;
	pthread_cond_t changed;
	ymsg q[QUEUE];
	int head, count;
	kp_arena arenas[QUEUE];
	int free_slots[QUEUE], nfree;
	int stop;                /* the reader stopped: parse no further */
	int doc_done, doc_rc;    /* the synchronous document's callback */
	/* the producer */
	kp_ypipe_parse_fn parse;
	void *arg;
	kp_err perr;
	int prc;
};

/* wait for room in the queue (and, for an item, a free arena); 0 when stopped */
static int wait_room(kp_ypipe *p, int need_slot)
{
	while (!p->stop && (p->count == QUEUE || (need_slot && !p->nfree)))
		pthread_cond_wait(&p->changed, &p->mu);
	return !p->stop;
}

static void push(kp_ypipe *p, const ymsg *m)
{
	p->q[(p->head + p->count) % QUEUE] = *m;
	p->count++;
	pthread_cond_broadcast(&p->changed);
}

int kp_ypipe_put(kp_ypipe *p, kp_ynode *obj, const kp_yobj_info *info, kp_arena *item_arena)
{
	ymsg m = { 0, obj, *info, -1 };
	int rc = KP_OK;
	pthread_mutex_lock(&p->mu);
	if (!wait_room(p, item_arena != NULL)) {
		rc = KP_ERROR;
	} else if (item_arena) {
		m.slot = p->free_slots[--p->nfree];
		kp_arena fresh = p->arenas[m.slot];   /* reset when given back */
		p->arenas[m.slot] = *item_arena;
		*item_arena = fresh;
		push(p, &m);
	} else {
		p->doc_done = 0;
		push(p, &m);
		while (!p->doc_done && !p->stop)
			pthread_cond_wait(&p->changed, &p->mu);
		rc = p->doc_done ? p->doc_rc : KP_ERROR;
	}
	pthread_mutex_unlock(&p->mu);
	return rc;
}

void kp_ypipe_drain(kp_ypipe *p)
{
	pthread_mutex_lock(&p->mu);
	while (!p->stop && (p->count || p->nfree < QUEUE))
		pthread_cond_wait(&p->changed, &p->mu);
	pthread_mutex_unlock(&p->mu);
}

static void *producer(void *arg)
{
	kp_ypipe *p = arg;
	int rc = p->parse(p, p->arg, &p->perr);
	pthread_mutex_lock(&p->mu);
	p->prc = rc;
	ymsg m = { 1, NULL, { 0 }, -1 };
	if (wait_room(p, 0))
		push(p, &m);
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* the caller's side: every object in order, until the end or an error */
static int consume(kp_ypipe *p, kp_arena *user_arena, kp_yobj_fn fn, void *ctx, kp_err *err)
{
	for (;;) {
		pthread_mutex_lock(&p->mu);
		while (!p->count)
			pthread_cond_wait(&p->changed, &p->mu);
		ymsg m = p->q[p->head];
		p->head = (p->head + 1) % QUEUE;
		p->count--;
		pthread_cond_broadcast(&p->changed);
		pthread_mutex_unlock(&p->mu);
		if (m.end)
			return KP_OK;
		kp_arena_reset(user_arena);
		int rc = fn(ctx, m.obj, &m.info, err);
		if (rc != KP_OK && err->code == KP_OK)
			kp_err_set(err, rc, "import stopped");
		pthread_mutex_lock(&p->mu);
		if (m.slot >= 0) {
			kp_arena_reset(&p->arenas[m.slot]);
			p->free_slots[p->nfree++] = m.slot;
		} else {
			p->doc_done = 1;
			p->doc_rc = rc;
		}
		if (rc != KP_OK)
			p->stop = 1;
		pthread_cond_broadcast(&p->changed);
		pthread_mutex_unlock(&p->mu);
		if (rc != KP_OK)
			return rc;
	}
}

int kp_ypipe_run(kp_ypipe_parse_fn parse, void *arg, kp_arena *user_arena, kp_yobj_fn fn, void *ctx, kp_err *err)
{
	kp_ypipe *p = kp_calloc(1, sizeof *p);
	if (!p)
		return kp_err_set(err, KP_NOMEM, "out of memory reading YAML");
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->changed, NULL);
	for (int i = 0; i < QUEUE; i++) {
		kp_arena_init(&p->arenas[i], 64 * 1024);
		p->free_slots[p->nfree++] = i;
	}
	p->parse = parse;
	p->arg = arg;
	pthread_t t;
	int rc;
	if (pthread_create(&t, NULL, producer, p)) {
		rc = kp_err_set(err, KP_NOMEM, "cannot start the reading thread");
	} else {
		rc = consume(p, user_arena, fn, ctx, err);
		pthread_join(t, NULL);
		if (rc == KP_OK && p->prc != KP_OK) {
			*err = p->perr;
			rc = p->prc;
		}
	}
	for (int i = 0; i < QUEUE; i++)
		kp_arena_release(&p->arenas[i]);
	pthread_cond_destroy(&p->changed);
	pthread_mutex_destroy(&p->mu);
	kp_free(p);
	return rc;
}
