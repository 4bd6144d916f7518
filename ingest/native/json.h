/* A small JSON DOM parser for one dump line: nodes in one array, strings without escapes point
 * into the line, decoded strings go to an arena as long as the line. It accepts exactly what
 * orjson accepts or less (never more): a line it refuses goes to the Python path, which then
 * decides (and reports) exactly as before. */
#ifndef KG_JSON_H
#define KG_JSON_H
#include <stddef.h>
#include <stdint.h>

enum { J_NULL, J_FALSE, J_TRUE, J_INT, J_BIGINT, J_FLOAT, J_STR, J_ARR, J_OBJ };

typedef struct {
    uint8_t type;
    int32_t first, next;   /* first child, next sibling (-1: none) */
    uint32_t count;        /* children of an array/object */
    const char *s;         /* string bytes / number text */
    uint32_t len;
    const char *key;       /* member key (decoded), when the node is an object member */
    uint32_t klen;
    int64_t i;             /* J_INT */
    double d;              /* J_FLOAT, J_INT, J_BIGINT */
} jnode;

typedef struct {
    jnode *nodes;
    size_t n, cap;
    char *arena;
    size_t alen, acap;
    const char *p, *end;
} jparser;

void jp_init(jparser *P);
void jp_free(jparser *P);
/* Parse one whole value from [s, s+len); returns the root node index, or -1 if refused. */
int32_t jp_parse(jparser *P, const char *s, size_t len);
/* The last member of object `obj` named key (JSON objects keep the last duplicate), or -1. */
int32_t jp_get(const jparser *P, int32_t obj, const char *key, size_t klen);
/* Python truthiness of a node (-1, i.e. missing, is falsy). */
int jp_truthy(const jparser *P, int32_t idx);
/* Does object `obj` repeat a key? (Python's dict would keep one: counts and order would differ.) */
int jp_has_duplicate_keys(const jparser *P, int32_t obj);
#endif
