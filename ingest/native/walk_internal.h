/* Private to walk.c and snakvalue.c: the walker's shorthands and the rows.py helpers both use. */
#ifndef KG_WALK_INTERNAL_H
#define KG_WALK_INTERNAL_H
#include <string.h>

#include "walk.h"

#define ENTITY_PREFIX "http://www.wikidata.org/entity/"
#define N(i) (&w->P.nodes[i])
#define REFUSE() longjmp(w->refuse, 1)
#define GET(obj, key) jp_get(&w->P, (obj), key, sizeof(key) - 1)
#define IS(i, t) ((i) >= 0 && N(i)->type == (t))

static inline int str_eq(const jnode *n, const char *s) { return n->len == strlen(s) && memcmp(n->s, s, n->len) == 0; }

/* rows.py _mapping: an object, or anything falsy as "empty" (-1); anything else is malformed. */
static inline int32_t mapping(walker *w, int32_t i) {
    if (IS(i, J_OBJ)) {
        if (jp_has_duplicate_keys(&w->P, i)) REFUSE();
        return N(i)->count ? i : -1;
    }
    if (jp_truthy(&w->P, i)) REFUSE();
    return -1;
}

/* rows.py _list: a list, or null/missing as empty (-1). */
static inline int32_t list(walker *w, int32_t i) {
    if (i < 0 || N(i)->type == J_NULL) return -1;
    if (N(i)->type != J_ARR) REFUSE();
    return i;
}

/* values.py checked_text: a string or null, nothing else. Missing counts as null only where rows.py
 * uses .get(); callers that index with [] check presence first. */
static inline void put_text(walker *w, table *t, int32_t i) {
    if (i < 0 || N(i)->type == J_NULL) put_null(t);
    else if (N(i)->type == J_STR) put_str(t, N(i)->s, N(i)->len);
    else REFUSE();
}

/* values.py snak_columns: the 21 value columns of a snak (snakvalue.c). */
void put_value(walker *w, table *t, int32_t snak);
#endif
