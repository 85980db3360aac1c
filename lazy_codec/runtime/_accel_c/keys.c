/* the key: a str subclass (keys.LazyName's base) whose compare and hash
 * are in C (those two: first_use.c), and a key made for a name by hand */
#include "accel.h"

static PyMemberDef key_members[] = {
    {"namespace", T_OBJECT_EX, offsetof(KeyObject, namespace), 0, NULL},
    {"lazy", T_OBJECT_EX, offsetof(KeyObject, lazy), 0, NULL},
    {"live", T_OBJECT_EX, offsetof(KeyObject, live), 0, NULL},
    {"resolving", T_OBJECT, offsetof(KeyObject, resolving), 0, NULL},
    {"running", T_OBJECT, offsetof(KeyObject, running), 0, NULL},
    {NULL}};

static PyObject *
key_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return PyUnicode_Type.tp_new(type, args, kwds);
}

/* A LazyName for `name`, an exact str: what `LazyName(name)` makes (str's
 * __new__ for a subclass: a "legacy" str, the struct and its characters in
 * two blocks), without the argument parsing, the argument tuple and the
 * conversion, which cost a statement several hundred instructions.  The
 * fields are filled as each version's own header describes a ready legacy
 * string (Include/cpython/unicodeobject.h: compact = 0, data.any the
 * characters, utf8 shared with them when ascii, on 3.9-3.11 wstr shared
 * when a character is a wchar_t), by field name, so compiled against each
 * version's layout; and setup() checks the result field by field against
 * str.__new__'s for names of each kind (key_by_hand_agrees), else every key
 * is made by str.__new__. */
int key_by_hand; /* set by setup() when the check passes */

static PyObject *
key_by_str_new(PyTypeObject *type, PyObject *name)
{
    PyObject *args = PyTuple_Pack(1, name);
    if (args == NULL)
        return NULL;
    PyObject *key = type->tp_new(type, args, NULL);
    Py_DECREF(args);
    return key;
}

static PyObject *
key_filled(PyTypeObject *type, PyObject *name)
{
#if PY_VERSION_HEX < 0x030C0000
    if (!PyUnicode_IS_READY(name))
        return key_by_str_new(type, name);
#endif
    Py_hash_t hash = PyObject_Hash(name); /* (an exact str: its cached hash) */
    if (hash == -1)
        return NULL;
    Py_ssize_t length = PyUnicode_GET_LENGTH(name);
    int kind = PyUnicode_KIND(name);
    void *data = PyObject_Malloc((size_t)(length + 1) * kind);
    if (data == NULL)
        return PyErr_NoMemory();
    PyObject *self = type->tp_alloc(type, 0); /* (zeroed) */
    if (self == NULL) {
        PyObject_Free(data);
        return NULL;
    }
    memcpy(data, PyUnicode_DATA(name), (size_t)(length + 1) * kind);
    PyASCIIObject *ascii = (PyASCIIObject *)self;
    PyCompactUnicodeObject *compact = (PyCompactUnicodeObject *)self;
    ascii->length = length;
    ascii->hash = hash;
    ascii->state.interned = 0;
    ascii->state.kind = kind;
    ascii->state.compact = 0;
    ascii->state.ascii = PyUnicode_IS_ASCII(name);
#if PY_VERSION_HEX < 0x030C0000
    ascii->state.ready = 1;
    if (kind == sizeof(wchar_t)) {
        ascii->wstr = (wchar_t *)data;
        compact->wstr_length = length;
    }
#endif
    if (PyUnicode_IS_ASCII(name)) {
        compact->utf8 = (char *)data;
        compact->utf8_length = length;
    }
    ((PyUnicodeObject *)self)->data.any = data;
    return self;
}

PyObject *
key_of(PyObject *name)
{
    if (key_by_hand && PyUnicode_CheckExact(name))
        return key_filled(S.lazy_name, name);
    return key_by_str_new(S.lazy_name, name);
}

/* do key_filled's keys have str.__new__'s fields, for names of each kind?
 * 1 yes, 0 no, -1 error */
int
key_by_hand_agrees(PyTypeObject *type)
{
    static const char *names[] = {"json", "", "_\xc3\xa9t\xc3\xa9", "\xc4\x81" "b", "x\xf0\x9f\x90\x8d", NULL};
    int agree = 1;
    for (int i = 0; agree == 1 && names[i] != NULL; i++) {
        PyObject *name = PyUnicode_FromString(names[i]);
        if (name == NULL || PyObject_Hash(name) == -1) {
            Py_XDECREF(name);
            return -1;
        }
        PyObject *made = key_by_str_new(type, name), *filled = made ? key_filled(type, name) : NULL;
        if (filled == NULL) {
            Py_XDECREF(made);
            Py_DECREF(name);
            return -1;
        }
        PyASCIIObject *a = (PyASCIIObject *)made, *b = (PyASCIIObject *)filled;
        PyCompactUnicodeObject *ca = (PyCompactUnicodeObject *)made, *cb = (PyCompactUnicodeObject *)filled;
        void *da = ((PyUnicodeObject *)made)->data.any, *db = ((PyUnicodeObject *)filled)->data.any;
        Py_ssize_t length = PyUnicode_GET_LENGTH(name);
        int kind = PyUnicode_KIND(name);
        agree = a->length == length && b->length == length && a->hash == b->hash &&
                a->state.interned == b->state.interned && a->state.kind == b->state.kind &&
                a->state.compact == b->state.compact && a->state.ascii == b->state.ascii &&
                (int)b->state.kind == kind && !b->state.compact && da != NULL && db != NULL &&
                memcmp(da, db, (size_t)(length + 1) * kind) == 0 && ca->utf8_length == cb->utf8_length &&
                (ca->utf8 == da) == (cb->utf8 == db) && (ca->utf8 == NULL) == (cb->utf8 == NULL) &&
#if PY_VERSION_HEX < 0x030C0000
                a->state.ready == b->state.ready && ca->wstr_length == cb->wstr_length &&
                (a->wstr == da) == (b->wstr == db) && (a->wstr == NULL) == (b->wstr == NULL) &&
#else
                a->state.statically_allocated == b->state.statically_allocated &&
#endif
                PyUnicode_Compare(made, filled) == 0 && PyUnicode_Compare(name, filled) == 0;
        Py_DECREF(made);
        Py_DECREF(filled);
        Py_DECREF(name);
    }
    return agree;
}

static int
key_traverse(KeyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->namespace);
    Py_VISIT(self->lazy);
    Py_VISIT(self->live);
    Py_VISIT(self->resolving);
    Py_VISIT(self->running);
    return 0;
}

static int
key_clear(KeyObject *self)
{
    Py_CLEAR(self->namespace);
    Py_CLEAR(self->lazy);
    Py_CLEAR(self->live);
    Py_CLEAR(self->resolving);
    Py_CLEAR(self->running);
    return 0;
}

static void
key_dealloc(KeyObject *self)
{
    PyObject_GC_UnTrack(self);
    key_clear(self);
    PyUnicode_Type.tp_dealloc((PyObject *)self);
}

PyTypeObject KeyBase_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "lazy_codec.runtime._accel.KeyBase",
    .tp_basicsize = sizeof(KeyObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "keys.LazyName's base: its compare and hash in C",
    .tp_new = key_new,
    .tp_dealloc = (destructor)key_dealloc,
    .tp_traverse = (traverseproc)key_traverse,
    .tp_clear = (inquiry)key_clear,
    .tp_free = PyObject_GC_Del,
    .tp_richcompare = key_richcompare,
    .tp_hash = key_hash,
    .tp_members = key_members,
};
