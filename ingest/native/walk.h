/* One parsed entity line -> rows of the five tables, exactly as ingest/rows.py builds them.
 * Whatever rows.py would refuse, skip or treat in a way this file does not reproduce (an unknown
 * datavalue type, an old numeric-only entity id, a lexeme, a type error) makes the walk refuse the
 * whole line: its rows are undone and the line goes to the Python path, which then counts it,
 * reports it or converts it. So this code never decides anything rows.py would decide otherwise. */
#ifndef KG_WALK_H
#define KG_WALK_H
#include <setjmp.h>

#include "columns.h"
#include "json.h"

enum { T_ENTITIES, T_LABELS, T_STATEMENTS, T_QUALIFIERS, T_REFERENCES, N_TABLES };

#define VALUE_KINDS "sssssssbsiiidsdddddss" "ssss" /* + amount_text, lower_text, upper_text, invalid */
extern const char *TABLE_KINDS[N_TABLES];

typedef struct {
    jparser P;
    table t[N_TABLES];
    jmp_buf refuse;
    const char **langs; /* the chosen languages, then "mul" */
    size_t *lang_lens;
    int nlangs;
    int32_t *scratch;   /* snak group order */
    size_t scratch_cap;
    int64_t line;       /* the dump line being walked: every row's dump_line */
} walker;

/* Rows of one stripped entity line; returns its statement count, or -1 when refused (rows undone).
 * *modified / *modified_len receive the entity's `modified` text (NULL if none). */
long walk_line(walker *w, const char *line, size_t len, const char **modified, size_t *modified_len);
#endif
