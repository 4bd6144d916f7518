/* values.py, in C: the typed value columns of one snak (time, quantity, coordinate, text...). Anything
 * values.py would treat in a way this file does not reproduce refuses the whole line (walk.h). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "walk_internal.h"

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
    else {
        double d = to_float(w, i);
        if (!isfinite(d)) REFUSE(); /* values.py decimal_of: invalid */
        put_double(t, d);
    }
}

/* values.py decimal_of for a quantity: a decimal string read as a finite double. A JSON number
 * (whose exact text values.py takes from orjson's float) is the Python path's. */
static double decimal_string(walker *w, int32_t i) {
    if (!IS(i, J_STR)) REFUSE();
    double d = to_float(w, i);
    if (!isfinite(d)) REFUSE();
    return d;
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

/* values.py check_time: '+YYYY-MM-DDT00:00:00Z' (1-16 year digits), month 0-12, day within the month
 * (0 for month 0; 29 in February of years divisible by 4), precision missing or 0-14. A value that breaks
 * these rules is stored marked invalid by values.py: refuse, and let it do so. */
static void check_time(walker *w, const jnode *t, int no_precision, int64_t precision) {
    static const int month_days[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const char *s = t->s, *end = s + t->len;
    if (s == end || (*s != '+' && *s != '-')) REFUSE();
    const char *y = ++s;
    while (s < end && *s >= '0' && *s <= '9') s++;
    size_t ny = (size_t)(s - y);
    if (ny < 1 || ny > 16 || end - s != 16 || memcmp(s + 6, "T00:00:00Z", 10) != 0 || s[0] != '-' || s[3] != '-')
        REFUSE();
    int64_t year = digits_value(w, y, s, 16), month = digits_value(w, s + 1, s + 3, 2);
    int64_t day = digits_value(w, s + 4, s + 6, 2);
    if (month > 12) REFUSE();
    int64_t limit = month == 0 ? 0 : (month == 2 && year % 4) ? 28 : month_days[month - 1];
    if (day > limit) REFUSE();
    if (!no_precision && (precision < 0 || precision > 14)) REFUSE();
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

void put_value(walker *w, table *t, int32_t snak) {
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
        put_nulls(t, 4);
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
        put_nulls(t, 4);
    } else if (str_eq(type, "string")) {
        if (!IS(v, J_STR)) REFUSE();
        put_null(t);
        put_str(t, N(v)->s, N(v)->len);
        put_nulls(t, 15);
        put_str(t, N(v)->s, N(v)->len);
        put_nulls(t, 4);
    } else if (str_eq(type, "time")) {
        if (!IS(v, J_OBJ)) REFUSE();
        int32_t time = GET(v, "time");
        if (!IS(time, J_STR)) REFUSE();
        int no_precision;
        int precision = (int)int_in(w, GET(v, "precision"), -128, 127, &no_precision);
        check_time(w, N(time), no_precision, precision);
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
        put_nulls(t, 4);
    } else if (str_eq(type, "quantity")) {
        if (!IS(v, J_OBJ)) REFUSE();
        int32_t amount_i = GET(v, "amount"), lower_i = GET(v, "lowerBound"), upper_i = GET(v, "upperBound");
        double amount = decimal_string(w, amount_i);
        int has_lower = lower_i >= 0 && N(lower_i)->type != J_NULL, has_upper = upper_i >= 0 && N(upper_i)->type != J_NULL;
        double lower = has_lower ? decimal_string(w, lower_i) : 0, upper = has_upper ? decimal_string(w, upper_i) : 0;
        const char *unit = NULL;
        size_t unit_len = 0;
        int has_unit = entity_uri(w, GET(v, "unit"), &unit, &unit_len);
        /* values.py display_decimal: the dump's text without its leading '+' (to_float: at most 60 bytes) */
        const jnode *a = N(amount_i);
        int plus = a->s[0] == '+';
        int n = (int)a->len - plus;
        memcpy(text, a->s + plus, (size_t)n);
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
        if (has_lower) put_double(t, lower);
        else put_null(t);
        if (has_upper) put_double(t, upper);
        else put_null(t);
        put_nulls(t, 4);
        put_str(t, text, (size_t)n);
        put_str(t, a->s, a->len);
        if (has_lower) put_str(t, N(lower_i)->s, N(lower_i)->len);
        else put_null(t);
        if (has_upper) put_str(t, N(upper_i)->s, N(upper_i)->len);
        else put_null(t);
        put_null(t);
    } else if (str_eq(type, "monolingualtext")) {
        if (!IS(v, J_OBJ)) REFUSE();
        int32_t mono = GET(v, "text"), language = GET(v, "language");
        if (mono < 0 || language < 0) REFUSE();
        put_null(t);
        put_text(w, t, mono);
        put_text(w, t, language);
        put_nulls(t, 14);
        put_text(w, t, mono);
        put_nulls(t, 4);
    } else if (str_eq(type, "globecoordinate")) {
        if (!IS(v, J_OBJ)) REFUSE();
        double lat = to_float(w, GET(v, "latitude")), lon = to_float(w, GET(v, "longitude"));
        /* values.py _coordinate: finite, latitude within ±90, longitude within ±360 */
        if (!(lat >= -90 && lat <= 90 && lon >= -360 && lon <= 360)) REFUSE();
        int n = snprintf(text, sizeof text, "%.6g, %.6g", lat, lon);
        if (n < 0 || (size_t)n >= sizeof text) REFUSE();
        put_nulls(t, 13);
        put_double(t, lat);
        put_double(t, lon);
        put_opt_float(w, t, GET(v, "precision"));
        put_entity_uri(w, t, GET(v, "globe"));
        put_str(t, text, (size_t)n);
        put_nulls(t, 4);
    } else {
        REFUSE(); /* a datavalue type this code does not know: rows.py keeps it as JSON */
    }
}
