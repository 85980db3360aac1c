/* -- a lazy statement: the entry points api.lazy_import, lazy_from (and the
 * maybe_ ones, mode "all"'s), their common case in C */
#include "accel.h"

static int
alias_ok(PyObject *alias, PyObject **name, PyObject **asname)
{
    if (!PyTuple_CheckExact(alias) || PyTuple_GET_SIZE(alias) != 2)
        return 0;
    *name = PyTuple_GET_ITEM(alias, 0);
    *asname = PyTuple_GET_ITEM(alias, 1);
    return PyUnicode_CheckExact(*name) && (*asname == Py_None || PyUnicode_CheckExact(*asname));
}

/* namespace.pop(ENTRY_NAME, None) */
static int
pop_entry_name(PyObject *namespace)
{
    busy++;
    int has = PyDict_Contains(namespace, S.entry_name);
    int failed = has < 0 || (has && PyDict_DelItem(namespace, S.entry_name) < 0);
    busy--;
    return failed ? -1 : 0;
}

/* api._import: 1 done, 0 not the common case, -1 error */
static int
import_fast(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, int explicit)
{
    PyFrameObject *frame;
    Py_ssize_t line;
    PyObject *namespace = plain_statement_frame(&frame, args, nargs, kwnames, &line, explicit);
    if (namespace == NULL)
        return PyErr_Occurred() ? -1 : 0;
    for (Py_ssize_t i = 0; i < nargs; i++) {
        PyObject *name, *asname;
        if (!alias_ok(args[i], &name, &asname))
            return 0;
    }
    int got = lock_acquire();
    if (got <= 0)
        return got;
    int failed = pop_entry_name(namespace);
    PyObject *filename = frame_filename(frame);
    PyObject *lineno = args[nargs]; /* (`line=`'s int, exact: plain_statement_frame) */
    Py_INCREF(lineno);
    for (Py_ssize_t i = 0; !failed && i < nargs; i++) {
        PyObject *name = PyTuple_GET_ITEM(args[i], 0), *asname = PyTuple_GET_ITEM(args[i], 1);
        Py_ssize_t dot = PyUnicode_FindChar(name, '.', 0, PyUnicode_GET_LENGTH(name), 1);
        if (dot == -2) {
            failed = 1;
            break;
        }
        /* `import a.b.c` binds a (and resolves as an import of a.b.c that
         * stops at a); `import a.b.c as d` binds d to a.b.c */
        PyObject *top = asname == Py_None && dot >= 0 ? PyUnicode_Substring(name, 0, dot) : NULL;
        PyObject *statement = import_statement(top != NULL ? top : name);
        PyObject *lazy = statement ? new_lazy_of(S.kind_import, name, statement, namespace, filename, lineno,
                                                 Py_None,
                                                 top != NULL ? name : Py_None)
                                   : NULL;
        failed = lazy == NULL;
        int done = failed ? 0 : loaded(name, NULL);
        failed = failed || done < 0;
        if (!failed && !done)
            failed = PySet_Add(S.lazy_modules, name) < 0 ||
                     (dot >= 0 && attach_submodules_from(name, lazy) < 0);
        failed = failed || bind(namespace, asname != Py_None ? asname : top != NULL ? top : name, lazy) < 0;
        Py_XDECREF(top);
        Py_XDECREF(statement);
        Py_XDECREF(lazy);
    }
    Py_DECREF(filename);
    Py_XDECREF(lineno);
    if (lock_release(got) < 0)
        failed = 1;
    return failed ? -1 : 1;
}

/* api._absolute for a relative `from` with __package__ a str; NULL with no
 * error: not that case */
static PyObject *
absolute(PyObject *module, Py_ssize_t level, PyObject *globals)
{
    if (level == 0) {
        Py_INCREF(module);
        return module;
    }
    PyObject *package = global_of(globals, s_package);
    if (package == NULL || !PyUnicode_CheckExact(package) || PyUnicode_GET_LENGTH(package) == 0)
        return NULL;
    PyObject *bits = PyUnicode_RSplit(package, s_dot, level - 1);
    if (bits == NULL)
        return NULL;
    PyObject *result = NULL;
    if (PyList_GET_SIZE(bits) >= level) {
        PyObject *head = PyList_GET_ITEM(bits, 0);
        if (PyUnicode_GET_LENGTH(module))
            result = PyUnicode_FromFormat("%U.%U", head, module);
        else {
            result = head;
            Py_INCREF(result);
        }
    }
    Py_DECREF(bits);
    return result;
}

/* api._from: 1 done, 0 not the common case, -1 error */
static int
from_fast(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, int explicit)
{
    PyFrameObject *frame;
    Py_ssize_t line;
    if (nargs < 2 || !PyUnicode_CheckExact(args[0]) || !PyLong_CheckExact(args[1]))
        return 0;
    PyObject *namespace = plain_statement_frame(&frame, args, nargs, kwnames, &line, explicit);
    if (namespace == NULL)
        return PyErr_Occurred() ? -1 : 0;
    PyObject *module = args[0];
    Py_ssize_t level = PyLong_AsSsize_t(args[1]);
    if (level < 0) {
        PyErr_Clear();
        return 0;
    }
    for (Py_ssize_t i = 2; i < nargs; i++) {
        PyObject *name, *asname;
        if (!alias_ok(args[i], &name, &asname))
            return 0;
    }
    PyObject *base = absolute(module, level, namespace);
    if (base == NULL) {
        PyErr_Clear();
        return 0;
    }
    PyObject *imported;
    int base_loaded = loaded(base, &imported);
    Py_XINCREF(imported);
    PyObject *loaded_dict = NULL;
    int result = 0;
    if (base_loaded < 0) {
        result = -1;
        goto done;
    }
    if (imported != NULL && imported != Py_None) {
        if (!PyModule_CheckExact(imported))
            goto done;
        loaded_dict = PyModule_GetDict(imported);
    }
    Py_ssize_t dot = PyUnicode_FindChar(base, '.', 0, PyUnicode_GET_LENGTH(base), 1);
    if (dot == -2) {
        result = -1;
        goto done;
    }
    if (loaded_dict != NULL) {
        /* a submodule imported, then deleted from its package: Python */
        busy++;
        int package = PyDict_Contains(loaded_dict, s_path);
        busy--;
        if (package < 0) {
            result = -1;
            goto done;
        }
        for (Py_ssize_t i = 2; package && i < nargs; i++) {
            PyObject *attr = PyTuple_GET_ITEM(args[i], 0);
            busy++;
            int has = PyDict_Contains(loaded_dict, attr);
            busy--;
            if (has < 0) {
                result = -1;
                goto done;
            }
            if (has)
                continue;
            PyObject *full = PyUnicode_FromFormat("%U.%U", base, attr);
            if (full == NULL) {
                result = -1;
                goto done;
            }
            PyObject *sub = PyDict_GetItemWithError(PyImport_GetModuleDict(), full);
            Py_DECREF(full);
            if (sub != NULL && sub != Py_None) {
                result = 0;
                goto done;
            }
            PyErr_Clear();
        }
    }
    PyObject *filename = frame_filename(frame);
    PyObject *lineno = args[nargs]; /* (`line=`'s int, exact: plain_statement_frame) */
    Py_INCREF(lineno);
    PyObject *dots = PyUnicode_New(level, '.');
    if (dots != NULL)
        for (Py_ssize_t i = 0; i < level; i++)
            PyUnicode_WRITE(PyUnicode_KIND(dots), PyUnicode_DATA(dots), i, '.');
    int failed = lineno == NULL || dots == NULL || pop_entry_name(namespace) < 0;
    if (!failed && !base_loaded) {
        /* named by a lazy statement, and bound in its imported parents
         * (resolution.attach_submodules, in Python: it may have to wait for a
         * package still running) */
        failed = PySet_Add(S.lazy_modules, base) < 0;
        if (!failed && dot >= 0)
            failed = attach_submodules(base, namespace, filename, lineno) < 0;
    }
    int got = failed ? 2 : lock_acquire();
    failed = failed || got < 0;
    failed = failed || lineno == NULL || dots == NULL;
    for (Py_ssize_t i = 2; !failed && i < nargs; i++) {
        PyObject *attr = PyTuple_GET_ITEM(args[i], 0), *asname = PyTuple_GET_ITEM(args[i], 1);
        PyObject *bound = asname == Py_None ? attr : asname;
        if (loaded_dict != NULL) {
            /* 3.15 binds at once what the module's dict already has */
            busy++;
            PyObject *value = PyDict_GetItemWithError(loaded_dict, attr);
            busy--;
            if (value != NULL && Py_TYPE(value) != S.lazy_import) {
                Py_INCREF(value);
                busy++;
                failed = PyDict_SetItem(namespace, bound, value) < 0;
                busy--;
                Py_DECREF(value);
                continue;
            }
            if (value == NULL && PyErr_Occurred()) {
                failed = 1;
                break;
            }
        }
        PyObject *full = PyUnicode_FromFormat("%U.%U", base, attr);
        PyObject *statement = full ? PyUnicode_FromFormat("from %U%U import %U as v", dots, module, attr) : NULL;
        PyObject *lazy =
            statement ? new_lazy(S.kind_from, full, statement, namespace, filename, lineno, base) : NULL;
        if (lazy != NULL)
            set_slot(lazy, S.o_level, args[1]); /* (an exact int, level's) */
        int done = lazy == NULL ? 0 : loaded(full, NULL);
        failed = lazy == NULL || done < 0 || (!done && PySet_Add(S.lazy_modules, full) < 0) ||
                 bind(namespace, bound, lazy) < 0;
        Py_XDECREF(full);
        Py_XDECREF(statement);
        Py_XDECREF(lazy);
    }
    Py_DECREF(filename);
    Py_XDECREF(lineno);
    Py_XDECREF(dots);
    if (got >= 0 && lock_release(got) < 0)
        failed = 1;
    result = failed ? -1 : 1;
done:
    Py_DECREF(base);
    Py_XDECREF(imported);
    return result;
}

#define ENTRY_POINT(function, fast, explicit, fallback)                                                   \
    PyObject *function(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)         \
    {                                                                                                       \
        int done = fast(args, nargs, kwnames, explicit);                                                    \
        if (done < 0)                                                                                       \
            return NULL;                                                                                    \
        if (done)                                                                                           \
            Py_RETURN_NONE;                                                                                 \
        return PyObject_Vectorcall(S.fallback, args, nargs, kwnames);                                       \
    }

ENTRY_POINT(accel_lazy_import, import_fast, 1, py_lazy_import)
ENTRY_POINT(accel_lazy_from, from_fast, 1, py_lazy_from)
ENTRY_POINT(accel_maybe_lazy_import, import_fast, 0, py_maybe_lazy_import)
ENTRY_POINT(accel_maybe_lazy_from, from_fast, 0, py_maybe_lazy_from)
