#define PY_SSIZE_T_CLEAN
#include <Python.h> /* PyOS_double_to_string: repr() of a float, byte for byte */

#include "walk.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *TABLE_KINDS[N_TABLES] = {
    "sssssiis",                /* entities */
    "ssss",                    /* labels */
    "ssssiii" VALUE_KINDS,     /* statements */
    "ssis" VALUE_KINDS,        /* qualifiers */
    "sssiis" VALUE_KINDS,      /* references */
};

#define ENTITY_PREFIX "http://www.wikidata.org/entity/"
#define N(i) (&w->P.nodes[i])
#define REFUSE() longjmp(w->refuse, 1)
#define GET(obj, key) jp_get(&w->P, (obj), key, sizeof(key) - 1)
#define IS(i, t) ((i) >= 0 && N(i)->type == (t))

static int str_eq(const jnode *n, const char *s) { return n->len == strlen(s) && memcmp(n->s, s, n->len) == 0; }

/* rows.py _mapping: an object, or anything falsy as "empty" (-1); anything else is malformed. */
static int32_t mapping(walker *w, int32_t i) {
    if (IS(i, J_OBJ)) {
        if (jp_has_duplicate_keys(&w->P, i)) REFUSE();
        return N(i)->count ? i : -1;
    }
    if (jp_truthy(&w->P, i)) REFUSE();
    return -1;
}

/* rows.py _list: a list, or null/missing as empty (-1). */
static int32_t list(walker *w, int32_t i) {
    if (i < 0 || N(i)->type == J_NULL) return -1;
    if (N(i)->type != J_ARR) REFUSE();
    return i;
}

/* values.py checked_text: a string or null, nothing else. Missing counts as null only where rows.py
 * uses .get(); callers that index with [] check presence first. */
static void put_text(walker *w, table *t, int32_t i) {
    if (i < 0 || N(i)->type == J_NULL) put_null(t);
    else if (N(i)->type == J_STR) put_str(t, N(i)->s, N(i)->len);
    else REFUSE();
}

/* values.py strip_entity_uri: 0 for none (null, missing, or the dimensionless unit "1"). */
static int entity_uri(walker *w, int32_t i, const char **out, size_t *len) {
    if (i < 0 || N(i)->type == J_NULL) return 0;
    if (N(i)->type != J_STR) REFUSE();
    const jnode *n = N(i);
    size_t plen = sizeof(ENTITY_PREFIX) - 1;
    if (n->len == 1 && n->s[0] == '1') return 0;
    *out = n->s;
    *len = n->len;
    if (n->len >= plen && memcmp(n->s, ENTITY_PREFIX, plen) == 0) *out += plen, *len -= plen;
    return 1;
}

static void put_entity_uri(walker *w, table *t, int32_t i) {
    const char *s;
    size_t len;
    if (entity_uri(w, i, &s, &len)) put_str(t, s, len);
    else put_null(t);
}

static int64_t int_in(walker *w, int32_t i, int64_t low, int64_t high, int *is_null) {
    *is_null = i < 0 || N(i)->type == J_NULL;
    if (*is_null) return 0;
    if (N(i)->type != J_INT || N(i)->i < low || N(i)->i > high) REFUSE();
    return N(i)->i;
}

static void put_int_in(walker *w, table *t, int32_t i, int64_t low, int64_t high) {
    int is_null;
    int64_t v = int_in(w, i, low, high, &is_null);
    if (is_null) put_null(t);
    else put_int(t, v);
}

/* Python's float(x) for a JSON number or a plain decimal string; anything Python might read
 * differently (whitespace, "inf", underscores, booleans) is refused. */
static double to_float(walker *w, int32_t i) {
    if (i < 0) REFUSE();
    const jnode *n = N(i);
    if (n->type == J_INT || n->type == J_FLOAT) return n->d; /* not J_BIGINT: orjson's own rounding */
    if (n->type != J_STR || n->len == 0 || n->len > 60) REFUSE();
    const char *s = n->s, *end = s + n->len;
    char buf[64];
    if (*s == '+' || *s == '-') s++;
    int digits = 0;
    while (s < end && *s >= '0' && *s <= '9') s++, digits++;
    if (s < end && *s == '.') {
        s++;
        while (s < end && *s >= '0' && *s <= '9') s++, digits++;
    }
    if (!digits) REFUSE();
    if (s < end && (*s == 'e' || *s == 'E')) {
        s++;
        if (s < end && (*s == '+' || *s == '-')) s++;
        if (s >= end || *s < '0' || *s > '9') REFUSE();
        while (s < end && *s >= '0' && *s <= '9') s++;
    }
    if (s != end) REFUSE();
    memcpy(buf, n->s, n->len);
    buf[n->len] = 0;
    return strtod(buf, NULL);
}

static void put_opt_float(walker *w, table *t, int32_t i) {
    if (i < 0 || N(i)->type == J_NULL) put_null(t);
    else put_double(t, to_float(w, i));
}

static void put_nulls(table *t, int n) {
    while (n-- > 0) put_null(t);
}

static int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

static const char *ordinal_suffix(int64_t n) {
    if (n % 100 >= 10 && n % 100 <= 20) return "th";
    return n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
}

static int64_t digits_value(walker *w, const char *s, const char *end, int max_digits) {
    if (s >= end || end - s > max_digits) REFUSE();
    int64_t v = 0;
    for (; s < end; s++) {
        if (*s < '0' || *s > '9') REFUSE();
        v = v * 10 + (*s - '0');
    }
    return v;
}

/* values.py split_time + format_time, for the strict form '+YYYY-MM-DDT...' only. */
static int format_time(walker *w, const jnode *t, int precision, char *out, size_t cap) {
    const char *s = t->s, *end = s + t->len;
    if (s == end) REFUSE();
    int sign = *s == '-' ? -1 : 1;
    if (*s == '+' || *s == '-') s++;
    const char *date_end = memchr(s, 'T', (size_t)(end - s));
    if (!date_end) date_end = end;
    const char *d2 = NULL, *d1 = NULL;
    for (const char *p = date_end; p > s;)
        if (*--p == '-') {
            if (!d2) d2 = p;
            else { d1 = p; break; }
        }
    if (!d1) REFUSE();
    int64_t year = sign * digits_value(w, s, d1, 17);
    int64_t month = digits_value(w, d1 + 1, d2, 9), day = digits_value(w, d2 + 1, date_end, 9);
    const char *era = year < 0 ? " BC" : "";
    long long ay = (long long)(year < 0 ? -year : year);
    if (precision >= 11 && month && day)
        return year >= 0 ? snprintf(out, cap, "%04lld-%02lld-%02lld", (long long)year, (long long)month, (long long)day)
                         : snprintf(out, cap, "%lld-%02lld-%02lld%s", ay, (long long)month, (long long)day, era);
    if (precision >= 10 && month)
        return year >= 0 ? snprintf(out, cap, "%04lld-%02lld", (long long)year, (long long)month)
                         : snprintf(out, cap, "%lld-%02lld%s", ay, (long long)month, era);
    if (precision >= 9) return snprintf(out, cap, "%lld%s", ay, era);
    if (precision == 8) return snprintf(out, cap, "%llds%s", ay / 10 * 10, era);
    if (precision == 7 || precision == 6) {
        int64_t n = floor_div(ay - 1, precision == 7 ? 100 : 1000) + 1;
        return snprintf(out, cap, "%lld%s %s%s", (long long)n, ordinal_suffix(n),
                        precision == 7 ? "century" : "millennium", era);
    }
    return snprintf(out, cap, "%lld%s (precision %d)", ay, era, precision);
}

/* values.py format_amount: an integral amount below 1e15 as an int, otherwise repr(). */
static int format_amount(double amount, char *out, size_t cap) {
    if (isfinite(amount) && amount == trunc(amount) && fabs(amount) < 1e15)
        return snprintf(out, cap, "%lld", (long long)amount);
    char *repr = PyOS_double_to_string(amount, 'r', 0, Py_DTSF_ADD_DOT_0, NULL);
    if (!repr) {
        PyErr_Clear();
        return -1;
    }
    int n = snprintf(out, cap, "%s", repr);
    PyMem_Free(repr);
    return n;
}

/* values.py snak_columns: the 21 value columns of a snak. */
static void put_value(walker *w, table *t, int32_t snak) {
    char text[256];
    if (!IS(snak, J_OBJ)) REFUSE();
    int32_t snaktype = GET(snak, "snaktype"), datatype = GET(snak, "datatype");
    if (datatype >= 0 && N(datatype)->type != J_STR && N(datatype)->type != J_NULL) REFUSE();
    if (snaktype >= 0 && !(IS(snaktype, J_STR) && str_eq(N(snaktype), "value"))) {
        put_text(w, t, snaktype); /* somevalue / novalue (or null): no datavalue, the type as text */
        put_null(t);
        put_text(w, t, datatype);
        put_nulls(t, 17);
        put_text(w, t, snaktype);
        return;
    }
    int32_t datavalue = GET(snak, "datavalue");
    if (!IS(datavalue, J_OBJ)) REFUSE();
    int32_t vtype = GET(datavalue, "type"), v = GET(datavalue, "value");
    if (!IS(vtype, J_STR) || v < 0) REFUSE();
    const jnode *type = N(vtype);
    put_str(t, "value", 5);
    put_str(t, type->s, type->len);
    put_text(w, t, datatype);
    if (str_eq(type, "wikibase-entityid")) {
        int32_t id = IS(v, J_OBJ) ? GET(v, "id") : -1;
        if (!IS(id, J_STR) || N(id)->len == 0) REFUSE(); /* numeric-id only: the Python path */
        put_str(t, N(id)->s, N(id)->len);
        put_nulls(t, 16);
        put_str(t, N(id)->s, N(id)->len);
    } else if (str_eq(type, "string")) {
        if (!IS(v, J_STR)) REFUSE();
        put_null(t);
        put_str(t, N(v)->s, N(v)->len);
        put_nulls(t, 15);
        put_str(t, N(v)->s, N(v)->len);
    } else if (str_eq(type, "time")) {
        if (!IS(v, J_OBJ)) REFUSE();
        int32_t time = GET(v, "time");
        if (!IS(time, J_STR)) REFUSE();
        int no_precision;
        int precision = (int)int_in(w, GET(v, "precision"), -128, 127, &no_precision);
        int n = format_time(w, N(time), no_precision ? 11 : precision, text, sizeof text);
        if (n < 0 || (size_t)n >= sizeof text) REFUSE();
        put_nulls(t, 3);
        put_str(t, N(time)->s, N(time)->len);
        if (no_precision) put_null(t);
        else put_int(t, precision);
        put_entity_uri(w, t, GET(v, "calendarmodel"));
        put_int_in(w, t, GET(v, "timezone"), INT32_MIN, INT32_MAX);
        put_int_in(w, t, GET(v, "before"), INT32_MIN, INT32_MAX);
        put_int_in(w, t, GET(v, "after"), INT32_MIN, INT32_MAX);
        put_nulls(t, 8);
        put_str(t, text, (size_t)n);
    } else if (str_eq(type, "quantity")) {
        if (!IS(v, J_OBJ)) REFUSE();
        double amount = to_float(w, GET(v, "amount"));
        const char *unit = NULL;
        size_t unit_len = 0;
        int has_unit = entity_uri(w, GET(v, "unit"), &unit, &unit_len);
        int n = format_amount(amount, text, sizeof text);
        if (n < 0 || (size_t)n >= sizeof text) REFUSE();
        if (has_unit && unit_len) { /* "311 Q712226": the unit follows when it is non-empty */
            if ((size_t)n + 1 + unit_len >= sizeof text) REFUSE();
            text[n++] = ' ';
            memcpy(text + n, unit, unit_len);
            n += (int)unit_len;
        }
        put_nulls(t, 9);
        put_double(t, amount);
        if (has_unit) put_str(t, unit, unit_len);
        else put_null(t);
        put_opt_float(w, t, GET(v, "lowerBound"));
        put_opt_float(w, t, GET(v, "upperBound"));
        put_nulls(t, 4);
        put_str(t, text, (size_t)n);
    } else if (str_eq(type, "monolingualtext")) {
        if (!IS(v, J_OBJ)) REFUSE();
        int32_t mono = GET(v, "text"), language = GET(v, "language");
        if (mono < 0 || language < 0) REFUSE();
        put_null(t);
        put_text(w, t, mono);
        put_text(w, t, language);
        put_nulls(t, 14);
        put_text(w, t, mono);
    } else if (str_eq(type, "globecoordinate")) {
        if (!IS(v, J_OBJ)) REFUSE();
        double lat = to_float(w, GET(v, "latitude")), lon = to_float(w, GET(v, "longitude"));
        int n = snprintf(text, sizeof text, "%.6g, %.6g", lat, lon);
        if (n < 0 || (size_t)n >= sizeof text) REFUSE();
        put_nulls(t, 13);
        put_double(t, lat);
        put_double(t, lon);
        put_opt_float(w, t, GET(v, "precision"));
        put_entity_uri(w, t, GET(v, "globe"));
        put_str(t, text, (size_t)n);
    } else {
        REFUSE(); /* a datavalue type this code does not know: rows.py keeps it as JSON */
    }
}

/* rows.py ordered_snaks: the snak lists of `groups` in the `*-order` list's order, with the
 * properties it omits after them in map order. Fills w->scratch; returns the count. */
static size_t ordered_groups(walker *w, int32_t groups_idx, int32_t order, const int32_t **groups_out) {
    int32_t groups = mapping(w, groups_idx);
    size_t n_order = 0, n_out = 0, k = groups >= 0 ? N(groups)->count : 0;
    size_t need = 2 * (k + (IS(order, J_ARR) ? N(order)->count : 0)) + 1;
    if (need > w->scratch_cap) {
        int32_t *s = realloc(w->scratch, need * sizeof *s);
        if (!s) REFUSE();
        w->scratch = s;
        w->scratch_cap = need;
    }
    int32_t *props = w->scratch, *out = w->scratch + need / 2;
    *groups_out = out;
    if (jp_truthy(&w->P, order)) {
        if (N(order)->type != J_ARR) REFUSE();
        for (int32_t p = N(order)->first; p >= 0; p = N(p)->next) {
            if (N(p)->type != J_STR) REFUSE();
            size_t j = 0;
            while (j < n_order && !(N(props[j])->len == N(p)->len && !memcmp(N(props[j])->s, N(p)->s, N(p)->len))) j++;
            if (j == n_order) props[n_order++] = p;
        }
    }
    for (size_t j = 0; j < n_order; j++) {
        int32_t g = groups >= 0 ? jp_get(&w->P, groups, N(props[j])->s, N(props[j])->len) : -1;
        if (g >= 0) out[n_out++] = g;
    }
    if (groups >= 0) /* groups the order list omits, in map order */
        for (int32_t g = N(groups)->first; g >= 0; g = N(g)->next) {
            size_t j = 0;
            while (j < n_order && !(N(props[j])->len == N(g)->klen && !memcmp(N(props[j])->s, N(g)->key, N(g)->klen))) j++;
            if (j == n_order) out[n_out++] = g;
        }
    return n_out;
}

static void begin(walker *w, table *t) {
    if (!table_begin_row(t)) REFUSE();
}

static void end(walker *w, table *t) {
    if (t->failed) REFUSE();
    table_end_row(t);
}

static int32_t pick(walker *w, int32_t texts) {
    for (int l = 0; l < w->nlangs; l++) {
        int32_t entry = texts >= 0 ? jp_get(&w->P, texts, w->langs[l], w->lang_lens[l]) : -1;
        if (jp_truthy(&w->P, entry)) {
            if (N(entry)->type != J_OBJ) REFUSE();
            int32_t value = GET(entry, "value");
            if (value < 0 || (N(value)->type != J_STR && N(value)->type != J_NULL)) REFUSE();
            return value;
        }
    }
    return -1;
}

static void label_rows(walker *w, const jnode *eid, int32_t labels, int32_t aliases) {
    table *t = &w->t[T_LABELS];
    for (int l = 0; l < w->nlangs; l++) {
        const char *lang = w->langs[l];
        size_t lang_len = w->lang_lens[l];
        int32_t entry = labels >= 0 ? jp_get(&w->P, labels, lang, lang_len) : -1;
        if (jp_truthy(&w->P, entry)) {
            if (N(entry)->type != J_OBJ) REFUSE();
            int32_t value = GET(entry, "value");
            if (value < 0) REFUSE();
            begin(w, t);
            put_str(t, eid->s, eid->len), put_str(t, lang, lang_len), put_text(w, t, value), put_str(t, "label", 5);
            end(w, t);
        }
        int32_t list_idx = list(w, aliases >= 0 ? jp_get(&w->P, aliases, lang, lang_len) : -1);
        for (int32_t a = list_idx >= 0 ? N(list_idx)->first : -1; a >= 0; a = N(a)->next) {
            int32_t value = IS(a, J_OBJ) ? GET(a, "value") : -1;
            if (value < 0) REFUSE();
            begin(w, t);
            put_str(t, eid->s, eid->len), put_str(t, lang, lang_len), put_text(w, t, value), put_str(t, "alias", 5);
            end(w, t);
        }
    }
}

static long statement_rows(walker *w, const jnode *eid, int32_t claims) {
    long order = 0;
    for (int32_t group = claims >= 0 ? N(claims)->first : -1; group >= 0; group = N(group)->next) {
        int32_t statements = list(w, group);
        for (int32_t st = statements >= 0 ? N(statements)->first : -1; st >= 0; st = N(st)->next) {
            if (!IS(st, J_OBJ)) REFUSE();
            int32_t sid = GET(st, "id"), mainsnak = GET(st, "mainsnak");
            if (!IS(sid, J_STR) || !IS(mainsnak, J_OBJ)) REFUSE();
            int32_t prop = GET(mainsnak, "property"), rank = GET(st, "rank");
            if ((prop >= 0 && !IS(prop, J_STR)) || (rank >= 0 && !IS(rank, J_STR))) REFUSE();
            const jnode *id = N(sid);
            long n_qual = 0, n_ref = 0;
            int32_t qualifiers = GET(st, "qualifiers");
            if (jp_truthy(&w->P, qualifiers)) {
                table *t = &w->t[T_QUALIFIERS];
                const int32_t *ordered;
                size_t n = ordered_groups(w, qualifiers, GET(st, "qualifiers-order"), &ordered);
                for (size_t g = 0; g < n; g++) {
                    int32_t group_node = ordered[g], snaks = list(w, group_node);
                    for (int32_t snak = snaks >= 0 ? N(snaks)->first : -1; snak >= 0; snak = N(snak)->next) {
                        begin(w, t);
                        put_str(t, id->s, id->len), put_str(t, eid->s, eid->len), put_int(t, n_qual++);
                        put_str(t, N(group_node)->key, N(group_node)->klen);
                        put_value(w, t, snak);
                        end(w, t);
                    }
                }
            }
            int32_t references = GET(st, "references");
            if (jp_truthy(&w->P, references)) {
                table *t = &w->t[T_REFERENCES];
                if (N(references)->type != J_ARR) REFUSE();
                for (int32_t ref = N(references)->first; ref >= 0; ref = N(ref)->next, n_ref++) {
                    if (!IS(ref, J_OBJ)) REFUSE();
                    int32_t hash = GET(ref, "hash");
                    if (hash >= 0 && !IS(hash, J_STR) && !IS(hash, J_NULL)) REFUSE();
                    const int32_t *ordered;
                    size_t n = ordered_groups(w, GET(ref, "snaks"), GET(ref, "snaks-order"), &ordered);
                    long s_order = 0;
                    for (size_t g = 0; g < n; g++) {
                        int32_t group_node = ordered[g], snaks = list(w, group_node);
                        for (int32_t snak = snaks >= 0 ? N(snaks)->first : -1; snak >= 0; snak = N(snak)->next) {
                            begin(w, t);
                            put_str(t, id->s, id->len), put_str(t, eid->s, eid->len), put_text(w, t, hash);
                            put_int(t, n_ref), put_int(t, s_order++);
                            put_str(t, N(group_node)->key, N(group_node)->klen);
                            put_value(w, t, snak);
                            end(w, t);
                        }
                    }
                }
            }
            table *t = &w->t[T_STATEMENTS];
            begin(w, t);
            put_str(t, id->s, id->len), put_str(t, eid->s, eid->len);
            if (prop >= 0) put_str(t, N(prop)->s, N(prop)->len);
            else put_str(t, N(group)->key, N(group)->klen);
            if (rank >= 0) put_str(t, N(rank)->s, N(rank)->len);
            else put_str(t, "normal", 6);
            put_int(t, order++), put_int(t, n_qual), put_int(t, n_ref);
            put_value(w, t, mainsnak);
            end(w, t);
        }
    }
    return order;
}

static long walk_entity(walker *w, int32_t root, int32_t *modified) {
    if (!IS(root, J_OBJ)) REFUSE();
    int32_t type = GET(root, "type"), id = GET(root, "id");
    if (!IS(type, J_STR) || !(str_eq(N(type), "item") || str_eq(N(type), "property"))) REFUSE();
    if (!IS(id, J_STR) || N(id)->len == 0) REFUSE();
    int32_t labels = mapping(w, GET(root, "labels")), descriptions = mapping(w, GET(root, "descriptions"));
    int32_t aliases = mapping(w, GET(root, "aliases")), claims = mapping(w, GET(root, "claims"));
    const jnode *eid = N(id);
    label_rows(w, eid, labels, aliases);
    long n_statements = statement_rows(w, eid, claims);
    int32_t sitelinks = mapping(w, GET(root, "sitelinks")), datatype = GET(root, "datatype");
    *modified = GET(root, "modified");
    table *t = &w->t[T_ENTITIES];
    begin(w, t);
    put_str(t, eid->s, eid->len), put_str(t, N(type)->s, N(type)->len);
    put_text(w, t, pick(w, labels)), put_text(w, t, pick(w, descriptions)), put_text(w, t, datatype);
    put_int(t, sitelinks >= 0 ? N(sitelinks)->count : 0), put_int(t, n_statements);
    put_text(w, t, *modified);
    end(w, t);
    if (n_statements > INT32_MAX) REFUSE();
    return n_statements;
}

long walk_line(walker *w, const char *line, size_t len, const char **modified, size_t *modified_len) {
    size_t saved[N_TABLES];
    for (int k = 0; k < N_TABLES; k++) saved[k] = w->t[k].rows;
    *modified = NULL;
    *modified_len = 0;
    int32_t root = jp_parse(&w->P, line, len);
    if (root < 0) return -1;
    volatile int32_t modified_idx = -1;
    long n;
    if (setjmp(w->refuse) == 0) {
        int32_t m = -1;
        n = walk_entity(w, root, &m);
        modified_idx = m;
    } else {
        for (int k = 0; k < N_TABLES; k++) {
            table_truncate(&w->t[k], saved[k]);
            w->t[k].failed = 0;
        }
        return -1;
    }
    if (IS(modified_idx, J_STR)) {
        *modified = N(modified_idx)->s;
        *modified_len = N(modified_idx)->len;
    }
    return n;
}
