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

/* -- the binding lock (state.binding_lock with the accelerator) ----------
 * A re-entrant lock as _thread.RLock is, that C takes without a call: taking
 * RLock's through its bound `acquire` (argument parsing, a call) was an
 * eighth of a lazy statement whenever a second thread ran.  Invariant, under
 * the GIL (the accelerator never runs without one): `count` > 0 exactly while
 * `lock` is held, by the thread whose ident is `owner`. */
typedef struct {
    PyObject_HEAD
    PyThread_type_lock lock;
    unsigned long owner;
    unsigned long count;
} BindingLockObject;

/* 0 taken, -1 an error (a signal handler's, while it waited) */
static int
binding_lock_take(BindingLockObject *self)
{
    unsigned long me = PyThread_get_thread_ident();
    if (self->count > 0 && self->owner == me) {
        self->count++;
        return 0;
    }
    if (!PyThread_acquire_lock(self->lock, NOWAIT_LOCK)) {
        /* held by another thread: wait with the GIL released, as RLock
         * does, running the signal handlers a wait is interrupted for */
        PyLockStatus got;
        do {
            Py_BEGIN_ALLOW_THREADS
            got = PyThread_acquire_lock_timed(self->lock, -1, 1);
            Py_END_ALLOW_THREADS
            if (got == PY_LOCK_INTR && Py_MakePendingCalls() < 0)
                return -1;
        } while (got != PY_LOCK_ACQUIRED);
    }
    self->owner = me;
    self->count = 1;
    return 0;
}

static int
binding_lock_give(BindingLockObject *self)
{
    if (self->count == 0 || self->owner != PyThread_get_thread_ident()) {
        PyErr_SetString(PyExc_RuntimeError, "cannot release un-acquired lock");
        return -1;
    }
    if (--self->count == 0) {
        self->owner = 0;
        PyThread_release_lock(self->lock);
        if ((PyObject *)self == S.binding_lock)
            REBUILD_IF_WAITING();
    }
    return 0;
}

static PyObject *
binding_lock_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    if (PyTuple_GET_SIZE(args) != 0 || (kwds != NULL && PyDict_GET_SIZE(kwds) != 0)) {
        PyErr_SetString(PyExc_TypeError, "BindingLock() takes no arguments");
        return NULL;
    }
    BindingLockObject *self = (BindingLockObject *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->lock = PyThread_allocate_lock();
    if (self->lock == NULL) {
        Py_DECREF(self);
        PyErr_SetString(PyExc_MemoryError, "cannot allocate lock");
        return NULL;
    }
    return (PyObject *)self;
}

static void
binding_lock_dealloc(BindingLockObject *self)
{
    if (self->lock != NULL) {
        if (self->count > 0)
            PyThread_release_lock(self->lock);
        PyThread_free_lock(self->lock);
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
binding_lock_acquire(BindingLockObject *self, PyObject *unused)
{
    if (binding_lock_take(self) < 0)
        return NULL;
    Py_RETURN_TRUE;
}

static PyObject *
binding_lock_release(BindingLockObject *self, PyObject *unused)
{
    if (binding_lock_give(self) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *
binding_lock_exit(BindingLockObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return binding_lock_release(self, NULL);
}

static PyObject *
binding_lock_is_owned(BindingLockObject *self, PyObject *unused)
{
    return PyBool_FromLong(self->count > 0 && self->owner == PyThread_get_thread_ident());
}

static PyMethodDef binding_lock_methods[] = {
    {"acquire", (PyCFunction)binding_lock_acquire, METH_NOARGS, "take the lock (blocking), re-entrant"},
    {"release", (PyCFunction)binding_lock_release, METH_NOARGS, "give it back once"},
    {"__enter__", (PyCFunction)binding_lock_acquire, METH_NOARGS, NULL},
    {"__exit__", (PyCFunction)(void (*)(void))binding_lock_exit, METH_FASTCALL, NULL},
    {"_is_owned", (PyCFunction)binding_lock_is_owned, METH_NOARGS, "held by this thread?"},
    {NULL}};

PyTypeObject BindingLock_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "lazy_codec.runtime._accel.BindingLock",
    .tp_basicsize = sizeof(BindingLockObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "state.binding_lock with the accelerator: a re-entrant lock C takes without a call",
    .tp_new = binding_lock_new,
    .tp_dealloc = (destructor)binding_lock_dealloc,
    .tp_methods = binding_lock_methods,
};

/* is the calling thread the only one? */
int
one_thread(void)
{
    PyThreadState *self = PyThreadState_Get();
    PyThreadState *first = PyInterpreterState_ThreadHead(PyThreadState_GetInterpreter(self));
    return first == self && PyThreadState_Next(first) == NULL;
}

/* the binding lock, for a change: 1 held, 2 not needed, -1 error.  In a
 * process of one thread no other thread can hold it, and this one may
 * (re-entrant): not taken then.  Else a blocking acquire, which waits with
 * the GIL released: no thread holds the lock while it waits for this one (it
 * is never held across an import) */
int
lock_acquire(void)
{
    if (one_thread())
        return 2;
    return binding_lock_take((BindingLockObject *)S.binding_lock) < 0 ? -1 : 1;
}

/* is the binding lock held, by any thread? */
int
binding_lock_held(void)
{
    return ((BindingLockObject *)S.binding_lock)->count > 0;
}

int
lock_release(int held)
{
    if (held == 2)
        return 0;
    return binding_lock_give((BindingLockObject *)S.binding_lock);
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
