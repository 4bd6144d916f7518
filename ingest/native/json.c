#include "json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 512
#define MAX_INT_DIGITS 18 /* fits int64 for sure; longer integers are kept as doubles, as orjson does */

void jp_init(jparser *P) { memset(P, 0, sizeof *P); }

void jp_free(jparser *P) {
    free(P->nodes);
    free(P->arena);
    memset(P, 0, sizeof *P);
}

static int32_t new_node(jparser *P, uint8_t type) {
    if (P->n == P->cap) {
        size_t cap = P->cap ? P->cap * 2 : 4096;
        jnode *nodes = realloc(P->nodes, cap * sizeof *nodes);
        if (!nodes) return -1;
        P->nodes = nodes;
        P->cap = cap;
    }
    jnode *node = &P->nodes[P->n];
    node->type = type;
    node->first = node->next = -1;
    node->count = 0;
    node->key = NULL;
    node->klen = 0;
    return (int32_t)P->n++;
}

static void skip_ws(jparser *P) {
    while (P->p < P->end && (*P->p == ' ' || *P->p == '\t' || *P->p == '\n' || *P->p == '\r')) P->p++;
}

/* Length of the valid UTF-8 sequence at s (lead byte >= 0x80), or 0: no overlongs, no surrogates. */
static int utf8_len(const unsigned char *s, const unsigned char *end) {
    unsigned c = s[0];
    int n;
    uint32_t cp;
    if (c >= 0xC2 && c <= 0xDF) n = 2, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF) n = 3, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4) n = 4, cp = c & 0x07;
    else return 0;
    if (end - s < n) return 0;
    for (int k = 1; k < n; k++) {
        if ((s[k] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (s[k] & 0x3F);
    }
    if ((n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
        return 0;
    return n;
}

static int hex4(const char *s, uint32_t *out) {
    uint32_t v = 0;
    for (int k = 0; k < 4; k++) {
        char c = s[k];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (uint32_t)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (uint32_t)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (uint32_t)(c - 'A' + 10);
        else return 0;
    }
    *out = v;
    return 1;
}

static char *put_utf8(char *o, uint32_t cp) {
    if (cp < 0x80) *o++ = (char)cp;
    else if (cp < 0x800) *o++ = (char)(0xC0 | (cp >> 6)), *o++ = (char)(0x80 | (cp & 0x3F));
    else if (cp < 0x10000)
        *o++ = (char)(0xE0 | (cp >> 12)), *o++ = (char)(0x80 | ((cp >> 6) & 0x3F)), *o++ = (char)(0x80 | (cp & 0x3F));
    else
        *o++ = (char)(0xF0 | (cp >> 18)), *o++ = (char)(0x80 | ((cp >> 12) & 0x3F)),
        *o++ = (char)(0x80 | ((cp >> 6) & 0x3F)), *o++ = (char)(0x80 | (cp & 0x3F));
    return o;
}

/* At the opening quote. Sets *out / *len to the decoded string; 0 if refused. */
static int parse_string(jparser *P, const char **out, uint32_t *len) {
    const unsigned char *s = (const unsigned char *)P->p + 1, *end = (const unsigned char *)P->end;
    const unsigned char *start = s;
    while (s < end && *s != '"' && *s != '\\') {
        if (*s < 0x20) return 0;
        if (*s < 0x80) s++;
        else {
            int n = utf8_len(s, end);
            if (!n) return 0;
            s += n;
        }
    }
    if (s >= end) return 0;
    if (*s == '"') { /* no escapes: the bytes of the line are the string */
        *out = (const char *)start;
        *len = (uint32_t)(s - start);
        P->p = (const char *)s + 1;
        return 1;
    }
    char *o = P->arena + P->alen, *begin = o;
    memcpy(o, start, (size_t)(s - start));
    o += s - start;
    while (s < end && *s != '"') {
        if (*s == '\\') {
            if (end - s < 2) return 0;
            switch (s[1]) {
                case '"': *o++ = '"'; break;
                case '\\': *o++ = '\\'; break;
                case '/': *o++ = '/'; break;
                case 'b': *o++ = '\b'; break;
                case 'f': *o++ = '\f'; break;
                case 'n': *o++ = '\n'; break;
                case 'r': *o++ = '\r'; break;
                case 't': *o++ = '\t'; break;
                case 'u': {
                    uint32_t cp, low;
                    if (end - s < 6 || !hex4((const char *)s + 2, &cp)) return 0;
                    if (cp >= 0xDC00 && cp <= 0xDFFF) return 0; /* a low surrogate first */
                    if (cp >= 0xD800 && cp <= 0xDBFF) {
                        if (end - s < 12 || s[6] != '\\' || s[7] != 'u' || !hex4((const char *)s + 8, &low) ||
                            low < 0xDC00 || low > 0xDFFF)
                            return 0;
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                        s += 6;
                    }
                    o = put_utf8(o, cp);
                    s += 4;
                    break;
                }
                default: return 0;
            }
            s += 2;
        } else if (*s < 0x20) {
            return 0;
        } else if (*s < 0x80) {
            *o++ = (char)*s++;
        } else {
            int n = utf8_len(s, end);
            if (!n) return 0;
            memcpy(o, s, (size_t)n);
            o += n;
            s += n;
        }
    }
    if (s >= end) return 0;
    *out = begin;
    *len = (uint32_t)(o - begin);
    P->alen += (size_t)(o - begin); /* decoded text is never longer than its escaped form */
    P->p = (const char *)s + 1;
    return 1;
}

static int parse_number(jparser *P, jnode *node) {
    const char *s = P->p, *end = P->end, *start = s;
    int is_int = 1;
    if (s < end && *s == '-') s++;
    if (s >= end) return 0;
    if (*s == '0') s++;
    else if (*s >= '1' && *s <= '9') while (s < end && *s >= '0' && *s <= '9') s++;
    else return 0;
    if (s < end && *s == '.') {
        is_int = 0;
        s++;
        if (s >= end || *s < '0' || *s > '9') return 0;
        while (s < end && *s >= '0' && *s <= '9') s++;
    }
    if (s < end && (*s == 'e' || *s == 'E')) {
        is_int = 0;
        s++;
        if (s < end && (*s == '+' || *s == '-')) s++;
        if (s >= end || *s < '0' || *s > '9') return 0;
        while (s < end && *s >= '0' && *s <= '9') s++;
    }
    node->s = start;
    node->len = (uint32_t)(s - start);
    char buf[64];
    if (node->len >= sizeof buf) {
        if (is_int) return 0; /* a 60-digit integer: leave it to the Python path */
        return 0;
    }
    memcpy(buf, start, node->len);
    buf[node->len] = 0;
    size_t digits = node->len - (start[0] == '-');
    if (is_int && digits <= MAX_INT_DIGITS) {
        node->type = J_INT;
        node->i = strtoll(buf, NULL, 10);
        node->d = (double)node->i;
    } else {
        node->type = is_int ? J_BIGINT : J_FLOAT;
        node->d = strtod(buf, NULL);
        if (isinf(node->d)) return 0; /* orjson refuses a number that overflows a double */
    }
    P->p = s;
    return 1;
}

static int32_t parse_value(jparser *P, int depth) {
    if (depth > MAX_DEPTH) return -1;
    skip_ws(P);
    if (P->p >= P->end) return -1;
    char c = *P->p;
    int32_t idx;
    if (c == '{' || c == '[') {
        int is_obj = c == '{';
        idx = new_node(P, is_obj ? J_OBJ : J_ARR);
        if (idx < 0) return -1;
        P->p++;
        skip_ws(P);
        char close = is_obj ? '}' : ']';
        if (P->p < P->end && *P->p == close) {
            P->p++;
            return idx;
        }
        int32_t last = -1;
        uint32_t count = 0;
        for (;;) {
            const char *key = NULL;
            uint32_t klen = 0;
            if (is_obj) {
                skip_ws(P);
                if (P->p >= P->end || *P->p != '"' || !parse_string(P, &key, &klen)) return -1;
                skip_ws(P);
                if (P->p >= P->end || *P->p != ':') return -1;
                P->p++;
            }
            int32_t child = parse_value(P, depth + 1);
            if (child < 0) return -1;
            P->nodes[child].key = key;
            P->nodes[child].klen = klen;
            if (last < 0) P->nodes[idx].first = child;
            else P->nodes[last].next = child;
            last = child;
            count++;
            skip_ws(P);
            if (P->p >= P->end) return -1;
            if (*P->p == ',') {
                P->p++;
                continue;
            }
            if (*P->p != close) return -1;
            P->p++;
            break;
        }
        P->nodes[idx].count = count;
        return idx;
    }
    if (c == '"') {
        idx = new_node(P, J_STR);
        if (idx < 0) return -1;
        const char *s;
        uint32_t len;
        if (!parse_string(P, &s, &len)) return -1;
        P->nodes[idx].s = s;
        P->nodes[idx].len = len;
        return idx;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        idx = new_node(P, J_INT);
        if (idx < 0 || !parse_number(P, &P->nodes[idx])) return -1;
        return idx;
    }
    static const struct { const char *word; size_t len; uint8_t type; } literals[] = {
        {"null", 4, J_NULL}, {"true", 4, J_TRUE}, {"false", 5, J_FALSE}};
    for (size_t k = 0; k < 3; k++) {
        if ((size_t)(P->end - P->p) >= literals[k].len && memcmp(P->p, literals[k].word, literals[k].len) == 0) {
            P->p += literals[k].len;
            return new_node(P, literals[k].type);
        }
    }
    return -1;
}

int32_t jp_parse(jparser *P, const char *s, size_t len) {
    if (P->acap < len + 1) {
        char *arena = realloc(P->arena, len + 1);
        if (!arena) return -1;
        P->arena = arena;
        P->acap = len + 1;
    }
    P->n = 0;
    P->alen = 0;
    P->p = s;
    P->end = s + len;
    int32_t root = parse_value(P, 0);
    if (root < 0) return -1;
    skip_ws(P);
    return P->p == P->end ? root : -1;
}

int32_t jp_get(const jparser *P, int32_t obj, const char *key, size_t klen) {
    if (obj < 0 || P->nodes[obj].type != J_OBJ) return -1;
    int32_t found = -1;
    for (int32_t c = P->nodes[obj].first; c >= 0; c = P->nodes[c].next)
        if (P->nodes[c].klen == klen && memcmp(P->nodes[c].key, key, klen) == 0) found = c;
    return found;
}

int jp_truthy(const jparser *P, int32_t idx) {
    if (idx < 0) return 0;
    const jnode *node = &P->nodes[idx];
    switch (node->type) {
        case J_NULL: case J_FALSE: return 0;
        case J_TRUE: return 1;
        case J_INT: case J_BIGINT: case J_FLOAT: return node->d != 0.0;
        case J_STR: return node->len > 0;
        default: return node->count > 0;
    }
}

static uint64_t hash_key(const char *s, uint32_t len) {
    uint64_t h = 1469598103934665603ULL;
    for (uint32_t k = 0; k < len; k++) h = (h ^ (unsigned char)s[k]) * 1099511628211ULL;
    return h;
}

int jp_has_duplicate_keys(const jparser *P, int32_t obj) {
    uint32_t n = P->nodes[obj].count;
    if (n < 2) return 0;
    if (n <= 8) {
        for (int32_t a = P->nodes[obj].first; a >= 0; a = P->nodes[a].next)
            for (int32_t b = P->nodes[a].next; b >= 0; b = P->nodes[b].next)
                if (P->nodes[a].klen == P->nodes[b].klen && memcmp(P->nodes[a].key, P->nodes[b].key, P->nodes[a].klen) == 0)
                    return 1;
        return 0;
    }
    size_t size = 16;
    while (size < 2 * (size_t)n) size <<= 1;
    int32_t *slots = malloc(size * sizeof *slots);
    if (!slots) return 1; /* cannot tell: the caller refuses the line, the Python path takes it */
    memset(slots, 0xFF, size * sizeof *slots);
    int dup = 0;
    for (int32_t c = P->nodes[obj].first; c >= 0 && !dup; c = P->nodes[c].next) {
        size_t h = (size_t)hash_key(P->nodes[c].key, P->nodes[c].klen) & (size - 1);
        while (slots[h] >= 0) {
            const jnode *o = &P->nodes[slots[h]];
            if (o->klen == P->nodes[c].klen && memcmp(o->key, P->nodes[c].key, o->klen) == 0) {
                dup = 1;
                break;
            }
            h = (h + 1) & (size - 1);
        }
        slots[h] = c;
    }
    free(slots);
    return dup;
}
