#include "columns.h"

#include <stdlib.h>
#include <string.h>

static size_t width(char kind) { return kind == 'b' ? 1 : kind == 'i' ? 4 : kind == 'd' ? 8 : 0; }

int table_init(table *t, const char *kinds) {
    memset(t, 0, sizeof *t);
    size_t n = strlen(kinds);
    if (n > MAX_COLUMNS) return 0;
    t->ncols = (int)n;
    for (size_t c = 0; c < n; c++) t->cols[c].kind = kinds[c];
    return 1;
}

void table_free(table *t) {
    for (int c = 0; c < t->ncols; c++) {
        free(t->cols[c].valid);
        free(t->cols[c].offsets);
        free(t->cols[c].data);
    }
    int n = t->ncols;
    char kinds[MAX_COLUMNS];
    for (int c = 0; c < n; c++) kinds[c] = t->cols[c].kind;
    memset(t, 0, sizeof *t);
    t->ncols = n;
    for (int c = 0; c < n; c++) t->cols[c].kind = kinds[c];
}

void table_reset(table *t) {
    t->rows = 0;
    t->col = 0;
    t->failed = 0;
}

static int grow(void **p, size_t bytes) {
    void *q = realloc(*p, bytes);
    if (!q) return 0;
    *p = q;
    return 1;
}

int table_begin_row(table *t) {
    t->col = 0;
    if (t->rows + 1 < t->cap) return !t->failed;
    size_t cap = t->cap ? t->cap * 2 : 8192;
    for (int c = 0; c < t->ncols; c++) {
        column *col = &t->cols[c];
        if (!grow((void **)&col->valid, cap / 8 + 1)) return 0;
        if (col->kind == 's') {
            if (!grow((void **)&col->offsets, (cap + 1) * sizeof(int32_t))) return 0;
            if (t->cap == 0) col->offsets[0] = 0;
        } else if (!grow((void **)&col->data, cap * width(col->kind))) {
            return 0;
        }
    }
    t->cap = cap;
    return !t->failed;
}

void table_end_row(table *t) { t->rows++; }

void table_truncate(table *t, size_t rows) {
    t->rows = rows; /* string bytes end at offsets[rows]: nothing else to undo */
    t->col = 0;
}

static void set_valid(column *col, size_t row, int valid) {
    uint8_t bit = (uint8_t)(1u << (row & 7));
    if (valid) col->valid[row >> 3] |= bit;
    else col->valid[row >> 3] &= (uint8_t)~bit;
}

void put_null(table *t) {
    column *col = &t->cols[t->col++];
    size_t r = t->rows;
    set_valid(col, r, 0);
    if (col->kind == 's') col->offsets[r + 1] = col->offsets[r];
    else memset(col->data + r * width(col->kind), 0, width(col->kind));
}

void put_str(table *t, const char *s, size_t len) {
    column *col = &t->cols[t->col++];
    size_t r = t->rows, used = (size_t)col->offsets[r];
    if (used + len > (size_t)INT32_MAX) { /* the caller flushes long before; refuse rather than wrap */
        t->failed = 1;
        col->offsets[r + 1] = col->offsets[r];
        return;
    }
    if (used + len > col->data_cap) {
        size_t cap = col->data_cap ? col->data_cap * 2 : 1 << 16;
        while (cap < used + len) cap *= 2;
        if (!grow((void **)&col->data, cap)) {
            t->failed = 1;
            col->offsets[r + 1] = col->offsets[r];
            return;
        }
        col->data_cap = cap;
    }
    memcpy(col->data + used, s, len);
    col->offsets[r + 1] = (int32_t)(used + len);
    set_valid(col, r, 1);
}

void put_int(table *t, int64_t v) {
    column *col = &t->cols[t->col++];
    size_t r = t->rows;
    set_valid(col, r, 1);
    if (col->kind == 'b') ((int8_t *)col->data)[r] = (int8_t)v;
    else ((int32_t *)col->data)[r] = (int32_t)v;
}

void put_double(table *t, double v) {
    column *col = &t->cols[t->col++];
    set_valid(col, t->rows, 1);
    ((double *)col->data)[t->rows] = v;
}
