/* a module's lazy attribute loaded as one (`mod.name`, `from mod import
 * name`, `pkg.sub`), and importlib's calls that meet a package's lazy keys:
 * what the compare does before handing a lookup to Python */
#include "accel.h"
#include "dict_entries.h"

/* lookup.settle's end for a package's submodule that its own import's code
 * used (the key's `running`: the module being run, put in the entry): the
 * lazy object back in the entry if that import failed, so that the next use
 * tries again.  0, or -1 with an error set (the import's, if any, chained) */
int
forget_running(KeyObject *key, PyObject *lazy, int failed)
{
    PyObject *type, *exc, *tb;
    PyErr_Fetch(&type, &exc, &tb);
    int got = lock_acquire();
    int result = got <= 0 ? -1 : 0;
    if (got > 0) {
        PyObject *current = bound_value(key);
        if (current == NULL && PyErr_Occurred())
            result = -1;
        else if (failed && current == key->running) {
            busy++; /* (found by identity: a plain hash, no compare) */
            result = PyDict_SetItem(key->namespace, (PyObject *)key, lazy);
            busy--;
        }
        Py_INCREF(Py_None);
        Py_SETREF(key->running, Py_None);
        if (lock_release(got) < 0)
            result = -1;
    }
    if (result < 0) {
        Py_XDECREF(type);
        Py_XDECREF(exc);
        Py_XDECREF(tb);
        return -1;
    }
    PyErr_Restore(type, exc, tb);
    return 0;
}

/* importlib's hasattr of a `from` (`from . import sub` in `sub`'s own
 * package) while this thread resolves the key: as before the binding
 * existed, no such name yet, until the submodule's import stores it
 * (lookup.key_eq's answer).  1 found, 2 not found, 0 not this case, -1 error */
int
fromlist_while_resolving(KeyObject *key)
{
    if (!S.ready || key->resolving == NULL || !PyLong_CheckExact(key->resolving) || key->namespace == NULL)
        return 0;
    unsigned long resolving = PyLong_AsUnsignedLong(key->resolving);
    if (resolving == (unsigned long)-1 && PyErr_Occurred())
        return -1;
    if (resolving != PyThread_get_thread_ident())
        return 0;
    PyCodeObject *code;
    int op = running_op(&code);
    if (op == -2)
        return -1;
    if (op < 0 || !S.calls[op] || (PyObject *)code != S.fromlist_code)
        return 0;
    PyObject *value = bound_value(key);
    if (value == NULL && PyErr_Occurred())
        return -1;
    return value != NULL && Py_TYPE(value) != S.lazy_import ? 1 : 2;
}

/* An attribute of a module whose binding is lazy, loaded (`mod.name`,
 * `from mod import name`, `pkg.sub` after `lazy import pkg.sub`): 3.15's
 * getattr on the module resolves it from the using frame (a warning's
 * stacklevel and sys._getframe name the use).  As settle_held does for a
 * name load, a package's submodule attached to it included (imported here;
 * importlib's store of it on the package is the binding's value).  1:
 * settled (the lookup restarts), 0: Python's (imported or not), -1: error */
int
attribute_load(KeyObject *key, PyObject *name)
{
    if (!S.ready || Py_TYPE(key) != S.lazy_name || key->lazy == NULL || key->lazy == Py_None ||
        (key->resolving && key->resolving != Py_None) || (key->running && key->running != Py_None) ||
        key->namespace == NULL || !PyUnicode_CheckExact(name) || !plain_runtime())
        return 0;
    PyObject *lazy = key->lazy;
    if (Py_TYPE(lazy) != S.lazy_import || SLOT(lazy, S.o_from) != Py_None || SLOT(lazy, S.o_shown) != Py_None)
        return 0;
    PyObject *lazy_globals = SLOT(lazy, S.o_globals);
    if (!PyDict_CheckExact(lazy_globals) || !plain_import(lazy_globals))
        return 0;
    PyCodeObject *code;
    int op = running_op(&code);
    if (op == -2)
        return -1;
    /* (importlib's `from` of a package: hasattr(module, name), a load) */
    if (op < 0 || !(S.attribute_loads[op] || (S.calls[op] && (PyObject *)code == S.fromlist_code)))
        return 0;
    /* held: the import runs Python code, which may let go of it */
    Py_INCREF(lazy);
    lookups++;
    int result = settle_checked(key, name, lazy, dict_entries_usable());
    lookups--;
    REBUILD_IF_WAITING();
    Py_DECREF(lazy);
    return result;
}
