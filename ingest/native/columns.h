/* Arrow-layout column builders: a validity bitmap plus int32 offsets + bytes (strings) or fixed-width
 * values. A table appends whole rows; truncating to an earlier row count undoes a refused line. */
#ifndef KG_COLUMNS_H
#define KG_COLUMNS_H
#include <stddef.h>
#include <stdint.h>

#define MAX_COLUMNS 40

typedef struct {
    char kind;          /* 's' string, 'b' int8, 'i' int32, 'd' float64 */
    uint8_t *valid;     /* bitmap, one bit a row */
    int32_t *offsets;   /* strings: rows + 1 */
    char *data;         /* string bytes, or the fixed-width values */
    size_t data_cap;
} column;

typedef struct {
    int ncols;
    column cols[MAX_COLUMNS];
    size_t rows, cap;
    int col;            /* the next column of the row being appended */
    int failed;         /* an allocation failed or a string column outgrew int32 offsets */
} table;

int table_init(table *t, const char *kinds);
void table_free(table *t);
void table_reset(table *t);
int table_begin_row(table *t);          /* 0 on allocation failure */
void table_end_row(table *t);
void table_truncate(table *t, size_t rows);
void put_null(table *t);
void put_str(table *t, const char *s, size_t len);
void put_int(table *t, int64_t v);
void put_double(table *t, double v);
#endif
