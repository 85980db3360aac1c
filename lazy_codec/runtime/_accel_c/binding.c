/* -- a lazy object and its binding ----------------------------------------------------- */
#include "accel.h"

PyObject *
new_lazy_of(PyObject *kind, PyObject *name, PyObject *statement, PyObject *globals, PyObject *filename,
            PyObject *lineno, PyObject *base, PyObject *submodule)
{
    PyObject *lazy = S.lazy_import->tp_alloc(S.lazy_import, 0);
    if (lazy == NULL)
        return NULL;
    set_slot(lazy, S.o_name, name);
    set_slot(lazy, S.o_kind, kind);
    set_slot(lazy, S.o_statement, statement);
    set_slot(lazy, S.o_globals, globals);
    set_slot(lazy, S.o_filename, filename);
    set_slot(lazy, S.o_lineno, lineno);
    set_slot(lazy, S.o_submodule, submodule);
    set_slot(lazy, S.o_base, base);
    set_slot(lazy, S.o_level, int_zero);
    set_slot(lazy, S.o_key, Py_None);
    set_slot(lazy, S.o_from, Py_None);
    set_slot(lazy, S.o_shown, Py_None);
    set_slot(lazy, S.o_attached, Py_False);
    return lazy;
}

/* lazy.new_lazy */
PyObject *
new_lazy(PyObject *kind, PyObject *name, PyObject *statement, PyObject *globals, PyObject *filename,
         PyObject *lineno, PyObject *base)
{
    return new_lazy_of(kind, name, statement, globals, filename, lineno, base, Py_None);
}

/* The entry of state.live_keys that bind() used last: the namespace's
 * address (compared, never used) and the weak reference the table holds to
 * its LiveKeys, so that a module's statements after its first find their
 * LiveKeys without making an int of the address and looking it up (two of
 * a statement's dict lookups).  Valid while that LiveKeys is alive with a
 * count above 0: the table replaces an entry only when its LiveKeys is dead,
 * removes it only when its count falls to 0 (and a count that did never
 * rises again: a key rearmed there gets a new LiveKeys), and a live LiveKeys
 * is held by a key, which holds that namespace, so no other dict has its
 * address.  Else the table is asked, as state.live_keys_of does. */
static struct {
    PyObject *namespace; /* borrowed: compared only */
    PyObject *ref;
} last_live;

/* binding.bind, for a name not bound in `namespace` yet (otherwise, the
 * Python bind); the binding lock held */
int
bind(PyObject *namespace, PyObject *name, PyObject *lazy)
{
    busy++;
    int bound = PyDict_Contains(namespace, name);
    busy--;
    if (bound < 0)
        return -1;
    if (bound) {
        PyObject *done = PyObject_CallFunctionObjArgs(S.py_bind, namespace, name, lazy, NULL);
        Py_XDECREF(done);
        return done == NULL ? -1 : 0;
    }
    KeyObject *key = (KeyObject *)key_of(name);
    if (key == NULL)
        return -1;
    PyObject *live = NULL;
    if (namespace == last_live.namespace && WEAKREF_GET(last_live.ref, live) < 0)
        goto fail;
    if (live != NULL) {
        PyObject *count = SLOT(live, S.o_count);
        if (count == NULL || !PyLong_CheckExact(count) || PyLong_AsSsize_t(count) <= 0)
            Py_CLEAR(live); /* (popped from the table, or never counted: ask it) */
    }
    if (live != NULL)
        goto counted;
    PyObject *id = PyLong_FromVoidPtr(namespace);
    if (id == NULL)
        goto fail;
    busy++;
    PyObject *ref = PyDict_GetItemWithError(S.live_keys, id);
    busy--;
    if (ref != NULL && WEAKREF_GET(ref, live) < 0) {
        Py_DECREF(id);
        goto fail;
    }
    if (live != NULL) {
        last_live.namespace = namespace;
        Py_INCREF(ref);
        Py_XSETREF(last_live.ref, ref);
    }
    if (live == NULL && !PyErr_Occurred()) {
        /* state.live_keys_of: the namespace's first lazy key (or the
         * first since its count went): a LiveKeys, held weakly by the table */
        live = S.live_keys_type->tp_alloc(S.live_keys_type, 0);
        PyObject *zero = PyLong_FromLong(0);
        PyObject *weak = live != NULL && zero != NULL ? PyWeakref_NewRef(live, NULL) : NULL;
        if (weak != NULL) {
            set_slot(live, S.o_count, zero);
            busy++;
            if (PyDict_SetItem(S.live_keys, id, weak) < 0)
                Py_CLEAR(live);
            busy--;
            if (live != NULL) {
                last_live.namespace = namespace;
                Py_INCREF(weak);
                Py_XSETREF(last_live.ref, weak);
            }
        }
        else
            Py_CLEAR(live);
        Py_XDECREF(zero);
        Py_XDECREF(weak);
    }
    Py_DECREF(id);
    if (live == NULL)
        goto fail;
counted:;
    PyObject *count = SLOT(live, S.o_count);
    if (count == NULL || !PyLong_CheckExact(count)) {
        PyErr_SetString(PyExc_SystemError, "lazy_codec: a LiveKeys without its count");
        goto fail;
    }
    count = PyLong_FromSsize_t(PyLong_AsSsize_t(count) + 1);
    if (count == NULL)
        goto fail;
    Py_SETREF(SLOT(live, S.o_count), count);
    Py_INCREF(namespace);
    key->namespace = namespace;
    Py_INCREF(lazy);
    key->lazy = lazy;
    key->live = live; /* (the reference taken above) */
    live = NULL;
    set_slot(lazy, S.o_key, (PyObject *)key);
    busy++;
    int failed = PyDict_SetItem(namespace, (PyObject *)key, lazy);
    busy--;
    Py_DECREF(key);
    return failed;
fail:
    Py_XDECREF(live);
    Py_DECREF(key);
    return -1;
}

/* "import NAME as v" (a reified statement's text, see resolution.statement_code),
 * made in one allocation (two concatenations cost a statement ~700 instructions) */
PyObject *
import_statement(PyObject *name)
{
    Py_ssize_t head = PyUnicode_GET_LENGTH(s_import_head), length = PyUnicode_GET_LENGTH(name);
    Py_ssize_t tail = PyUnicode_GET_LENGTH(s_as_v);
    PyObject *statement = PyUnicode_New(head + length + tail, PyUnicode_MAX_CHAR_VALUE(name));
    if (statement == NULL)
        return NULL;
    if (PyUnicode_KIND(name) == PyUnicode_1BYTE_KIND) { /* (the common case: all three one byte a character) */
        Py_UCS1 *out = PyUnicode_1BYTE_DATA(statement);
        memcpy(out, PyUnicode_1BYTE_DATA(s_import_head), head);
        memcpy(out + head, PyUnicode_1BYTE_DATA(name), length);
        memcpy(out + head + length, PyUnicode_1BYTE_DATA(s_as_v), tail);
        return statement;
    }
    if (PyUnicode_CopyCharacters(statement, 0, s_import_head, 0, head) < 0 ||
        PyUnicode_CopyCharacters(statement, head, name, 0, length) < 0 ||
        PyUnicode_CopyCharacters(statement, head + length, s_as_v, 0, tail) < 0) {
        Py_DECREF(statement);
        return NULL;
    }
    return statement;
}
