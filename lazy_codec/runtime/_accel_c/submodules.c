/* -- submodules bound in their imported parents (resolution.attach_submodules) */
#include "accel.h"

/* `target |= items` (a set updated from an iterable) */
static int
set_update(PyObject *target, PyObject *items)
{
    PyObject *iterator = PyObject_GetIter(items);
    if (iterator == NULL)
        return -1;
    PyObject *item;
    int failed = 0;
    while (!failed && (item = PyIter_Next(iterator)) != NULL) {
        failed = PySet_Add(target, item) < 0;
        Py_DECREF(item);
    }
    Py_DECREF(iterator);
    return failed || PyErr_Occurred() ? -1 : 0;
}

/* resolution.attach: a lazy binding of `child` in package `parent` that
 * imports `full` (an error at first use points at `origin`'s line) */
static int
attach(PyObject *parent, PyObject *child, PyObject *full, PyObject *origin)
{
    PyObject *namespace = PyObject_GetAttr(parent, s_dict);
    if (namespace == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_AttributeError))
            return -1;
        PyErr_Clear();
        return 0;
    }
    int failed = 0;
    if (PyDict_CheckExact(namespace)) {
        busy++;
        int bound = PyDict_Contains(namespace, child);
        busy--;
        if (bound < 0)
            failed = 1;
        else if (!bound) {
            PyObject *statement = import_statement(full);
            PyObject *lazy = statement ? new_lazy(S.kind_import, full, statement, namespace,
                                                  SLOT(origin, S.o_filename),
                                                  SLOT(origin, S.o_lineno), Py_None)
                                       : NULL;
            if (lazy != NULL)
                set_slot(lazy, S.o_attached, Py_True); /* lazy.attached_lazy */
            failed = lazy == NULL || bind(namespace, child, lazy) < 0;
            Py_XDECREF(statement);
            Py_XDECREF(lazy);
        }
    }
    Py_DECREF(namespace);
    return failed ? -1 : 0;
}

/* `getattr(getattr(module, '__spec__', None), '_initializing', False) is True`
 * (resolution.attach_submodules' test of a package still running); -1 error */
static int
running_package(PyObject *module)
{
    PyObject *spec = PyObject_GetAttr(module, s_spec);
    if (spec == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_AttributeError))
            return -1;
        PyErr_Clear();
        return 0;
    }
    PyObject *flag = PyObject_GetAttr(spec, s_initializing);
    Py_DECREF(spec);
    if (flag == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_AttributeError))
            return -1;
        PyErr_Clear();
        return 0;
    }
    Py_DECREF(flag);
    return flag == Py_True;
}

/* a running (or absent) package waits to attach `children` until importlib
 * marks it done (binding.DoneWatch); under the binding lock */
static int
wait_for(PyObject *parent_name, PyObject *parent, PyObject *children, PyObject *origin)
{
    PyObject *waiting = PyDict_GetItemWithError(S.waiting_children, parent_name);
    if (waiting == NULL) {
        if (PyErr_Occurred())
            return -1;
        PyObject *fresh = PySet_New(NULL);
        if (fresh == NULL || PyDict_SetItem(S.waiting_children, parent_name, fresh) < 0) {
            Py_XDECREF(fresh);
            return -1;
        }
        waiting = fresh;
        Py_DECREF(fresh); /* (the dict holds it) */
    }
    if (set_update(waiting, children) < 0)
        return -1;
    if (parent == NULL || parent == Py_None)
        return 0;
    PyObject *spec = PyObject_GetAttr(parent, s_spec);
    if (spec == NULL)
        return -1;
    int failed = 0;
    if (Py_TYPE(spec) == S.module_spec || Py_TYPE(spec) == S.done_watch) {
        failed = PyDict_SetItem(S.waiting_origin, parent_name, origin) < 0 ||
                 PyObject_GenericSetAttr(spec, s_class, (PyObject *)S.done_watch) < 0;
    }
    Py_DECREF(spec);
    return failed ? -1 : 0;
}

/* resolution.attach_submodules(dotted, origin): bind each not-yet-imported
 * level of `dotted` in its imported parent */
int
attach_submodules_from(PyObject *dotted, PyObject *origin)
{
    PyObject *parts = PyUnicode_Split(dotted, s_dot, -1);
    if (parts == NULL)
        return -1;
    int got = lock_acquire();
    if (got < 0) {
        Py_DECREF(parts);
        return -1;
    }
    int failed = 0;
    Py_ssize_t count = PyList_GET_SIZE(parts);
    PyObject *parent_name = NULL;
    for (Py_ssize_t i = 1; !failed && i <= count; i++) {
        PyObject *name = i == 1 ? PyList_GET_ITEM(parts, 0) : NULL;
        if (name != NULL)
            Py_INCREF(name);
        else
            name = PyUnicode_FromFormat("%U.%U", parent_name, PyList_GET_ITEM(parts, i - 1));
        Py_XSETREF(parent_name, name);
        if (parent_name == NULL) {
            failed = 1;
            break;
        }
        PyObject *children = PySet_New(NULL);
        if (children == NULL || (i < count && PySet_Add(children, PyList_GET_ITEM(parts, i)) < 0)) {
            Py_XDECREF(children);
            failed = 1;
            break;
        }
        PyObject *parent = PyDict_GetItemWithError(PyImport_GetModuleDict(), parent_name);
        Py_XINCREF(parent);
        int running = 0;
        if (parent == NULL && PyErr_Occurred())
            failed = 1;
        else if (parent != NULL && parent != Py_None) {
            running = running_package(parent);
            failed = running < 0;
        }
        /* (None in sys.modules: not imported, as a lookup finds it) */
        if (!failed && (parent == NULL || parent == Py_None || running)) {
            if (PySet_GET_SIZE(children))
                failed = wait_for(parent_name, parent == Py_None ? NULL : parent, children, origin) < 0;
        }
        else if (!failed) {
            PyObject *waiting = PyDict_GetItemWithError(S.waiting_children, parent_name);
            if (waiting != NULL) {
                Py_INCREF(waiting);
                failed = PyDict_DelItem(S.waiting_children, parent_name) < 0 || set_update(children, waiting) < 0;
                Py_DECREF(waiting);
            }
            else
                failed = PyErr_Occurred() != NULL;
            PyObject *child;
            PyObject *list = failed ? NULL : PySequence_List(children); /* (attach may add to a set) */
            failed = failed || list == NULL;
            for (Py_ssize_t k = 0; !failed && k < PyList_GET_SIZE(list); k++) {
                child = PyList_GET_ITEM(list, k);
                PyObject *full = PyUnicode_FromFormat("%U.%U", parent_name, child);
                if (full == NULL) {
                    failed = 1;
                    break;
                }
                PyObject *module = PyDict_GetItemWithError(PyImport_GetModuleDict(), full);
                if ((module == NULL && PyErr_Occurred()) ||
                    ((module == NULL || module == Py_None) && attach(parent, child, full, origin) < 0))
                    failed = 1;
                Py_DECREF(full);
            }
            Py_XDECREF(list);
        }
        Py_XDECREF(parent);
        Py_DECREF(children);
    }
    Py_XDECREF(parent_name);
    Py_DECREF(parts);
    if (got >= 0 && lock_release(got) < 0)
        failed = 1;
    return failed ? -1 : 0;
}

/* the same with a lazy object of `dotted` at this line as the origin */
int
attach_submodules(PyObject *dotted, PyObject *globals, PyObject *filename, PyObject *lineno)
{
    PyObject *origin = new_lazy(S.kind_origin, dotted, s_empty, globals, filename, lineno, Py_None);
    if (origin == NULL)
        return -1;
    int failed = attach_submodules_from(dotted, origin);
    Py_DECREF(origin);
    return failed;
}
