/* -- the rebuilder's common case (rebuilder.py, the reference): a dict whose
 * last lazy name was used, made plain again by the main thread between two
 * of its bytecodes (a pending call), in a process of one thread.  The
 * rebuilder thread is started, as before, when a second thread runs or the
 * rebuild cannot happen then; a program whose lazy names the accelerator
 * settles then never loads the rebuilder (nor starts a thread). */
#ifdef MS_WINDOWS
#include <process.h>
#define getpid _getpid
typedef int pid_t;
#else
#include <unistd.h>
#endif

#include "accel.h"
#include "dict_entries.h"

/* a pending call asked and not run yet, by the process of that pid (a
 * fork's child may not run its parent's) */
static int scheduled;
static pid_t scheduled_by;

/* may a dict be rebuilt between this thread's bytecodes now?  QUIET (every
 * frame's code named, in *loops, as one that may iterate a dict or not);
 * LATER, a lookup of C's in progress (a first use that imports runs module
 * code inside the dict lookup that met the key) or the binding lock held:
 * asked again when that ends (rebuild_resume); THREAD, another thread runs,
 * lookup.key_eq has a frame, or our own dict operation runs: the rebuilder
 * thread's; -1 error */
enum { THREAD = 0, QUIET = 1, LATER = 2 };

static int
quiet_here(int *loops)
{
    *loops = 0;
    if (!one_thread() || busy > 0)
        return THREAD;
    if (lookups > 0 || binding_lock_held())
        return LATER;
    PyFrameObject *frame = PyEval_GetFrame();
    Py_XINCREF(frame);
    int quiet = QUIET;
    while (frame != NULL && quiet == QUIET) {
        PyCodeObject *code = PyFrame_GetCode(frame);
        int in_lookup = PySet_Contains(S.lookup_codes, (PyObject *)code);
        int iterates = in_lookup == 0 ? code_may_iterate_dicts(code) : 0;
        Py_DECREF(code);
        if (in_lookup != 0 || iterates < 0)
            quiet = in_lookup > 0 ? THREAD : -1;
        else if (iterates)
            *loops = 1;
        PyFrameObject *back = PyFrame_GetBack(frame);
        Py_DECREF(frame);
        frame = back;
    }
    Py_XDECREF(frame);
    return quiet;
}

/* as rebuilder._rebuild_pending, for one dict: kept as it is where a key is
 * still lazy, was copied while lazy or escaped (see EscapedName); else
 * re-made in its order with exact, interned str keys (rebuilder._rebuilt),
 * as one C call.  0 done, -1 error */
static int
rebuild(PyObject *namespace)
{
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(namespace, &pos, &key, &value)) {
        if (Py_TYPE(key) == S.escaped_name)
            return 0;
        if (Py_TYPE(key) == S.lazy_name &&
            (((KeyObject *)key)->lazy != Py_None || Py_TYPE(value) == S.lazy_import))
            return 0;
    }
    PyObject *items = PyList_New(0);
    if (items == NULL)
        return -1;
    pos = 0;
    int failed = 0;
    while (!failed && PyDict_Next(namespace, &pos, &key, &value)) {
        PyObject *plain = key;
        if (Py_TYPE(key) == S.lazy_name) {
            plain = PyUnicode_FromObject(key); /* (an exact copy: binding.plain_key) */
            if (plain != NULL)
                PyUnicode_InternInPlace(&plain);
        }
        else
            Py_INCREF(plain);
        PyObject *item = plain != NULL ? PyTuple_Pack(2, plain, value) : NULL;
        failed = item == NULL || PyList_Append(items, item) < 0;
        Py_XDECREF(item);
        Py_XDECREF(plain);
    }
    if (!failed) {
        busy++;
        PyDict_Clear(namespace);
        for (Py_ssize_t i = 0; !failed && i < PyList_GET_SIZE(items); i++) {
            PyObject *item = PyList_GET_ITEM(items, i);
            failed = PyDict_SetItem(namespace, PyTuple_GET_ITEM(item, 0), PyTuple_GET_ITEM(item, 1)) < 0;
        }
        busy--;
    }
    Py_DECREF(items);
    return failed ? -1 : 0;
}

/* every dict of state.dirty rebuilt that may be now (a dict with a deleted
 * entry waits for no frame that may iterate one, as with the thread):
 * QUIET all done, LATER or THREAD (quiet_here's) some left, -1 error */
static int
rebuild_dirty(void)
{
    if (PyDict_GET_SIZE(S.dirty) == 0)
        return QUIET;
    int loops;
    int quiet = quiet_here(&loops);
    if (quiet != QUIET)
        return quiet;
    PyObject *entries = PyDict_Items(S.dirty);
    if (entries == NULL)
        return -1;
    int result = QUIET;
    for (Py_ssize_t i = 0; result >= 0 && i < PyList_GET_SIZE(entries); i++) {
        PyObject *id = PyTuple_GET_ITEM(PyList_GET_ITEM(entries, i), 0);
        PyObject *namespace = PyTuple_GET_ITEM(PyList_GET_ITEM(entries, i), 1);
        if (!PyDict_CheckExact(namespace) || (loops && !dict_entries_compact(namespace))) {
            result = THREAD;
            continue;
        }
        if (PyDict_DelItem(S.dirty, id) < 0 || rebuild(namespace) < 0)
            result = -1;
    }
    Py_DECREF(entries);
    return result;
}

/* (the binding lock held) `namespace` to rebuilder.rebuild_later, which
 * starts the rebuilder thread (it takes every dirty dict); 0 or -1 */
static int
by_the_thread(PyObject *namespace)
{
    PyObject *rebuild_later = on_demand(&S.py_rebuild_later, "rebuild_later");
    PyObject *done = rebuild_later ? PyObject_CallOneArg(rebuild_later, namespace) : NULL;
    Py_XDECREF(done);
    return done == NULL ? -1 : 0;
}

/* what rebuild_dirty left, to the rebuilder thread; 0 or -1 */
static int
to_the_thread(void)
{
    Py_ssize_t pos = 0;
    PyObject *id, *namespace;
    if (!PyDict_Next(S.dirty, &pos, &id, &namespace))
        return 0;
    Py_INCREF(namespace);
    int got = lock_acquire();
    int failed = got < 0 || by_the_thread(namespace) < 0;
    if (got > 0 && lock_release(got) < 0)
        failed = 1;
    Py_DECREF(namespace);
    return failed ? -1 : 0;
}

/* the pending call: never an error for the code it runs between (a rebuild
 * is only an optimization: the thread's errors do not show either) */
static int
rebuild_pending(void *unused)
{
    scheduled = 0;
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    int done = rebuild_dirty();
    if (done == LATER)
        rebuild_waits = 1;
    else if (done == THREAD)
        done = to_the_thread();
    if (done < 0)
        PyErr_Clear();
    PyErr_Restore(type, value, traceback);
    return 0;
}

/* the pending call asked for, once per process (a fork's child asks again);
 * 1 asked, 0 not possible (a full queue, an interpreter ending) */
static int
schedule(void)
{
    if (scheduled && scheduled_by == getpid())
        return 1;
    if (Py_AddPendingCall(rebuild_pending, NULL) < 0)
        return 0;
    scheduled = 1;
    scheduled_by = getpid();
    return 1;
}

int rebuild_waits;

void
rebuild_resume(void)
{
    rebuild_waits = 0;
    if (!schedule()) {
        /* (nothing else will ask: the thread then) */
        if (to_the_thread() < 0)
            PyErr_Clear();
    }
}

/* (the binding lock held, or one thread) `namespace`, whose last lazy name
 * was just used, to be rebuilt: by this thread between two of its
 * bytecodes, in a process of one thread; else (or with no pending call to
 * be had) by the rebuilder thread.  0 or -1 */
int
rebuild_queued(PyObject *namespace)
{
    if (!one_thread())
        return by_the_thread(namespace);
    PyObject *id = PyLong_FromVoidPtr(namespace);
    if (id == NULL)
        return -1;
    busy++;
    int failed = PyDict_SetItem(S.dirty, id, namespace) < 0;
    busy--;
    Py_DECREF(id);
    if (failed)
        return -1;
    return schedule() ? 0 : by_the_thread(namespace);
}
