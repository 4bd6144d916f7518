/* rows.py, in C: entity, label, statement, qualifier and reference rows of one entity line (walk.h);
 * the value columns of each snak come from snakvalue.c. */
#include <stdlib.h>
#include <string.h>

#include "walk_internal.h"

const char *TABLE_KINDS[N_TABLES] = {
    "sssssiis" "i",            /* entities (+ dump_line, every table's last column) */
    "ssss" "i",                /* labels */
    "ssssiii" VALUE_KINDS "i", /* statements */
    "ssis" VALUE_KINDS "i",    /* qualifiers */
    "sssiis" VALUE_KINDS "i",  /* references */
};

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
    if (w->line >= 0 && w->line <= INT32_MAX) put_int(t, w->line); /* rows.py MAX_LINE */
    else put_null(t);
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
