/* lazy_codec's optional C accelerator: the common case of a lazy statement
 * (its binding) and of a first use (the key's compare, the resolution of a
 * module already imported, the rebinding), in C.
 *
 * The pure-Python runtime (api.py, binding.py, lookup.py, resolution.py) is the reference:
 * every function here either does exactly what that code does for a case it
 * has checked is common and simple, or does nothing and hands the whole
 * operation to the Python code, before changing any state.  What is rare (a
 * filter, a replaced __import__ or __lazy_import__, __lazy_modules__, a
 * recorder, a first use that imports or whose module still runs, an error,
 * the rebuilder) always goes to Python.
 *
 * Invariant: these paths run under the GIL and run no Python code between
 * their checks and their changes, except where noted; so, like the Python
 * runtime's `in_one_call`, they rely on the GIL (free-threaded builds use the
 * pure runtime).  `busy` is set while this file's own dict operations run
 * in this thread: a lazy key compared or hashed then answers as a plain str,
 * as the runtime's own peeks do in Python (lookup._in_runtime, state.runtime_globals).
 */
#ifndef LAZY_CODEC_ACCEL_H
#define LAZY_CODEC_ACCEL_H

/* The accelerator is one extension, lazy_codec.runtime._accel, built from
 * this folder's files (setup.py): this header declares what they share, and
 * module.c defines the shared state.  What one file alone uses stays static
 * there; small helpers of the compare's path are static inline here. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <frameobject.h>
#include <structmember.h>

/* every name declared here is the extension's own (not exported, nor
 * interposed by a same-named symbol of the interpreter or libc) */
#if defined(__GNUC__) && !defined(_WIN32) && !defined(__CYGWIN__)
#pragma GCC visibility push(hidden)
#define ACCEL_VISIBILITY_PUSHED
#endif

#if PY_VERSION_HEX >= 0x030D0000
#define WEAKREF_GET(ref, out) PyWeakref_GetRef((ref), &(out))
#else
static inline int
weakref_get_compat(PyObject *ref, PyObject **out)
{
    PyObject *obj = PyWeakref_GetObject(ref);
    if (obj == NULL) {
        *out = NULL;
        return -1;
    }
    if (obj == Py_None) {
        *out = NULL;
        return 0;
    }
    Py_INCREF(obj);
    *out = obj;
    return 1;
}
#define WEAKREF_GET(ref, out) weakref_get_compat((ref), &(out))
#endif

/* -- what the Python runtime hands over at setup() ---------------------- */
struct accel_state {
    PyTypeObject *lazy_name;   /* keys.LazyName (a subclass of KeyBase) */
    PyTypeObject *escaped_name; /* binding.EscapedName, its subclass */
    PyTypeObject *lazy_import; /* lazy.LazyImportType */
    PyObject *controls;        /* state.controls: mode, filter, recorder (its slots) */
    PyObject *runtime_globals; /* state.runtime_globals (a list): whose dict operations hash keys */
    PyObject *live_keys;        /* state.live_keys */
    PyObject *lazy_modules;     /* state.lazy_modules */
    PyObject *waiting_children; /* state.waiting_children */
    PyObject *waiting_origin;   /* state.waiting_origin */
    PyObject *dirty;            /* state.dirty: dicts to rebuild (rebuild.c, the thread) */
    PyObject *lookup_codes;     /* state.lookup_codes */
    PyTypeObject *module_spec; /* importlib's ModuleSpec */
    PyTypeObject *done_watch;  /* binding.DoneWatch, its subclass */
    PyObject *binding_lock; /* state.binding_lock: a BindingLock (state.c) */
    PyObject *our_hooks;        /* the __lazy_import__ objects that are ours */
    PyObject *builtin_import;   /* the interpreter's own __import__ */
    PyObject *py_lazy_import, *py_lazy_from; /* the pure entry points */
    PyObject *py_maybe_lazy_import, *py_maybe_lazy_from;
    PyObject *py_bind;
    /* lazy_codec.runtime.on_demand: what the next fields are loaded by, at their first
     * need (their modules, lookup, rebuilder and resolution, are not loaded
     * at the runtime's start with the accelerator); NULL until then */
    PyObject *on_demand;
    PyObject *py_key_eq, *py_key_hash;     /* lookup's */
    PyObject *py_rebuild_later;            /* rebuilder.rebuild_later */
    PyObject *py_failed_first_use;         /* resolution.failed_first_use */
    PyTypeObject *live_keys_type; /* state.LiveKeys */
    PyObject *entry_name;
    PyObject *kind_import, *kind_from, *kind_origin; /* lazy.IMPORT, FROM, ORIGIN: `_kind` values */
    PyObject *dict_iteration_names; /* frozenset: see rebuilder.in_dict_loop */
    PyObject *comprehensions;       /* tuple of code names */
    unsigned char simple_loads[256]; /* LOAD_GLOBAL, LOAD_NAME */
    unsigned char plain_peeks[256];  /* where lookup.key_eq answers True and does nothing */
    unsigned char attribute_loads[256]; /* LOAD_ATTR, LOAD_METHOD, IMPORT_FROM */
    unsigned char calls[256];           /* the call instructions (access.CALLS) */
    /* what in_tests_no_calling_iterator reads (access.CONTAINER_PRODUCERS:
     * what pushes the container `in` tests; a call with no keyword names; an
     * argument of one instruction; what a call's sequence has besides) */
    unsigned char container_producers[256], plain_calls[256], single_pushes[256], call_skips[256];
    int contains_op, load_global;
    /* importlib's code whose calls meet a package's lazy keys: the setattr of
     * a submodule on its package (a store), hasattr of a `from` (a load) */
    PyObject *child_store_code, *fromlist_code;
    int extended_arg;
    /* slot offsets of LazyImportType, LiveKeys and Controls */
    Py_ssize_t o_name, o_kind, o_statement, o_globals, o_filename, o_lineno, o_submodule, o_base, o_level, o_key,
        o_from, o_shown, o_attached, o_count, o_mode, o_filter, o_recorder;
    int ready;
};
extern struct accel_state S;

/* see the file's comment; per thread: a dict operation of ours can run
 * Python code (a non-str key's __eq__) and let another thread run meanwhile */
#if defined(_MSC_VER)
extern __declspec(thread) int busy;
#else
extern __thread int busy;
#endif

/* threads inside a first use's compare (a dict lookup in progress), which
 * can wait for the binding lock with the GIL released: the rebuilder asks
 * (lookups_in_progress), as it looks for lookup.key_eq's frames */
extern Py_ssize_t lookups;

/* code id -> (code, may iterate a dict): see code_may_iterate_dicts */
extern PyObject *loop_verdicts;

/* made at PyInit (module.c), never released: the int 0 (a lazy object's
 * `_level` but a relative `from`'s), and interned strs */
extern PyObject *int_zero;
extern PyObject *s_line, *s_spec, *s_initializing, *s_builtins,
    *s_import, *s_lazy_import, *s_path, *s_dot, *s_package, *s_import_head, *s_as_v, *s_empty, *s_dict, *s_class,
    *s_from_head, *s_import_part, *s_getattr, *s_name, *s_runtime_prefix;

#define SLOT(obj, off) (*(PyObject **)((char *)(obj) + (off)))

static inline void
set_slot(PyObject *obj, Py_ssize_t off, PyObject *value)
{
    PyObject *old = SLOT(obj, off);
    Py_INCREF(value);
    SLOT(obj, off) = value;
    Py_XDECREF(old);
}

/* -- the key: a str subclass whose compare and hash are in C ------------- */
typedef struct {
    PyUnicodeObject base;
    PyObject *namespace; /* the dict it is bound in */
    PyObject *lazy;      /* the lazy object until the name is used, then None */
    PyObject *live;      /* its namespace's LiveKeys */
    PyObject *resolving; /* the thread that imports the target, while it does */
    PyObject *running;   /* the partial module a use inside that import was given */
} KeyObject;

/* keys.c */
extern PyTypeObject KeyBase_Type;
extern int key_by_hand; /* set by setup() when key_by_hand_agrees */
PyObject *key_of(PyObject *name);
int key_by_hand_agrees(PyTypeObject *type);

/* first_use.c: KeyBase_Type's compare and hash */
PyObject *key_richcompare(PyObject *self, PyObject *other, int op);
Py_hash_t key_hash(PyObject *self);
int settle_checked(KeyObject *key, PyObject *name, PyObject *lazy, int may_change);

/* attribute_loads.c: 1 settled or found, 2 (fromlist) not found, 0 Python's, -1 error */
int attribute_load(KeyObject *key, PyObject *name);
int fromlist_while_resolving(KeyObject *key);
int forget_running(KeyObject *key, PyObject *lazy, int failed);

/* first_import.c */
int first_import(KeyObject *key, PyObject *lazy, PyObject **out);

/* frames.c */
int frame_state(PyFrameObject *frame, PyObject **globals, PyObject **codebytes, PyCodeObject **code,
                Py_ssize_t *lasti);
int running_op(PyCodeObject **code);
int in_tests_no_calling_iterator(void);
int code_may_iterate_dicts(PyCodeObject *code);
PyObject *plain_statement_frame(PyFrameObject **frame_out, PyObject *const *args, Py_ssize_t nargs,
                                PyObject *kwnames, Py_ssize_t *line, int explicit);
PyObject *frame_filename(PyFrameObject *frame);

/* state.c */
int initializing(PyObject *module);
PyObject *on_demand(PyObject **field, const char *name);
int loaded(PyObject *name, PyObject **found);
int plain_import(PyObject *globals);
extern PyTypeObject BindingLock_Type;
int one_thread(void);
int lock_acquire(void);
int lock_release(int held);
int binding_lock_held(void);
int nothing_to_attach(PyObject *name);

/* rebuild.c */
int rebuild_queued(PyObject *namespace);
/* set while a rebuild waits for the lookups in progress to end and the
 * binding lock to be free: whoever ends the last or frees it calls
 * rebuild_resume (one thread: no lock around these) */
extern int rebuild_waits;
void rebuild_resume(void);
#define REBUILD_IF_WAITING()                                                                                \
    do {                                                                                                    \
        if (rebuild_waits && lookups == 0 && !binding_lock_held())                                          \
            rebuild_resume();                                                                               \
    } while (0)

/* binding.c */
PyObject *new_lazy_of(PyObject *kind, PyObject *name, PyObject *statement, PyObject *globals, PyObject *filename,
                      PyObject *lineno, PyObject *base, PyObject *submodule);
PyObject *new_lazy(PyObject *kind, PyObject *name, PyObject *statement, PyObject *globals, PyObject *filename,
                   PyObject *lineno, PyObject *base);
int bind(PyObject *namespace, PyObject *name, PyObject *lazy);
PyObject *import_statement(PyObject *name);

/* submodules.c */
int attach_submodules_from(PyObject *dotted, PyObject *origin);
int attach_submodules(PyObject *dotted, PyObject *globals, PyObject *filename, PyObject *lineno);

/* statements.c: the entry points (module.c's method table) */
PyObject *accel_lazy_import(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
PyObject *accel_lazy_from(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
PyObject *accel_maybe_lazy_import(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
PyObject *accel_maybe_lazy_from(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);

/* -- small helpers of several files ---------------------------------------- */

static inline PyObject *
frame_globals_new(PyFrameObject *frame)
{
#if PY_VERSION_HEX >= 0x030B0000
    return PyFrame_GetGlobals(frame);
#else
    Py_INCREF(frame->f_globals);
    return frame->f_globals;
#endif
}

/* the value under `key` itself in its namespace (borrowed), found by
 * identity with `busy` set, so that no compare of ours runs; NULL when it
 * is not there or on error (PyErr_Occurred tells) */
static inline PyObject *
bound_value(KeyObject *key)
{
    busy++;
    PyObject *value = PyDict_GetItemWithError(key->namespace, (PyObject *)key);
    busy--;
    return value;
}

/* the value of `name` in a dict, or NULL (not there, or an error, cleared) */
static inline PyObject *
global_of(PyObject *globals, PyObject *name)
{
    PyObject *value = PyDict_GetItemWithError(globals, name);
    if (value == NULL)
        PyErr_Clear();
    return value;
}

/* is nothing unusual watching: no recorder, no filter */
static inline int
plain_runtime(void)
{
    PyObject *recorder = SLOT(S.controls, S.o_recorder);
    PyObject *filter = SLOT(S.controls, S.o_filter);
    return (recorder == NULL || recorder == Py_None) && (filter == NULL || filter == Py_None);
}

/* is `name` a dunder (ModuleType's own attributes come before its dict) */
static inline int
dunder_name(PyObject *name)
{
    return PyUnicode_GET_LENGTH(name) > 1 && PyUnicode_READ_CHAR(name, 0) == '_' &&
           PyUnicode_READ_CHAR(name, 1) == '_';
}

#ifdef ACCEL_VISIBILITY_PUSHED
#pragma GCC visibility pop
#endif

#endif /* LAZY_CODEC_ACCEL_H */
