/* state.py's questions, asked in C: is a module imported, running; the
 * binding lock; has a module builtins' own __import__ */
#include "accel.h"

/* an error state.initializing catches (an Exception) cleared: 0; else it
 * stays set (a KeyboardInterrupt, SystemExit): -1 */
static int
clear_if_exception(void)
{
    if (!PyErr_ExceptionMatches(PyExc_Exception))
        return -1;
    PyErr_Clear();
    return 0;
}

/* *field, loaded by S.on_demand(name) if it is not yet (borrowed; NULL with
 * an error set).  Two threads may both load it: the first kept, as the
 * module it comes from is loaded once */
PyObject *
on_demand(PyObject **field, const char *name)
{
    if (*field != NULL)
        return *field;
    PyObject *found = PyObject_CallFunction(S.on_demand, "s", name);
    if (found == NULL)
        return NULL;
    if (*field == NULL)
        *field = found;
    else
        Py_DECREF(found);
    return *field;
}

/* state.initializing: its spec's `_initializing` is anything but False;
 * an Exception while asking counts as not running, as there; 1 running,
 * 0 not, -1 another error (set) */
int
initializing(PyObject *module)
{
    PyObject *spec;
    if (PyModule_CheckExact(module)) {
        spec = PyDict_GetItemWithError(PyModule_GetDict(module), s_spec);
        if (spec == NULL) {
            PyErr_Clear();
            spec = PyObject_GetAttr(module, s_spec); /* (a module __getattr__) */
        }
        else
            Py_INCREF(spec);
    }
    else
        spec = PyObject_GetAttr(module, s_spec);
    if (spec == NULL)
        return clear_if_exception();
    if (spec == Py_None) {
        Py_DECREF(spec);
        return 0;
    }
    PyObject *flag = PyObject_GetAttr(spec, s_initializing);
    Py_DECREF(spec);
    if (flag == NULL)
        return clear_if_exception();
    int running = flag != Py_False;
    Py_DECREF(flag);
    return running;
}

/* state.loaded(name) (borrowed module in *found when not NULL): 1, 0, or
 * -1 with initializing's error set */
int
loaded(PyObject *name, PyObject **found)
{
    PyObject *module = PyDict_GetItemWithError(PyImport_GetModuleDict(), name);
    if (found)
        *found = module;
    if (module == NULL) {
        PyErr_Clear();
        return 0;
    }
    if (module == Py_None)
        return 0;
    int running = initializing(module);
    return running < 0 ? -1 : !running;
}

/* does `globals`' builtins have the interpreter's own __import__? */
int
plain_import(PyObject *globals)
{
    PyObject *builtins = global_of(globals, s_builtins);
    if (builtins == NULL)
        return 0;
    if (PyModule_Check(builtins))
        builtins = PyModule_GetDict(builtins);
    if (!PyDict_Check(builtins))
        return 0;
    return global_of(builtins, s_import) == S.builtin_import;
}

/* the binding lock, for a change: 1 held, 2 not needed, -1 error.  In a
 * process of one thread no other thread can hold it, and this one may
 * (re-entrant): not taken then.  Else a blocking acquire (without arguments:
 * the cheaper call), which waits with the GIL released: no thread holds the
 * lock while it waits for this one (it is never held across an import) */
int
lock_acquire(void)
{
    PyThreadState *self = PyThreadState_Get();
    PyThreadState *first = PyInterpreterState_ThreadHead(PyThreadState_GetInterpreter(self));
    if (first == self && PyThreadState_Next(first) == NULL)
        return 2;
    PyObject *got = PyObject_CallNoArgs(S.lock_acquire);
    if (got == NULL)
        return -1;
    Py_DECREF(got);
    return 1;
}

int
lock_release(int held)
{
    if (held == 2)
        return 0;
    PyObject *done = PyObject_CallNoArgs(S.lock_release);
    Py_XDECREF(done);
    return done == NULL ? -1 : 0;
}

/* for each prefix of dotted `name` (itself too): imported, not running,
 * nothing waiting to attach (resolution.attach_submodules has nothing to do) */
int
nothing_to_attach(PyObject *name)
{
    Py_ssize_t length = PyUnicode_GET_LENGTH(name);
    Py_ssize_t end = 0;
    while (end < length) {
        Py_ssize_t dot = PyUnicode_FindChar(name, '.', end, length, 1);
        if (dot == -2)
            return -1;
        end = dot < 0 ? length : dot;
        PyObject *prefix = PyUnicode_Substring(name, 0, end);
        if (prefix == NULL)
            return -1;
        int waiting = PyDict_Contains(S.waiting_children, prefix);
        PyObject *module = waiting == 0 ? PyDict_GetItemWithError(PyImport_GetModuleDict(), prefix) : NULL;
        Py_DECREF(prefix);
        if (waiting != 0 || module == NULL || module == Py_None) {
            PyErr_Clear();
            return 0;
        }
        int running = initializing(module);
        if (running)
            return running < 0 ? -1 : 0;
        end += 1;
    }
    return 1;
}
