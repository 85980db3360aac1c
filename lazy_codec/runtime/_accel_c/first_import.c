/* -- a first use that imports: the statement's import, in C --------------- */
#include "accel.h"

/* IMPORT_FROM's `attr` of `module`: an exact module's dict has it (not a
 * lazy binding); or its module __getattr__ gives it, called from here, so
 * that a warning it gives with a stacklevel names the using frames, as on
 * 3.15; or sys.modules has `module.__name__ + '.' + attr`.  1 with a new
 * reference in *out; 0 when only the interpreter's own IMPORT_FROM can say
 * (its error message: the statement rerun in Python says it, and calls a
 * module __getattr__ that raised AttributeError once more); -1 error */
static int
from_attribute(PyObject *module, PyObject *attr, PyObject **out)
{
    if (!PyModule_CheckExact(module) || dunder_name(attr))
        return 0;
    PyObject *namespace = PyModule_GetDict(module);
    busy++;
    PyObject *value = PyDict_GetItemWithError(namespace, attr);
    PyObject *hook = value == NULL && !PyErr_Occurred() ? PyDict_GetItemWithError(namespace, s_getattr) : NULL;
    PyObject *package = value == NULL && hook == NULL && !PyErr_Occurred()
                            ? PyDict_GetItemWithError(namespace, s_name)
                            : NULL;
    busy--;
    if (PyErr_Occurred())
        return -1;
    if (value != NULL) {
        if (Py_TYPE(value) == S.lazy_import)
            return 0;
        Py_INCREF(value);
        *out = value;
        return 1;
    }
    if (hook != NULL) {
        value = PyObject_GetAttr(module, attr);
        if (value != NULL && Py_TYPE(value) == S.lazy_import) {
            Py_DECREF(value); /* (a lazy object it handed out: Python's) */
            return 0;
        }
        if (value != NULL) {
            *out = value;
            return 1;
        }
        if (!PyErr_ExceptionMatches(PyExc_AttributeError))
            return -1;
        PyErr_Clear();
        return 0;
    }
    if (package == NULL || !PyUnicode_CheckExact(package))
        return 0;
    PyObject *full = PyUnicode_FromFormat("%U.%U", package, attr);
    if (full == NULL)
        return -1;
    value = PyDict_GetItemWithError(PyImport_GetModuleDict(), full);
    Py_DECREF(full);
    if (value == NULL || value == Py_None)
        return PyErr_Occurred() ? -1 : 0;
    Py_INCREF(value);
    *out = value;
    return 1;
}

/* the error set now, a first use's, raised again as resolution.failed_first_use
 * shapes it (chained to the `lazy` line) */
static void
reraise_shaped(PyObject *lazy)
{
    PyObject *type, *exc, *tb;
    PyErr_Fetch(&type, &exc, &tb);
    PyErr_NormalizeException(&type, &exc, &tb);
    if (exc == NULL) {
        PyErr_Restore(type, exc, tb);
        return;
    }
    /* (the traceback that reached here: before 3.12 the exception's own
     * can still hold the importlib frames that the import trimmed) */
    if (PyException_SetTraceback(exc, tb != NULL ? tb : Py_None) < 0) {
        Py_XDECREF(type);
        Py_XDECREF(tb);
        Py_DECREF(exc);
        return;
    }
    Py_XDECREF(type);
    Py_XDECREF(tb);
    PyObject *failed_first_use = on_demand(&S.py_failed_first_use, "failed_first_use");
    PyObject *shaped = failed_first_use ? PyObject_CallFunctionObjArgs(failed_first_use, lazy, exc, NULL) : NULL;
    Py_DECREF(exc);
    if (shaped != NULL) {
        PyObject *shaped_type = (PyObject *)Py_TYPE(shaped);
        Py_INCREF(shaped_type);
        PyErr_Restore(shaped_type, shaped, PyException_GetTraceback(shaped));
    }
}

/* resolution.import_named_submodule: `lazy from pkg import sub` with `pkg`
 * an imported package that has no `sub` imports `pkg.sub` first (an error
 * but its own ModuleNotFoundError is the first use's), or sets it on `pkg`
 * if sys.modules has it already */
static int
import_named_submodule(PyObject *base, PyObject *target, PyObject *attr)
{
    PyObject *package = PyDict_GetItemWithError(PyImport_GetModuleDict(), base);
    if (package == NULL)
        return PyErr_Occurred() ? -1 : 0;
    if (!PyModule_Check(package)) /* (first_import sent the rest to Python) */
        return 0;
    PyObject *namespace = PyModule_GetDict(package);
    busy++;
    int is_package = PyDict_Contains(namespace, s_path);
    int has = is_package == 1 ? PyDict_Contains(namespace, attr) : 0;
    busy--;
    if (is_package <= 0 || has != 0)
        return is_package < 0 || has < 0 ? -1 : 0;
    PyObject *imported = PyDict_GetItemWithError(PyImport_GetModuleDict(), target);
    if (imported != NULL) {
        if (imported == Py_None)
            return 0;
        Py_INCREF(package);
        Py_INCREF(imported);
        int failed = PyObject_SetAttr(package, attr, imported);
        Py_DECREF(imported);
        Py_DECREF(package);
        return failed;
    }
    if (PyErr_Occurred())
        return -1;
    PyObject *module = PyImport_ImportModuleLevelObject(target, NULL, NULL, NULL, 0);
    if (module != NULL) {
        Py_DECREF(module);
        return 0;
    }
    if (!PyErr_ExceptionMatches(PyExc_ModuleNotFoundError))
        return -1;
    PyObject *type, *exc, *tb;
    PyErr_Fetch(&type, &exc, &tb);
    PyErr_NormalizeException(&type, &exc, &tb);
    PyObject *name = exc != NULL ? PyObject_GetAttrString(exc, "name") : NULL;
    int other = name == NULL || PyObject_RichCompareBool(name, target, Py_EQ) != 1;
    Py_XDECREF(name);
    if (other) {
        PyErr_Clear();
        PyErr_Restore(type, exc, tb);
        return -1;
    }
    Py_XDECREF(type);
    Py_XDECREF(exc);
    Py_XDECREF(tb);
    return 0;
}

/* The import that a first use runs when its module is not imported yet (or
 * a `from`'s name is not in it yet): what resolution.import_target does with
 * the statement it places at the `lazy` line, done here, so that no frame of
 * ours stands between the use and importlib's (3.15 imports from the using
 * frame: a warning's stacklevel, sys._getframe and a profiler see that
 * frame).  PyImport_ImportModuleLevelObject with IMPORT_NAME's arguments,
 * then IMPORT_FROM's steps where a dict lookup can tell them.  1: *out the
 * value (a new reference); 0: the rest is Python's (nothing done, or the
 * import done, which the statement rerun in Python finds in sys.modules);
 * -1: error, the import's shaped as 3.15 does (resolution.failed_first_use) */
int
first_import(KeyObject *key, PyObject *lazy, PyObject **out)
{
    PyObject *kind = SLOT(lazy, S.o_kind), *target = SLOT(lazy, S.o_name), *base = SLOT(lazy, S.o_base);
    PyObject *submodule = SLOT(lazy, S.o_submodule), *globals = SLOT(lazy, S.o_globals);
    PyObject *statement = SLOT(lazy, S.o_statement);
    if (!PyUnicode_CheckExact(target) || !PyUnicode_CheckExact(statement))
        return 0;
    Py_ssize_t length = PyUnicode_GET_LENGTH(target);
    Py_ssize_t dot = PyUnicode_FindChar(target, '.', 0, length, 1);
    if (dot == -2)
        return -1;
    PyObject *name = NULL, *fromlist = NULL, *attrs = NULL, *checked = NULL;
    int level = 0;
    if (kind == S.kind_import && base == Py_None) {
        if (submodule != Py_None) { /* `import a.b.c` binding `a`: `import a as v` */
            if (dot < 0)
                return 0;
            name = PyUnicode_Substring(target, 0, dot);
        }
        else { /* `import a.b.c as v`: IMPORT_NAME a.b.c, then IMPORT_FROM b, c */
            name = target;
            Py_INCREF(name);
            if (dot >= 0) {
                PyObject *rest = PyUnicode_Substring(target, dot + 1, length);
                attrs = rest == NULL ? NULL : PyUnicode_Split(rest, s_dot, -1);
                Py_XDECREF(rest);
                if (attrs == NULL) {
                    Py_DECREF(name);
                    return -1;
                }
            }
        }
        checked = submodule != Py_None ? name : target;
    }
    else if (kind == S.kind_from && PyUnicode_CheckExact(base)) {
        /* "from ..a.b import x as v": its level (the lazy object's `_level`) and
         * module as IMPORT_NAME has them */
        Py_ssize_t total = PyUnicode_GET_LENGTH(statement);
        Py_ssize_t head = PyUnicode_GET_LENGTH(s_from_head);
        PyObject *given = SLOT(lazy, S.o_level);
        Py_ssize_t dots = given != NULL && PyLong_CheckExact(given) ? PyLong_AsSsize_t(given) : -1;
        if (dots < 0 || dots > INT_MAX || head + dots > total) {
            PyErr_Clear();
            return 0;
        }
        if (PyUnicode_Tailmatch(statement, s_from_head, 0, head, -1) != 1)
            return 0;
        Py_ssize_t at = head + dots;
        level = (int)dots;
        Py_ssize_t end = PyUnicode_Find(statement, s_import_part, at, total, 1);
        Py_ssize_t base_length = PyUnicode_GET_LENGTH(base);
        if (end == -2)
            return -1;
        if (end < 0 || base_length + 1 >= length)
            return 0;
        name = PyUnicode_Substring(statement, at, end);
        PyObject *attr = PyUnicode_Substring(target, base_length + 1, length);
        fromlist = attr == NULL ? NULL : PyTuple_Pack(1, attr);
        attrs = attr == NULL ? NULL : PyList_New(1);
        if (attrs != NULL) {
            Py_INCREF(attr);
            PyList_SET_ITEM(attrs, 0, attr);
        }
        Py_XDECREF(attr);
        if (name == NULL || fromlist == NULL || attrs == NULL) {
            Py_XDECREF(name);
            Py_XDECREF(fromlist);
            Py_XDECREF(attrs);
            return -1;
        }
        checked = base;
    }
    else
        return 0;
    if (name == NULL)
        return -1;

    /* a module there already but still running, or not a module (an
     * import cycle, a module that replaced itself): Python's */
    int result = 0;
    PyObject *present = PyDict_GetItemWithError(PyImport_GetModuleDict(), checked);
    if (present != NULL && present != Py_None) {
        int running = PyModule_CheckExact(present) ? initializing(present) : 1;
        if (running != 0) {
            result = running < 0 ? -1 : 0;
            goto done;
        }
    }
    else if (PyErr_Occurred()) {
        result = -1;
        goto done;
    }

    /* as settle does: the key says that this thread resolves it (a use of
     * the name inside the import is a cycle; importlib's own peek at it
     * finds no such name yet, see lookup.key_eq) */
    PyObject *ident = PyLong_FromUnsignedLong(PyThread_get_thread_ident());
    if (ident == NULL) {
        result = -1;
        goto done;
    }
    Py_XSETREF(key->resolving, ident);
    PyObject *value = NULL;
    int failed = base != Py_None && import_named_submodule(base, target, PyList_GET_ITEM(attrs, 0)) < 0;
    if (!failed) {
        value = PyImport_ImportModuleLevelObject(name, globals, NULL, fromlist, level);
        failed = value == NULL;
    }
    Py_INCREF(Py_None);
    Py_XSETREF(key->resolving, Py_None);
    if (failed) {
        reraise_shaped(lazy);
        result = -1;
        goto done;
    }

    /* `import a.b` binding `a`: if `a.b` is not imported, `a` must be a
     * package (resolution.check_package; its error is Python's) */
    if (submodule != Py_None) {
        Py_ssize_t sublength = PyUnicode_GET_LENGTH(submodule);
        Py_ssize_t second = PyUnicode_FindChar(submodule, '.', dot + 1, sublength, 1);
        PyObject *child = second == -2 ? NULL : PyUnicode_Substring(submodule, 0, second < 0 ? sublength : second);
        PyObject *found = child == NULL ? NULL : PyDict_GetItemWithError(PyImport_GetModuleDict(), child);
        Py_XDECREF(child);
        if (child == NULL || (found == NULL && PyErr_Occurred())) {
            Py_DECREF(value);
            result = -1;
            goto done;
        }
        if (found == NULL || found == Py_None) {
            int package = PyModule_CheckExact(value) ? PyDict_Contains(PyModule_GetDict(value), s_path) : 0;
            if (package <= 0) {
                Py_DECREF(value);
                result = package;
                goto done;
            }
        }
    }
    for (Py_ssize_t i = 0; attrs != NULL && i < PyList_GET_SIZE(attrs); i++) {
        PyObject *next = NULL;
        int got = from_attribute(value, PyList_GET_ITEM(attrs, i), &next);
        Py_DECREF(value);
        if (got <= 0) {
            if (got < 0 && PyErr_Occurred()) /* (a module __getattr__'s error) */
                reraise_shaped(lazy);
            result = got;
            goto done;
        }
        value = next;
    }

    /* import_target's bookkeeping: sys.lazy_modules, submodules attached */
    PyObject *dotted = submodule != Py_None ? submodule : base != Py_None ? base : target;
    int base_done = base != Py_None ? loaded(base, NULL) : 0;
    int waiting = PyUnicode_FindChar(dotted, '.', 0, PyUnicode_GET_LENGTH(dotted), 1) == -1
                      ? PyDict_Contains(S.waiting_children, dotted)
                      : 1;
    if (base_done < 0 || (base_done && PySet_Discard(S.lazy_modules, base) < 0) ||
        (submodule == Py_None && PySet_Discard(S.lazy_modules, target) < 0) || waiting < 0 ||
        (waiting && attach_submodules_from(dotted, lazy) < 0)) {
        Py_DECREF(value);
        result = -1;
        goto done;
    }
    *out = value;
    result = 1;
done:
    Py_DECREF(name);
    Py_XDECREF(fromlist);
    Py_XDECREF(attrs);
    return result;
}
