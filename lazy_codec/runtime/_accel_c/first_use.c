/* the first use of a name: a lazy key's compare and hash, and the common
 * case of its settling, in one file (the compare's path, kept together) */
#include "accel.h"
#include "dict_entries.h"

/* The first use of a name, in C, when it is the common case: a LOAD_GLOBAL or
 * LOAD_NAME of a key bound by `lazy import m` / `lazy from m import x`, whose
 * module is imported and done (the last lazy name of a dict hands the dict
 * to the Python rebuilder, as lookup.settle does).  1: done, the
 * lookup restarts and finds the value; 0: not the common case (nothing
 * changed); -1: error. */
static int settle_held(KeyObject *key, PyObject *name, PyObject *lazy);

static int
settle_fast(KeyObject *key, PyObject *name)
{
    if (!S.ready || Py_TYPE(key) != S.lazy_name || !PyUnicode_CheckExact(name) || key->lazy == NULL)
        return 0;
    /* held: Python code may run in the checks (a module's __spec__), and
     * the key may let go of it meanwhile */
    PyObject *lazy = key->lazy;
    Py_INCREF(lazy);
    lookups++;
    int result = settle_held(key, name, lazy);
    lookups--;
    REBUILD_IF_WAITING();
    Py_DECREF(lazy);
    return result;
}

/* the using frame's part: a name load of the key's own namespace */
static int
settle_held(KeyObject *key, PyObject *name, PyObject *lazy)
{
    PyFrameObject *frame = PyEval_GetFrame();
    if (frame == NULL)
        return 0;
    PyObject *globals, *codebytes;
    PyCodeObject *code;
    Py_ssize_t lasti = -1;
    if (frame_state(frame, &globals, &codebytes, &code, &lasti) < 0)
        return -1;
    int simple = globals == key->namespace && lasti >= 0 && lasti < PyBytes_GET_SIZE(codebytes) &&
                 S.simple_loads[(unsigned char)PyBytes_AS_STRING(codebytes)[lasti]];
    /* (changed in place, the entry keeps its place under any iteration) */
    int iterates = simple && !dict_entries_usable() ? code_may_iterate_dicts(code) : 0;
    Py_DECREF(globals);
    Py_DECREF(codebytes);
    Py_DECREF(code);
    if (iterates < 0)
        return -1;
    if (!simple)
        return 0;
    return settle_checked(key, name, lazy, !iterates);
}

/* lookup.settle's end for a dict's last lazy name (the binding lock held):
 * its LiveKeys out of the table, the dict given to the rebuilder (rebuild.c,
 * or the thread when another thread runs).  1 or -1 */
static int
rebuild_later(PyObject *namespace)
{
    PyObject *id = PyLong_FromVoidPtr(namespace);
    if (id == NULL)
        return -1;
    int gone = PyDict_DelItem(S.live_keys, id);
    Py_DECREF(id);
    if (gone < 0) {
        if (!PyErr_ExceptionMatches(PyExc_KeyError))
            return -1;
        PyErr_Clear();
    }
    return rebuild_queued(namespace) < 0 ? -1 : 1;
}

/* `from m import x` resolving m's own lazy `x` (a re-export: `from pkg
 * import name`, every `from` of mode "all"): as 3.15's getattr on m does,
 * from the using frame, m's binding settled (may_change) or at least its
 * import done (Python binds it then).  1: m's dict has the value now; 0:
 * not (Python's); -1: error.  Bounded: a chain of re-exports this long is
 * left to Python */
static int nested_depth;

static int
settle_nested(PyObject *module_dict, PyObject *attr, PyObject *lazy)
{
    PyObject *key = SLOT(lazy, S.o_key);
    if (key == NULL || Py_TYPE(key) != S.lazy_name || ((KeyObject *)key)->lazy != lazy ||
        ((KeyObject *)key)->namespace != module_dict || nested_depth >= 8)
        return 0;
    Py_INCREF(key);
    nested_depth++;
    int result = settle_checked((KeyObject *)key, attr, lazy, dict_entries_usable());
    nested_depth--;
    Py_DECREF(key);
    return result;
}

/* the rest of settle_held, once the use is known to be a load: with
 * may_change, the dict's entry changed here (or not: 0, Python's) */
int
settle_checked(KeyObject *key, PyObject *name, PyObject *lazy, int may_change)
{
    if (Py_TYPE(lazy) != S.lazy_import || (key->resolving && key->resolving != Py_None) ||
        (key->running && key->running != Py_None) || key->live == NULL || !plain_runtime())
        return 0;
    if (SLOT(lazy, S.o_from) != Py_None || SLOT(lazy, S.o_shown) != Py_None)
        return 0;
    /* the change is Python's in a loop that may iterate the dict (settled in
     * place); C still imports then, from the using frame, and Python reruns
     * the statement, which finds the module imported */
    PyObject *live_count = SLOT(key->live, S.o_count);
    int changes = may_change && live_count != NULL && PyLong_CheckExact(live_count) &&
                  PyLong_AsSsize_t(live_count) > 0;

    PyObject *target = SLOT(lazy, S.o_name);
    PyObject *base = SLOT(lazy, S.o_base);
    PyObject *lazy_globals = SLOT(lazy, S.o_globals);
    if (!PyDict_CheckExact(lazy_globals) || !plain_import(lazy_globals))
        return 0;
    PyObject *submodule = SLOT(lazy, S.o_submodule);
    PyObject *stored = bound_value(key);
    if (stored == NULL)
        return PyErr_Occurred() ? -1 : 0;
    /* a store under the key replaced the value, not the key (importlib's
     * setattr of a submodule on its package): that value is bound and
     * nothing imported, as lookup.settle does */
    PyObject *module, *value = stored != lazy ? stored : NULL;
    if (value != NULL && Py_TYPE(value) == S.lazy_import)
        return 0;
    Py_XINCREF(value);
    if (value == NULL && base == Py_None && submodule == Py_None && SLOT(lazy, S.o_kind) == S.kind_import) {
        /* `import m as v`, m a top-level name imported: sys.modules' module */
        Py_ssize_t dot = PyUnicode_FindChar(target, '.', 0, PyUnicode_GET_LENGTH(target), 1);
        if (dot == -2)
            return -1;
        int waiting = dot == -1 ? PyDict_Contains(S.waiting_children, target) : 1;
        if (waiting < 0)
            return -1;
        int done = waiting ? 0 : loaded(target, &module);
        if (done < 0)
            return -1;
        if (done) {
            value = module;
            Py_INCREF(value);
        }
    }
    else if (value == NULL && base != Py_None) {
        /* `from m import x as v`: x as m's dict has it (not a submodule to
         * import, nor a module __getattr__'s, nor a lazy binding there) */
        int done = loaded(base, &module);
        if (done < 0)
            return -1;
        if (done && !PyModule_CheckExact(module))
            return 0;
        int attachable = done ? nothing_to_attach(base) : 0;
        if (attachable < 0)
            return -1;
        if (attachable) {
            PyObject *attr =
                PyUnicode_Substring(target, PyUnicode_GET_LENGTH(base) + 1, PyUnicode_GET_LENGTH(target));
            if (attr == NULL)
                return -1;
            if (!dunder_name(attr)) { /* (ModuleType's own attributes come first) */
                busy++;
                value = PyDict_GetItemWithError(PyModule_GetDict(module), attr);
                busy--;
            }
            if (value == lazy) /* (`lazy from . import sub` in the package itself: no such name yet) */
                value = NULL;
            if (value != NULL && Py_TYPE(value) == S.lazy_import) {
                Py_INCREF(value);
                Py_INCREF(module); /* (the import runs Python code: sys.modules may let go of it) */
                int nested = settle_nested(PyModule_GetDict(module), attr, value);
                Py_DECREF(value);
                value = NULL;
                if (nested == 1) {
                    busy++;
                    value = PyDict_GetItemWithError(PyModule_GetDict(module), attr);
                    busy--;
                }
                if (nested <= 0 || value == NULL || Py_TYPE(value) == S.lazy_import) {
                    Py_DECREF(module);
                    Py_DECREF(attr);
                    return nested < 0 || PyErr_Occurred() ? -1 : 0;
                }
                Py_INCREF(value);
                Py_DECREF(module);
                Py_DECREF(attr);
                goto have_value;
            }
            Py_DECREF(attr);
            if (value == NULL && PyErr_Occurred())
                return -1;
            Py_XINCREF(value);
        }
    have_value:;
    }
    if (value == NULL) {
        /* not imported yet, or what its import must do next: import it,
         * if the entry still holds the lazy object (a store under the key
         * replaces the value, not the key: lookup.settle imports nothing then) */
        PyObject *current = bound_value(key);
        if (current != lazy)
            return PyErr_Occurred() ? -1 : 0;
        int got = first_import(key, lazy, &value);
        /* (a package's submodule bound in it, read inside its own import:
         * lookup.key_eq gave the running module meanwhile) */
        if (key->running != NULL && key->running != Py_None && forget_running(key, lazy, got < 0) < 0) {
            Py_XDECREF(value);
            return -1;
        }
        if (got <= 0)
            return got;
    }
    if (!changes) {
        Py_DECREF(value);
        return 0;
    }

    /* the change (lookup.settle's), under the binding lock */
    int got = lock_acquire();
    if (got <= 0) {
        Py_DECREF(value);
        return got;
    }
    int result = 0;
    PyObject *namespace = key->namespace;
    Py_INCREF(namespace);
    busy++;
    PyObject *current = PyDict_GetItemWithError(namespace, (PyObject *)key);
    PyObject *live_now = key->live != NULL ? SLOT(key->live, S.o_count) : NULL;
    /* (checked again under the lock: another thread may have used a name of
     * this dict meanwhile) */
    if (current != NULL && key->lazy == lazy && live_now != NULL && PyLong_CheckExact(live_now) &&
        PyLong_AsSsize_t(live_now) > 0) {
        PyObject *plain = name;
        Py_INCREF(plain);
        if (!PyUnicode_CHECK_INTERNED(plain)) {
            Py_SETREF(plain, PyUnicode_FromObject(plain));
            if (plain != NULL)
                PyUnicode_InternInPlace(&plain);
        }
        int replaced = plain == NULL ? -1 : dict_entries_replace(namespace, (PyObject *)key, plain, value);
        int imported = stored == lazy; /* (what a store put there was not imported here) */
        if (replaced < 0 || (imported && base != Py_None && PySet_Discard(S.lazy_modules, base) < 0) ||
            (imported && submodule == Py_None && PySet_Discard(S.lazy_modules, target) < 0) ||
            (!replaced && (PyDict_DelItem(namespace, (PyObject *)key) < 0 || PyDict_SetItem(namespace, plain, value) < 0)))
            result = -1;
        else {
            PyObject *count = PyLong_FromSsize_t(PyLong_AsSsize_t(SLOT(key->live, S.o_count)) - 1);
            if (count == NULL)
                result = -1;
            else {
                Py_SETREF(SLOT(key->live, S.o_count), count);
                Py_INCREF(Py_None);
                Py_SETREF(key->lazy, Py_None);
                result = PyLong_AsSsize_t(count) > 0 ? 1 : rebuild_later(namespace);
            }
        }
        Py_XDECREF(plain);
    }
    else if (PyErr_Occurred())
        result = -1;
    busy--;
    Py_DECREF(namespace);
    Py_DECREF(value);
    if (lock_release(got) < 0)
        return -1;
    return result;
}

/* is the running instruction one where a lazy key's compare is a peek that
 * hands nothing out (`in`, a store, a delete: access._PEEKS but the
 * subscripts; importlib's setattr of a submodule on its package)?
 * lookup.key_eq answers True there and changes nothing */
static int
plain_peek(void)
{
    if (!S.ready)
        return 0;
    PyCodeObject *code;
    int op = running_op(&code);
    if (op == -2)
        return -1;
    if (op == S.contains_op) /* (`x in map(getattr, ...)` is a load) */
        return in_tests_no_calling_iterator();
    /* (importlib setting a submodule on its package: setattr, a store) */
    return op >= 0 && (S.plain_peeks[op] || (S.calls[op] && (PyObject *)code == S.child_store_code));
}

/* lookup.key_eq's first answer for a used key (its lazy is None) still in
 * its dict (settled in place: an escaped key, or in a loop that may iterate
 * the dict, until the rebuilder makes it plain): 1 when the entry holds the
 * real object (the lookup finds it: nothing to do), 0 when it holds a lazy
 * object again (Python re-arms the key) or when a name load of another
 * namespace looks the key up (a copy of the dict given to eval or exec,
 * builtins: its entry may still hold the lazy object, lookup._copy_loaded) */
static int
settled_in_place(KeyObject *key)
{
    if (!S.ready || key->namespace == NULL || !PyDict_Check(key->namespace))
        return 0;
    PyObject *value = bound_value(key);
    if (value == NULL && PyErr_Occurred())
        return -1;
    if (value != NULL && Py_TYPE(value) == S.lazy_import)
        return 0;
    /* (the module's own code, the common case: its globals, borrowed, with
     * no frame object made) */
    if (PyEval_GetGlobals() == key->namespace)
        return 1;
    PyCodeObject *code;
    int op = running_op(&code);
    return op == -2 ? -1 : !(op >= 0 && S.simple_loads[op]);
}

PyObject *
key_richcompare(PyObject *self, PyObject *other, int op)
{
    if (op != Py_EQ && op != Py_NE)
        return PyUnicode_Type.tp_richcompare(self, other, op);
    if (!PyUnicode_Check(other))
        return PyBool_FromLong(op == Py_NE);
    int order = PyUnicode_Compare(self, other);
    if (order == -1 && PyErr_Occurred())
        return NULL;
    if (order != 0)
        return PyBool_FromLong(op == Py_NE);
    if (busy)
        return PyBool_FromLong(op == Py_EQ);
    if (((KeyObject *)self)->lazy == Py_None) {
        int real = settled_in_place((KeyObject *)self);
        if (real < 0)
            return NULL;
        if (real)
            return PyBool_FromLong(op == Py_EQ);
    }
    if (op == Py_EQ) {
        int done = settle_fast((KeyObject *)self, other);
        if (done < 0)
            return NULL;
        if (done)
            Py_RETURN_TRUE;
    }
    int peek = plain_peek();
    if (peek < 0)
        return NULL;
    if (peek)
        return PyBool_FromLong(op == Py_EQ);
    if (op == Py_EQ) {
        int done = attribute_load((KeyObject *)self, other);
        if (done == 0)
            done = fromlist_while_resolving((KeyObject *)self);
        if (done < 0)
            return NULL;
        if (done)
            return PyBool_FromLong(done == 1);
    }
    PyObject *key_eq = on_demand(&S.py_key_eq, "key_eq");
    PyObject *answer = key_eq ? PyObject_CallFunctionObjArgs(key_eq, self, other, NULL) : NULL;
    if (answer == NULL || op == Py_EQ)
        return answer;
    int truth = PyObject_IsTrue(answer);
    Py_DECREF(answer);
    return truth < 0 ? NULL : PyBool_FromLong(!truth);
}

Py_hash_t
key_hash(PyObject *self)
{
    KeyObject *key = (KeyObject *)self;
    if (busy || key->lazy == NULL || key->lazy == Py_None || !S.ready)
        return PyUnicode_Type.tp_hash(self);
    PyFrameObject *frame = PyEval_GetFrame();
    if (frame == NULL)
        return PyUnicode_Type.tp_hash(self);
    PyObject *globals = frame_globals_new(frame);
    int ours = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(S.runtime_globals); i++)
        ours |= globals == PyList_GET_ITEM(S.runtime_globals, i);
    Py_DECREF(globals);
    if (ours)
        return PyUnicode_Type.tp_hash(self);
    PyObject *py_key_hash = on_demand(&S.py_key_hash, "key_hash");
    PyObject *hashed = py_key_hash ? PyObject_CallOneArg(py_key_hash, self) : NULL;
    if (hashed == NULL)
        return -1;
    Py_hash_t hash = PyLong_AsSsize_t(hashed);
    Py_DECREF(hashed);
    return hash;
}
