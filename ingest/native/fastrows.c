/* kgcheck.ingest._fastrows: the ingest's hot loop in C. A Builder takes the raw chunks of a worker, turns each
 * entity line into rows of the five tables in Arrow layout (walk.c) and hands the columns to Python
 * as buffers; the lines it refuses come back to be converted by ingest/rows.py as before. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>

#include "walk.h"

typedef struct {
    PyObject_HEAD
    walker w;
    int ready;
} Builder;

static void Builder_dealloc(Builder *self) {
    if (self->ready) {
        jp_free(&self->w.P);
        for (int k = 0; k < N_TABLES; k++) table_free(&self->w.t[k]);
    }
    for (int l = 0; l < self->w.nlangs; l++) PyMem_Free((void *)self->w.langs[l]);
    PyMem_Free(self->w.langs);
    PyMem_Free(self->w.lang_lens);
    free(self->w.scratch);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Builder_init(Builder *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"languages", "kinds", NULL};
    PyObject *languages, *kinds;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!O!", kwlist, &PyTuple_Type, &languages, &PyTuple_Type, &kinds))
        return -1;
    if (self->ready) {
        PyErr_SetString(PyExc_RuntimeError, "Builder already initialised");
        return -1;
    }
    if (PyTuple_GET_SIZE(kinds) != N_TABLES) {
        PyErr_SetString(PyExc_ValueError, "kinds: one string per table expected");
        return -1;
    }
    for (int k = 0; k < N_TABLES; k++) {
        const char *given = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kinds, k));
        if (!given) return -1;
        if (strcmp(given, TABLE_KINDS[k]) != 0) {
            PyErr_Format(PyExc_ValueError, "table %d: columns %s, this build of _fastrows writes %s", k, given,
                         TABLE_KINDS[k]);
            return -1;
        }
    }
    Py_ssize_t n = PyTuple_GET_SIZE(languages);
    self->w.langs = PyMem_Calloc((size_t)n + 1, sizeof(char *));
    self->w.lang_lens = PyMem_Calloc((size_t)n + 1, sizeof(size_t));
    if (!self->w.langs || !self->w.lang_lens) return PyErr_NoMemory(), -1;
    for (Py_ssize_t l = 0; l <= n; l++) { /* the chosen languages, then the language-neutral "mul" */
        Py_ssize_t len;
        const char *lang = l < n ? PyUnicode_AsUTF8AndSize(PyTuple_GET_ITEM(languages, l), &len) : "mul";
        if (!lang) return -1;
        if (l == n) len = 3;
        char *copy = PyMem_Malloc((size_t)len + 1);
        if (!copy) return PyErr_NoMemory(), -1;
        memcpy(copy, lang, (size_t)len + 1);
        self->w.langs[l] = copy;
        self->w.lang_lens[l] = (size_t)len;
        self->w.nlangs = (int)l + 1;
    }
    jp_init(&self->w.P);
    for (int k = 0; k < N_TABLES; k++)
        if (!table_init(&self->w.t[k], TABLE_KINDS[k])) return PyErr_NoMemory(), -1;
    self->ready = 1;
    return 0;
}

/* a > b as Python compares str: UTF-8 bytes order as code points do; a prefix comes first. */
static int later(const char *a, size_t a_len, const char *b, size_t b_len) {
    int c = memcmp(a, b, a_len < b_len ? a_len : b_len);
    return c > 0 || (c == 0 && a_len > b_len);
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\x0b' || c == '\x0c'; }

/* add_chunk(data, first_line, offset) -> (lines, brackets, entities, statements, saw_open, saw_close,
 * max_modified, refused), refused being [(line_no, offset, stripped line bytes)] for the Python path.
 * Line accounting follows convert.convert_chunk exactly. */
static PyObject *Builder_add_chunk(Builder *self, PyObject *args) {
    Py_buffer buf;
    long long line_no, offset;
    if (!self->ready) return PyErr_Format(PyExc_RuntimeError, "Builder not initialised");
    if (!PyArg_ParseTuple(args, "y*LL", &buf, &line_no, &offset)) return NULL;
    PyObject *refused = PyList_New(0);
    if (!refused) return PyBuffer_Release(&buf), NULL;
    const char *data = buf.buf, *end = data + buf.len, *max_modified = NULL;
    size_t max_len = 0;
    char *max_copy = NULL;
    long long lines = 0, brackets = 0, entities = 0, statements = 0;
    int saw_open = 0, saw_close = 0, failed = 0;
    for (const char *raw = data; raw <= end && !failed;) {
        const char *nl = memchr(raw, '\n', (size_t)(end - raw));
        const char *raw_end = nl ? nl : end;
        const char *s = raw, *e = raw_end;
        while (s < e && is_space(*s)) s++;
        while (e > s && is_space(e[-1])) e--;
        if (e > s && e[-1] == ',') e--;
        size_t len = (size_t)(e - s);
        if (len == 0) {
        } else if (len == 1 && *s == '[') {
            lines++, brackets++, saw_open = 1;
        } else if (len == 1 && *s == ']') {
            lines++, brackets++, saw_close = 1;
        } else {
            const char *modified;
            size_t modified_len;
            self->w.line = line_no;
            long n = walk_line(&self->w, s, len, &modified, &modified_len);
            if (n >= 0) {
                lines++, entities++, statements += n;
                if (modified_len && (!max_modified || later(modified, modified_len, max_modified, max_len))) {
                    char *copy = realloc(max_copy, modified_len);
                    if (!copy) {
                        PyErr_NoMemory();
                        failed = 1;
                        break;
                    }
                    memcpy(copy, modified, modified_len);
                    max_copy = copy, max_modified = copy, max_len = modified_len;
                }
            } else {
                PyObject *item = Py_BuildValue("(LLy#)", line_no, offset, s, (Py_ssize_t)len);
                if (!item || PyList_Append(refused, item) < 0) failed = 1;
                Py_XDECREF(item);
            }
        }
        offset += (long long)(raw_end - raw) + 1;
        line_no++;
        if (!nl) break;
        raw = nl + 1;
    }
    PyBuffer_Release(&buf);
    if (failed) {
        free(max_copy);
        Py_DECREF(refused);
        return NULL;
    }
    PyObject *modified_obj = max_copy ? PyUnicode_DecodeUTF8(max_copy, (Py_ssize_t)max_len, "strict") : Py_NewRef(Py_None);
    free(max_copy);
    if (!modified_obj) return Py_DECREF(refused), NULL;
    return Py_BuildValue("(LLLLOONN)", lines, brackets, entities, statements, saw_open ? Py_True : Py_False,
                         saw_close ? Py_True : Py_False, modified_obj, refused);
}

/* Rows buffered, counted as RowBuffers.size() counts them. */
static PyObject *Builder_rows(Builder *self, PyObject *Py_UNUSED(ignored)) {
    if (!self->ready) return PyLong_FromLong(0);
    table *t = self->w.t;
    return PyLong_FromSize_t(t[T_LABELS].rows + t[T_STATEMENTS].rows + t[T_QUALIFIERS].rows + t[T_REFERENCES].rows);
}

/* The largest string column's bytes: int32 offsets cap it at 2 GiB, so the caller flushes well before. */
static PyObject *Builder_string_bytes(Builder *self, PyObject *Py_UNUSED(ignored)) {
    size_t most = 0;
    for (int k = 0; self->ready && k < N_TABLES; k++)
        for (int c = 0; c < self->w.t[k].ncols; c++) {
            const column *col = &self->w.t[k].cols[c];
            if (col->kind == 's' && self->w.t[k].rows && (size_t)col->offsets[self->w.t[k].rows] > most)
                most = (size_t)col->offsets[self->w.t[k].rows];
        }
    return PyLong_FromSize_t(most);
}

static PyObject *column_buffers(const column *col, size_t rows) {
    static const size_t widths[128] = {['b'] = 1, ['i'] = 4, ['d'] = 8};
    PyObject *valid = PyBytes_FromStringAndSize(rows ? (const char *)col->valid : "", (Py_ssize_t)((rows + 7) / 8));
    if (!valid) return NULL;
    if (col->kind == 's') {
        PyObject *offsets = rows ? PyBytes_FromStringAndSize((const char *)col->offsets, (Py_ssize_t)((rows + 1) * 4))
                                 : PyBytes_FromStringAndSize("\0\0\0\0", 4);
        PyObject *bytes = PyBytes_FromStringAndSize(rows ? col->data : "", rows ? (Py_ssize_t)col->offsets[rows] : 0);
        return Py_BuildValue("(NNN)", valid, offsets, bytes);
    }
    PyObject *values = PyBytes_FromStringAndSize(rows ? col->data : "", (Py_ssize_t)(rows * widths[(int)col->kind]));
    return Py_BuildValue("(NN)", valid, values);
}

/* take() -> [(rows, [column buffers…]) per table], and the builder starts empty again. */
static PyObject *Builder_take(Builder *self, PyObject *Py_UNUSED(ignored)) {
    if (!self->ready) return PyErr_Format(PyExc_RuntimeError, "Builder not initialised");
    PyObject *out = PyList_New(N_TABLES);
    if (!out) return NULL;
    for (int k = 0; k < N_TABLES; k++) {
        table *t = &self->w.t[k];
        PyObject *cols = PyList_New(t->ncols);
        if (!cols) return Py_DECREF(out), NULL;
        for (int c = 0; c < t->ncols; c++) {
            PyObject *col = column_buffers(&t->cols[c], t->rows);
            if (!col) return Py_DECREF(cols), Py_DECREF(out), NULL;
            PyList_SET_ITEM(cols, c, col);
        }
        PyList_SET_ITEM(out, k, Py_BuildValue("(nN)", (Py_ssize_t)t->rows, cols));
    }
    for (int k = 0; k < N_TABLES; k++) table_reset(&self->w.t[k]);
    return out;
}

static PyMethodDef Builder_methods[] = {
    {"add_chunk", (PyCFunction)Builder_add_chunk, METH_VARARGS, "Rows of a chunk's entity lines; returns counts and the refused lines."},
    {"rows", (PyCFunction)Builder_rows, METH_NOARGS, "Rows buffered (labels, statements, qualifiers, references)."},
    {"string_bytes", (PyCFunction)Builder_string_bytes, METH_NOARGS, "Bytes of the largest string column."},
    {"take", (PyCFunction)Builder_take, METH_NOARGS, "The buffered columns as Arrow buffers; empties the builder."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject BuilderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "kgcheck.ingest._fastrows.Builder",
    .tp_basicsize = sizeof(Builder),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Builder(languages, kinds): dump lines -> Arrow column buffers of the five tables.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Builder_init,
    .tp_dealloc = (destructor)Builder_dealloc,
    .tp_methods = Builder_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, .m_name = "_fastrows", .m_doc = "The ingest's row builder in C.", .m_size = -1,
};

PyMODINIT_FUNC PyInit__fastrows(void) {
    if (PyType_Ready(&BuilderType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&BuilderType);
    if (PyModule_AddObject(m, "Builder", (PyObject *)&BuilderType) < 0) {
        Py_DECREF(&BuilderType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
