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
 * as the runtime's own peeks do in Python (lookup._in_runtime, lookup.RUNTIME_GLOBALS).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <frameobject.h>
#include <structmember.h>

#if PY_VERSION_HEX >= 0x030D0000
#define WEAKREF_GET(ref, out) PyWeakref_GetRef((ref), &(out))
#else
static int
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
static struct {
    PyTypeObject *lazy_name;   /* keys.LazyName (a subclass of KeyBase) */
    PyTypeObject *lazy_import; /* lazy.LazyImportType */
    PyObject *controls;        /* state.controls: mode, filter, recorder (its slots) */
    PyObject *runtime_globals; /* lookup.RUNTIME_GLOBALS: whose dict operations hash keys */
    PyObject *live_keys;        /* state.live_keys */
    PyObject *lazy_modules;     /* state.lazy_modules */
    PyObject *waiting_children; /* state.waiting_children */
    PyObject *waiting_origin;   /* state.waiting_origin */
    PyTypeObject *module_spec, *done_watch; /* importlib's ModuleSpec, resolution._DoneWatch */
    PyObject *lock_acquire, *lock_release; /* state.binding_lock's */
    PyObject *our_hooks;        /* the __lazy_import__ objects that are ours */
    PyObject *builtin_import;   /* the interpreter's own __import__ */
    PyObject *py_lazy_import, *py_lazy_from; /* the pure entry points */
    PyObject *py_maybe_lazy_import, *py_maybe_lazy_from;
    PyObject *py_bind, *py_key_eq, *py_key_hash;
    PyObject *py_failed_first_use; /* resolution.failed_first_use */
    PyTypeObject *live_keys_type; /* state.LiveKeys */
    PyObject *entry_name;
    PyObject *kind_import, *kind_from, *kind_origin; /* lazy.IMPORT, FROM, ORIGIN: `_kind` values */
    PyObject *dict_iteration_names; /* frozenset: see access.in_dict_loop */
    PyObject *comprehensions;       /* tuple of code names */
    unsigned char simple_loads[256]; /* LOAD_GLOBAL, LOAD_NAME */
    unsigned char plain_peeks[256];  /* where lookup.key_eq answers True and does nothing */
    int extended_arg;
    /* slot offsets of LazyImportType, LiveKeys and Controls */
    Py_ssize_t o_name, o_kind, o_statement, o_globals, o_filename, o_lineno, o_submodule, o_base, o_key,
        o_from, o_shown, o_attached, o_count, o_mode, o_filter, o_recorder;
    int ready;
} S;

/* see the file's comment; per thread: a dict operation of ours can run
 * Python code (a non-str key's __eq__) and let another thread run meanwhile */
#if defined(_MSC_VER)
static __declspec(thread) int busy;
#else
static __thread int busy;
#endif

/* threads inside a first use's compare (a dict lookup in progress), which
 * can wait for the binding lock with the GIL released: the rebuilder asks
 * (lookups_in_progress), as it looks for lookup.key_eq's frames */
static Py_ssize_t lookups;

/* code id -> (code, may iterate a dict): see code_may_iterate_dicts */
static PyObject *loop_verdicts;
#define LOOP_VERDICTS_KEPT 64

static PyObject *s_line, *s_spec, *s_initializing, *s_builtins,
    *s_import, *s_lazy_import, *s_path, *s_dot, *s_package, *s_import_head, *s_as_v, *s_empty, *s_dict, *s_class,
    *s_from_head, *s_import_part, *s_getattr, *s_name;

#define SLOT(obj, off) (*(PyObject **)((char *)(obj) + (off)))

static void
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
    PyObject *namespace;
    PyObject *lazy;
    PyObject *live;
    PyObject *resolving;
    PyObject *running;
} KeyObject;

static PyMemberDef key_members[] = {
    {"namespace", T_OBJECT_EX, offsetof(KeyObject, namespace), 0, NULL},
    {"lazy", T_OBJECT_EX, offsetof(KeyObject, lazy), 0, NULL},
    {"live", T_OBJECT_EX, offsetof(KeyObject, live), 0, NULL},
    {"resolving", T_OBJECT, offsetof(KeyObject, resolving), 0, NULL},
    {"running", T_OBJECT, offsetof(KeyObject, running), 0, NULL},
    {NULL}};

static PyTypeObject KeyBase_Type;

static PyObject *
key_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    return PyUnicode_Type.tp_new(type, args, kwds);
}

/* A LazyName for `name`, an exact str: what `LazyName(name)` makes (str's
 * __new__ for a subclass: a "legacy" str, the struct and its characters in
 * two blocks), without the argument parsing, the argument tuple and the
 * conversion, which cost a statement several hundred instructions.  The
 * fields are filled as each version's own header describes a ready legacy
 * string (Include/cpython/unicodeobject.h: compact = 0, data.any the
 * characters, utf8 shared with them when ascii, on 3.9-3.11 wstr shared
 * when a character is a wchar_t), by field name, so compiled against each
 * version's layout; and setup() checks the result field by field against
 * str.__new__'s for names of each kind (key_by_hand_agrees), else every key
 * is made by str.__new__. */
static int key_by_hand; /* set by setup() when the check passes */

static PyObject *
key_by_str_new(PyTypeObject *type, PyObject *name)
{
    PyObject *args = PyTuple_Pack(1, name);
    if (args == NULL)
        return NULL;
    PyObject *key = type->tp_new(type, args, NULL);
    Py_DECREF(args);
    return key;
}

static PyObject *
key_filled(PyTypeObject *type, PyObject *name)
{
#if PY_VERSION_HEX < 0x030C0000
    if (!PyUnicode_IS_READY(name))
        return key_by_str_new(type, name);
#endif
    Py_hash_t hash = PyObject_Hash(name); /* (an exact str: its cached hash) */
    if (hash == -1)
        return NULL;
    Py_ssize_t length = PyUnicode_GET_LENGTH(name);
    int kind = PyUnicode_KIND(name);
    void *data = PyObject_Malloc((size_t)(length + 1) * kind);
    if (data == NULL)
        return PyErr_NoMemory();
    PyObject *self = type->tp_alloc(type, 0); /* (zeroed) */
    if (self == NULL) {
        PyObject_Free(data);
        return NULL;
    }
    memcpy(data, PyUnicode_DATA(name), (size_t)(length + 1) * kind);
    PyASCIIObject *ascii = (PyASCIIObject *)self;
    PyCompactUnicodeObject *compact = (PyCompactUnicodeObject *)self;
    ascii->length = length;
    ascii->hash = hash;
    ascii->state.interned = 0;
    ascii->state.kind = kind;
    ascii->state.compact = 0;
    ascii->state.ascii = PyUnicode_IS_ASCII(name);
#if PY_VERSION_HEX < 0x030C0000
    ascii->state.ready = 1;
    if (kind == sizeof(wchar_t)) {
        ascii->wstr = (wchar_t *)data;
        compact->wstr_length = length;
    }
#endif
    if (PyUnicode_IS_ASCII(name)) {
        compact->utf8 = (char *)data;
        compact->utf8_length = length;
    }
    ((PyUnicodeObject *)self)->data.any = data;
    return self;
}

static PyObject *
key_of(PyObject *name)
{
    if (key_by_hand && PyUnicode_CheckExact(name))
        return key_filled(S.lazy_name, name);
    return key_by_str_new(S.lazy_name, name);
}

/* do key_filled's keys have str.__new__'s fields, for names of each kind?
 * 1 yes, 0 no, -1 error */
static int
key_by_hand_agrees(PyTypeObject *type)
{
    static const char *names[] = {"json", "", "_\xc3\xa9t\xc3\xa9", "\xc4\x81" "b", "x\xf0\x9f\x90\x8d", NULL};
    int agree = 1;
    for (int i = 0; agree == 1 && names[i] != NULL; i++) {
        PyObject *name = PyUnicode_FromString(names[i]);
        if (name == NULL || PyObject_Hash(name) == -1) {
            Py_XDECREF(name);
            return -1;
        }
        PyObject *made = key_by_str_new(type, name), *filled = made ? key_filled(type, name) : NULL;
        if (filled == NULL) {
            Py_XDECREF(made);
            Py_DECREF(name);
            return -1;
        }
        PyASCIIObject *a = (PyASCIIObject *)made, *b = (PyASCIIObject *)filled;
        PyCompactUnicodeObject *ca = (PyCompactUnicodeObject *)made, *cb = (PyCompactUnicodeObject *)filled;
        void *da = ((PyUnicodeObject *)made)->data.any, *db = ((PyUnicodeObject *)filled)->data.any;
        Py_ssize_t length = PyUnicode_GET_LENGTH(name);
        int kind = PyUnicode_KIND(name);
        agree = a->length == length && b->length == length && a->hash == b->hash &&
                a->state.interned == b->state.interned && a->state.kind == b->state.kind &&
                a->state.compact == b->state.compact && a->state.ascii == b->state.ascii &&
                (int)b->state.kind == kind && !b->state.compact && da != NULL && db != NULL &&
                memcmp(da, db, (size_t)(length + 1) * kind) == 0 && ca->utf8_length == cb->utf8_length &&
                (ca->utf8 == da) == (cb->utf8 == db) && (ca->utf8 == NULL) == (cb->utf8 == NULL) &&
#if PY_VERSION_HEX < 0x030C0000
                a->state.ready == b->state.ready && ca->wstr_length == cb->wstr_length &&
                (a->wstr == da) == (b->wstr == db) && (a->wstr == NULL) == (b->wstr == NULL) &&
#else
                a->state.statically_allocated == b->state.statically_allocated &&
#endif
                PyUnicode_Compare(made, filled) == 0 && PyUnicode_Compare(name, filled) == 0;
        Py_DECREF(made);
        Py_DECREF(filled);
        Py_DECREF(name);
    }
    return agree;
}

static int
key_traverse(KeyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->namespace);
    Py_VISIT(self->lazy);
    Py_VISIT(self->live);
    Py_VISIT(self->resolving);
    Py_VISIT(self->running);
    return 0;
}

static int
key_clear(KeyObject *self)
{
    Py_CLEAR(self->namespace);
    Py_CLEAR(self->lazy);
    Py_CLEAR(self->live);
    Py_CLEAR(self->resolving);
    Py_CLEAR(self->running);
    return 0;
}

static void
key_dealloc(KeyObject *self)
{
    PyObject_GC_UnTrack(self);
    key_clear(self);
    PyUnicode_Type.tp_dealloc((PyObject *)self);
}

/* the frame's globals, code bytes (deoptimized) and current offset; new
 * references in *globals and *code */
static int
frame_state(PyFrameObject *frame, PyObject **globals, PyObject **codebytes, PyCodeObject **code,
            Py_ssize_t *lasti)
{
#if PY_VERSION_HEX >= 0x030B0000
    *globals = PyFrame_GetGlobals(frame);
    *code = PyFrame_GetCode(frame);
    *codebytes = PyCode_GetCode(*code);
    if (*codebytes == NULL) {
        Py_DECREF(*globals);
        Py_DECREF(*code);
        return -1;
    }
    *lasti = PyFrame_GetLasti(frame);
#else
    *globals = frame->f_globals;
    Py_INCREF(*globals);
    *code = frame->f_code;
    Py_INCREF(*code);
    *codebytes = (*code)->co_code;
    Py_INCREF(*codebytes);
#if PY_VERSION_HEX >= 0x030A0000
    *lasti = frame->f_lasti < 0 ? frame->f_lasti : frame->f_lasti * 2;
#else
    *lasti = frame->f_lasti;
#endif
    if (*lasti >= 0) { /* 3.9/3.10 leave f_lasti at an EXTENDED_ARG prefix */
        const unsigned char *raw = (const unsigned char *)PyBytes_AS_STRING(*codebytes);
        Py_ssize_t size = PyBytes_GET_SIZE(*codebytes);
        while (*lasti + 2 < size && raw[*lasti] == S.extended_arg)
            *lasti += 2;
    }
#endif
    return 0;
}

static PyObject *
frame_globals_new(PyFrameObject *frame)
{
#if PY_VERSION_HEX >= 0x030B0000
    return PyFrame_GetGlobals(frame);
#else
    Py_INCREF(frame->f_globals);
    return frame->f_globals;
#endif
}

/* may a for loop in `code` iterate its module's dict? (access.in_dict_loop's
 * question asked of the whole code: it names a way to iterate a dict, or it
 * is a 3.9-3.11 comprehension); -1 on error.  Cached by code (bounded). */
static int
code_may_iterate_dicts(PyCodeObject *code)
{
    PyObject *id = PyLong_FromVoidPtr(code);
    if (id == NULL)
        return -1;
    PyObject *cached = PyDict_GetItemWithError(loop_verdicts, id);
    if (cached != NULL && PyTuple_GET_ITEM(cached, 0) == (PyObject *)code) {
        Py_DECREF(id);
        return PyTuple_GET_ITEM(cached, 1) == Py_True;
    }
    if (PyErr_Occurred()) {
        Py_DECREF(id);
        return -1;
    }
    int found = PySequence_Contains(S.comprehensions, code->co_name);
    PyObject *names = code->co_names;
    for (Py_ssize_t i = 0; found == 0 && i < PyTuple_GET_SIZE(names); i++)
        found = PySet_Contains(S.dict_iteration_names, PyTuple_GET_ITEM(names, i));
    if (found < 0) {
        Py_DECREF(id);
        return -1;
    }
    if (PyDict_GET_SIZE(loop_verdicts) >= LOOP_VERDICTS_KEPT)
        PyDict_Clear(loop_verdicts);
    PyObject *entry = Py_BuildValue("(OO)", (PyObject *)code, found ? Py_True : Py_False);
    int failed = entry == NULL || PyDict_SetItem(loop_verdicts, id, entry) < 0;
    Py_XDECREF(entry);
    Py_DECREF(id);
    return failed ? -1 : found;
}

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

/* state.initializing: its spec's `_initializing` is anything but False;
 * an Exception while asking counts as not running, as there; 1 running,
 * 0 not, -1 another error (set) */
static int
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
static int
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

/* the value of `name` in a dict, or NULL (not there, or an error, cleared) */
static PyObject *
global_of(PyObject *globals, PyObject *name)
{
    PyObject *value = PyDict_GetItemWithError(globals, name);
    if (value == NULL)
        PyErr_Clear();
    return value;
}

/* is nothing unusual watching: no recorder, no filter */
static int
plain_runtime(void)
{
    PyObject *recorder = SLOT(S.controls, S.o_recorder);
    PyObject *filter = SLOT(S.controls, S.o_filter);
    return (recorder == NULL || recorder == Py_None) && (filter == NULL || filter == Py_None);
}

/* does `globals`' builtins have the interpreter's own __import__? */
static int
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
static int
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

static int
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
static int
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

/* -- a first use that imports: the statement's import, in C --------------- */
static int attach_submodules_from(PyObject *dotted, PyObject *origin);

/* is `name` a dunder (ModuleType's own attributes come before its dict) */
static int
dunder_name(PyObject *name)
{
    return PyUnicode_GET_LENGTH(name) > 1 && PyUnicode_READ_CHAR(name, 0) == '_' &&
           PyUnicode_READ_CHAR(name, 1) == '_';
}

/* IMPORT_FROM's `attr` of `module`, when a dict lookup can tell it: an
 * exact module's dict has it (not a lazy binding), or, with no module
 * __getattr__, sys.modules has `module.__name__ + '.' + attr`.  1 with a
 * new reference in *out; 0 when only the interpreter's own IMPORT_FROM can
 * say (its module __getattr__, its error message: the statement rerun in
 * Python says it); -1 error */
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
    if (hook != NULL || package == NULL || !PyUnicode_CheckExact(package))
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

/* resolution.import_named_submodule: `lazy from pkg import sub` with `pkg`
 * an imported package that has no `sub` imports `pkg.sub` first (an error
 * but its own ModuleNotFoundError is the first use's) */
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
    int imported = PyDict_Contains(PyImport_GetModuleDict(), target);
    if (imported != 0)
        return imported < 0 ? -1 : 0;
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
static int
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
        /* "from ..a.b import x as v": its level and module as IMPORT_NAME has them */
        Py_ssize_t total = PyUnicode_GET_LENGTH(statement);
        Py_ssize_t head = PyUnicode_GET_LENGTH(s_from_head);
        if (PyUnicode_Tailmatch(statement, s_from_head, 0, head, -1) != 1)
            return 0;
        Py_ssize_t at = head;
        while (at < total && PyUnicode_READ_CHAR(statement, at) == '.')
            at++;
        level = (int)(at - head);
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
        PyObject *type, *exc, *tb;
        PyErr_Fetch(&type, &exc, &tb);
        PyErr_NormalizeException(&type, &exc, &tb);
        if (exc == NULL) {
            PyErr_Restore(type, exc, tb);
            result = -1;
            goto done;
        }
        /* (the traceback that reached here: before 3.12 the exception's own
         * can still hold the importlib frames that the import trimmed) */
        if (PyException_SetTraceback(exc, tb != NULL ? tb : Py_None) < 0) {
            Py_XDECREF(type);
            Py_XDECREF(tb);
            Py_DECREF(exc);
            result = -1;
            goto done;
        }
        Py_XDECREF(type);
        Py_XDECREF(tb);
        PyObject *shaped = PyObject_CallFunctionObjArgs(S.py_failed_first_use, lazy, exc, NULL);
        Py_DECREF(exc);
        if (shaped != NULL) {
            PyObject *shaped_type = (PyObject *)Py_TYPE(shaped);
            Py_INCREF(shaped_type);
            PyErr_Restore(shaped_type, shaped, PyException_GetTraceback(shaped));
        }
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

/* The first use of a name, in C, when it is the common case: a LOAD_GLOBAL or
 * LOAD_NAME of a key bound by `lazy import m` / `lazy from m import x`, whose
 * module is imported and done, in a module dict that keeps other lazy names
 * (the last one's use starts the rebuilder: Python does it).  1: done, the
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
    Py_DECREF(lazy);
    return result;
}

static int
settle_held(KeyObject *key, PyObject *name, PyObject *lazy)
{
    if (Py_TYPE(lazy) != S.lazy_import || (key->resolving && key->resolving != Py_None) ||
        (key->running && key->running != Py_None) || key->live == NULL || !plain_runtime())
        return 0;
    if (SLOT(lazy, S.o_from) != Py_None || SLOT(lazy, S.o_attached) != Py_False ||
        SLOT(lazy, S.o_shown) != Py_None)
        return 0;
    /* the change is Python's for a dict's last lazy name (the rebuilder)
     * and in a loop that may iterate the dict (settled in place); C still
     * imports then, from the using frame, and Python reruns the statement,
     * which finds the module imported */
    PyObject *live_count = SLOT(key->live, S.o_count);
    int changes = live_count != NULL && PyLong_CheckExact(live_count) && PyLong_AsSsize_t(live_count) > 1;

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
    int iterates = simple ? code_may_iterate_dicts(code) : 0;
    Py_DECREF(globals);
    Py_DECREF(codebytes);
    Py_DECREF(code);
    if (iterates < 0)
        return -1;
    if (!simple)
        return 0;
    changes = changes && !iterates;

    PyObject *target = SLOT(lazy, S.o_name);
    PyObject *base = SLOT(lazy, S.o_base);
    PyObject *lazy_globals = SLOT(lazy, S.o_globals);
    if (!PyDict_CheckExact(lazy_globals) || !plain_import(lazy_globals))
        return 0;
    PyObject *submodule = SLOT(lazy, S.o_submodule);
    PyObject *module, *value = NULL;
    if (base == Py_None && submodule == Py_None && SLOT(lazy, S.o_kind) == S.kind_import) {
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
    else if (base != Py_None) {
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
            Py_DECREF(attr);
            if (value == NULL && PyErr_Occurred())
                return -1;
            if (value != NULL && Py_TYPE(value) == S.lazy_import)
                return 0;
            Py_XINCREF(value);
        }
    }
    if (value == NULL) {
        /* not imported yet, or what its import must do next: import it,
         * if the entry still holds the lazy object (a store under the key
         * replaces the value, not the key: lookup.settle imports nothing then) */
        busy++;
        PyObject *current = PyDict_GetItemWithError(key->namespace, (PyObject *)key);
        busy--;
        if (current != lazy)
            return PyErr_Occurred() ? -1 : 0;
        int got = first_import(key, lazy, &value);
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
     * this dict meanwhile, and the last one's use is Python's) */
    if (current == lazy && key->lazy == lazy && live_now != NULL && PyLong_CheckExact(live_now) &&
        PyLong_AsSsize_t(live_now) > 1) {
        PyObject *plain = name;
        Py_INCREF(plain);
        if (!PyUnicode_CHECK_INTERNED(plain)) {
            Py_SETREF(plain, PyUnicode_FromObject(plain));
            if (plain != NULL)
                PyUnicode_InternInPlace(&plain);
        }
        if (plain == NULL || (base != Py_None && PySet_Discard(S.lazy_modules, base) < 0) ||
            (submodule == Py_None && PySet_Discard(S.lazy_modules, target) < 0) || PyDict_DelItem(namespace, (PyObject *)key) < 0 ||
            PyDict_SetItem(namespace, plain, value) < 0)
            result = -1;
        else {
            PyObject *count = PyLong_FromSsize_t(PyLong_AsSsize_t(SLOT(key->live, S.o_count)) - 1);
            if (count == NULL)
                result = -1;
            else {
                Py_SETREF(SLOT(key->live, S.o_count), count);
                Py_INCREF(Py_None);
                Py_SETREF(key->lazy, Py_None);
                result = 1;
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
 * subscripts)?  lookup.key_eq answers True there and changes nothing */
static int
plain_peek(void)
{
    PyFrameObject *frame = PyEval_GetFrame();
    if (frame == NULL || !S.ready)
        return 0;
    PyObject *globals, *codebytes;
    PyCodeObject *code;
    Py_ssize_t lasti = -1;
    if (frame_state(frame, &globals, &codebytes, &code, &lasti) < 0)
        return -1;
    int peek = lasti >= 0 && lasti < PyBytes_GET_SIZE(codebytes) &&
               S.plain_peeks[(unsigned char)PyBytes_AS_STRING(codebytes)[lasti]];
    Py_DECREF(globals);
    Py_DECREF(codebytes);
    Py_DECREF(code);
    return peek;
}

/* lookup.key_eq's first answer for a used key (its lazy is None) still in
 * its dict (settled in place: an escaped key, or in a loop that may iterate
 * the dict, until the rebuilder makes it plain): 1 when the entry holds the
 * real object (the lookup finds it: nothing to do), 0 when it holds a lazy
 * object again (Python re-arms the key) */
static int
settled_in_place(KeyObject *key)
{
    if (!S.ready || key->namespace == NULL || !PyDict_Check(key->namespace))
        return 0;
    busy++;
    PyObject *value = PyDict_GetItemWithError(key->namespace, (PyObject *)key);
    busy--;
    if (value == NULL)
        return PyErr_Occurred() ? -1 : 1;
    return Py_TYPE(value) != S.lazy_import;
}

static PyObject *
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
    PyObject *answer = PyObject_CallFunctionObjArgs(S.py_key_eq, self, other, NULL);
    if (answer == NULL || op == Py_EQ)
        return answer;
    int truth = PyObject_IsTrue(answer);
    Py_DECREF(answer);
    return truth < 0 ? NULL : PyBool_FromLong(!truth);
}

static Py_hash_t
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
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(S.runtime_globals); i++)
        ours |= globals == PyTuple_GET_ITEM(S.runtime_globals, i);
    Py_DECREF(globals);
    if (ours)
        return PyUnicode_Type.tp_hash(self);
    PyObject *hashed = PyObject_CallOneArg(S.py_key_hash, self);
    if (hashed == NULL)
        return -1;
    Py_hash_t hash = PyLong_AsSsize_t(hashed);
    Py_DECREF(hashed);
    return hash;
}

static PyTypeObject KeyBase_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "lazy_codec.runtime._accel.KeyBase",
    .tp_basicsize = sizeof(KeyObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "keys.LazyName's base: its compare and hash in C",
    .tp_new = key_new,
    .tp_dealloc = (destructor)key_dealloc,
    .tp_traverse = (traverseproc)key_traverse,
    .tp_clear = (inquiry)key_clear,
    .tp_free = PyObject_GC_Del,
    .tp_richcompare = key_richcompare,
    .tp_hash = key_hash,
    .tp_members = key_members,
};

/* -- a lazy statement ----------------------------------------------------- */

static PyObject *
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
    set_slot(lazy, S.o_key, Py_None);
    set_slot(lazy, S.o_from, Py_None);
    set_slot(lazy, S.o_shown, Py_None);
    set_slot(lazy, S.o_attached, Py_False);
    return lazy;
}

/* lazy.new_lazy */
static PyObject *
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
static int
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

/* the statement's frame, when it is a module's (locals are globals, a dict)
 * and nothing unusual is set: its globals (borrowed, through the frame) */
static PyObject *
plain_statement_frame(PyFrameObject **frame_out, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                      Py_ssize_t *line, int explicit)
{
    if (!S.ready || kwnames == NULL || PyTuple_GET_SIZE(kwnames) != 1 ||
        (PyTuple_GET_ITEM(kwnames, 0) != s_line && PyUnicode_Compare(PyTuple_GET_ITEM(kwnames, 0), s_line) != 0) ||
        !PyLong_CheckExact(args[nargs]))
        return NULL;
    *line = PyLong_AsSsize_t(args[nargs]);
    if (*line <= 0) {
        PyErr_Clear();
        return NULL;
    }
    PyFrameObject *frame = PyEval_GetFrame();
    if (frame == NULL || !plain_runtime())
        return NULL;
    PyObject *globals = frame_globals_new(frame);
#if PY_VERSION_HEX >= 0x030B0000
    PyObject *locals = PyFrame_GetLocals(frame);
    if (locals == NULL) {
        PyErr_Clear();
        Py_DECREF(globals);
        return NULL;
    }
    Py_DECREF(locals);
#else
    PyObject *locals = frame->f_locals;
#endif
    Py_DECREF(globals); /* (the frame keeps it) */
    if (locals != globals || !PyDict_CheckExact(globals))
        return NULL;
    if (!explicit) {
        /* a plain import: lazy in mode "all" (else __lazy_modules__: Python) */
        PyObject *mode = SLOT(S.controls, S.o_mode);
        if (mode == NULL || !PyUnicode_Check(mode) || PyUnicode_CompareWithASCIIString(mode, "all") != 0)
            return NULL;
        *frame_out = frame;
        return globals;
    }
    /* builtins.__lazy_import__ one of ours (api._replaced_lazy_import) */
    PyObject *builtins = PyEval_GetBuiltins();
    if (builtins == NULL || !PyDict_Check(builtins))
        return NULL;
    PyObject *hook = global_of(builtins, s_lazy_import);
    if (hook != NULL && hook != Py_None) {
        int ours = PySequence_Contains(S.our_hooks, hook);
        if (ours <= 0) {
            PyErr_Clear();
            return NULL;
        }
    }
    *frame_out = frame;
    return globals;
}

static int
alias_ok(PyObject *alias, PyObject **name, PyObject **asname)
{
    if (!PyTuple_CheckExact(alias) || PyTuple_GET_SIZE(alias) != 2)
        return 0;
    *name = PyTuple_GET_ITEM(alias, 0);
    *asname = PyTuple_GET_ITEM(alias, 1);
    return PyUnicode_CheckExact(*name) && (*asname == Py_None || PyUnicode_CheckExact(*asname));
}

static PyObject *
frame_filename(PyFrameObject *frame)
{
    PyCodeObject *code = PyFrame_GetCode(frame);
    PyObject *filename = code->co_filename;
    Py_INCREF(filename);
    Py_DECREF(code);
    return filename;
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

/* "import NAME as v" (a reified statement's text, see resolution.statement_code),
 * made in one allocation (two concatenations cost a statement ~700 instructions) */
static PyObject *
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
 * marks it done (resolution._DoneWatch); under the binding lock */
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
    if (Py_TYPE(spec) == S.module_spec || Py_TYPE(spec) == S.done_watch)
        failed = PyDict_SetItem(S.waiting_origin, parent_name, origin) < 0 ||
                 PyObject_GenericSetAttr(spec, s_class, (PyObject *)S.done_watch) < 0;
    Py_DECREF(spec);
    return failed ? -1 : 0;
}

/* resolution.attach_submodules(dotted, origin): bind each not-yet-imported
 * level of `dotted` in its imported parent */
static int
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
static int
attach_submodules(PyObject *dotted, PyObject *globals, PyObject *filename, PyObject *lineno)
{
    PyObject *origin = new_lazy(S.kind_origin, dotted, s_empty, globals, filename, lineno, Py_None);
    if (origin == NULL)
        return -1;
    int failed = attach_submodules_from(dotted, origin);
    Py_DECREF(origin);
    return failed;
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
    PyObject *lineno = PyLong_FromSsize_t(line);
    failed = failed || lineno == NULL;
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
    PyObject *lineno = PyLong_FromSsize_t(line);
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
    static PyObject *function(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)  \
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

/* the offset of slot `name` of `type` (a member descriptor) */
static int
slot_offset(PyTypeObject *type, const char *name, Py_ssize_t *offset)
{
    PyObject *descr = PyDict_GetItemString(type->tp_dict, name);
    if (descr == NULL || Py_TYPE(descr) != &PyMemberDescr_Type) {
        PyErr_Format(PyExc_TypeError, "lazy_codec: %s.%s is not a slot", type->tp_name, name);
        return -1;
    }
    PyMemberDef *member = ((PyMemberDescrObject *)descr)->d_member;
    if (member->type != T_OBJECT_EX) {
        PyErr_Format(PyExc_TypeError, "lazy_codec: %s.%s is not an object slot", type->tp_name, name);
        return -1;
    }
    *offset = member->offset;
    return 0;
}

static PyObject *
take(PyObject *config, const char *name)
{
    PyObject *value = PyDict_GetItemString(config, name);
    if (value == NULL) {
        PyErr_Format(PyExc_KeyError, "lazy_codec._accel.setup: no %s", name);
        return NULL;
    }
    Py_INCREF(value);
    return value;
}

/* table[op] = 1 for each opcode of `ops` */
static int
opcode_table(PyObject *ops, unsigned char *table)
{
    PyObject *iterator = PyObject_GetIter(ops);
    if (iterator == NULL)
        return -1;
    PyObject *item;
    while ((item = PyIter_Next(iterator)) != NULL) {
        long op = PyLong_AsLong(item);
        Py_DECREF(item);
        if (op >= 0 && op < 256)
            table[op] = 1;
    }
    Py_DECREF(iterator);
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *
accel_setup(PyObject *module, PyObject *config)
{
    if (!PyDict_Check(config)) {
        PyErr_SetString(PyExc_TypeError, "setup() takes a dict");
        return NULL;
    }
    if (S.ready) {
        PyErr_SetString(PyExc_RuntimeError, "lazy_codec._accel is set up already");
        return NULL;
    }
#define TAKE(field, name)                                                                                   \
    if ((S.field = (void *)take(config, name)) == NULL)                                                           \
        return NULL;
    TAKE(lazy_name, "LazyName")
    TAKE(lazy_import, "LazyImportType")
    TAKE(controls, "controls")
    TAKE(runtime_globals, "runtime_globals")
    TAKE(live_keys, "live_keys")
    TAKE(lazy_modules, "lazy_modules")
    TAKE(waiting_children, "waiting_children")
    TAKE(waiting_origin, "waiting_origin")
    TAKE(module_spec, "ModuleSpec")
    TAKE(done_watch, "DoneWatch")
    TAKE(our_hooks, "our_hooks")
    TAKE(builtin_import, "builtin_import")
    TAKE(py_lazy_import, "lazy_import")
    TAKE(py_lazy_from, "lazy_from")
    TAKE(py_maybe_lazy_import, "maybe_lazy_import")
    TAKE(py_maybe_lazy_from, "maybe_lazy_from")
    TAKE(py_bind, "bind")
    TAKE(live_keys_type, "LiveKeys")
    TAKE(py_key_eq, "key_eq")
    TAKE(py_key_hash, "key_hash")
    TAKE(py_failed_first_use, "failed_first_use")
    TAKE(entry_name, "entry_name")
    TAKE(dict_iteration_names, "dict_iteration_names")
    TAKE(comprehensions, "comprehensions")
#undef TAKE
    PyObject *kinds = take(config, "kinds");
    if (kinds == NULL)
        return NULL;
    int kinds_ok = PyArg_ParseTuple(kinds, "UUU:kinds", &S.kind_import, &S.kind_from, &S.kind_origin);
    Py_XINCREF(S.kind_import);
    Py_XINCREF(S.kind_from);
    Py_XINCREF(S.kind_origin);
    Py_DECREF(kinds);
    if (!kinds_ok)
        return NULL;
    PyObject *lock = take(config, "binding_lock");
    if (lock == NULL)
        return NULL;
    S.lock_acquire = PyObject_GetAttrString(lock, "acquire");
    S.lock_release = PyObject_GetAttrString(lock, "release");
    Py_DECREF(lock);
    if (S.lock_acquire == NULL || S.lock_release == NULL)
        return NULL;
    if (!PyType_Check(S.lazy_name) || !PyType_IsSubtype(S.lazy_name, &KeyBase_Type) ||
        !PyType_Check(S.lazy_import) || !PyTuple_Check(S.runtime_globals) || !PyDict_Check(S.live_keys) || !PySet_Check(S.lazy_modules) ||
        !PyDict_Check(S.waiting_children) || !PyAnySet_Check(S.dict_iteration_names)) {
        PyErr_SetString(PyExc_TypeError, "lazy_codec._accel.setup: unexpected types");
        return NULL;
    }
    PyObject *loads = PyDict_GetItemString(config, "simple_loads");
    PyObject *peeks = PyDict_GetItemString(config, "plain_peeks");
    PyObject *extended = PyDict_GetItemString(config, "EXTENDED_ARG");
    if (!PyType_Check(S.live_keys_type) || loads == NULL || peeks == NULL || extended == NULL) {
        PyErr_SetString(PyExc_TypeError,
                        "lazy_codec._accel.setup: LiveKeys, simple_loads, plain_peeks, EXTENDED_ARG");
        return NULL;
    }
    S.extended_arg = (int)PyLong_AsLong(extended);
    if (opcode_table(loads, S.simple_loads) < 0 || opcode_table(peeks, S.plain_peeks) < 0)
        return NULL;
    PyTypeObject *lt = S.lazy_import;
    if (slot_offset(lt, "_name", &S.o_name) || slot_offset(lt, "_kind", &S.o_kind) ||
        slot_offset(lt, "_statement", &S.o_statement) ||
        slot_offset(lt, "_globals", &S.o_globals) || slot_offset(lt, "_filename", &S.o_filename) ||
        slot_offset(lt, "_lineno", &S.o_lineno) || slot_offset(lt, "_submodule", &S.o_submodule) ||
        slot_offset(lt, "_base", &S.o_base) || slot_offset(lt, "_key", &S.o_key) ||
        slot_offset(lt, "_from", &S.o_from) || slot_offset(lt, "_shown", &S.o_shown) ||
        slot_offset(lt, "_attached", &S.o_attached) ||
        slot_offset(S.live_keys_type, "count", &S.o_count) ||
        slot_offset(Py_TYPE(S.controls), "mode", &S.o_mode) ||
        slot_offset(Py_TYPE(S.controls), "filter", &S.o_filter) ||
        slot_offset(Py_TYPE(S.controls), "recorder", &S.o_recorder))
        return NULL;
    int agrees = key_by_hand_agrees(S.lazy_name);
    if (agrees < 0)
        return NULL;
    key_by_hand = agrees;
    S.ready = 1;
    Py_RETURN_NONE;
}

/* C's initializing and loaded, called from Python: tests/test_twins.py runs
 * them beside state.initializing and state.loaded on the same inputs */
static PyObject *
accel_initializing(PyObject *module, PyObject *arg)
{
    int running = initializing(arg);
    return running < 0 ? NULL : PyBool_FromLong(running);
}

static PyObject *
accel_loaded(PyObject *module, PyObject *name)
{
    if (!PyUnicode_Check(name)) {
        PyErr_SetString(PyExc_TypeError, "loaded() takes a str");
        return NULL;
    }
    int done = loaded(name, NULL);
    return done < 0 ? NULL : PyBool_FromLong(done);
}

static PyObject *
accel_keys_by_hand(PyObject *module, PyObject *unused)
{
    return PyBool_FromLong(key_by_hand);
}

static PyObject *
accel_lookups_in_progress(PyObject *module, PyObject *unused)
{
    return PyBool_FromLong(lookups > 0);
}

static PyMethodDef accel_methods[] = {
    {"lookups_in_progress", accel_lookups_in_progress, METH_NOARGS,
     "is a thread inside the accelerator's compare of a lazy key (a dict lookup)?"},
    {"lazy_import", (PyCFunction)(void (*)(void))accel_lazy_import, METH_FASTCALL | METH_KEYWORDS,
     "api.lazy_import, its common case in C"},
    {"lazy_from", (PyCFunction)(void (*)(void))accel_lazy_from, METH_FASTCALL | METH_KEYWORDS,
     "api.lazy_from, its common case in C"},
    {"maybe_lazy_import", (PyCFunction)(void (*)(void))accel_maybe_lazy_import, METH_FASTCALL | METH_KEYWORDS,
     "api.maybe_lazy_import, its common case in C"},
    {"maybe_lazy_from", (PyCFunction)(void (*)(void))accel_maybe_lazy_from, METH_FASTCALL | METH_KEYWORDS,
     "api.maybe_lazy_from, its common case in C"},
    {"keys_by_hand", accel_keys_by_hand, METH_NOARGS,
     "are keys made without str.__new__ (setup found its fields the same)?"},
    {"setup", accel_setup, METH_O, "hand the Python runtime's objects over (once)"},
    {"initializing", accel_initializing, METH_O, "state.initializing, as C runs it (for the twin tests)"},
    {"loaded", accel_loaded, METH_O, "state.loaded, as C runs it (for the twin tests)"},
    {NULL}};

static struct PyModuleDef accel_module = {
    PyModuleDef_HEAD_INIT, "lazy_codec.runtime._accel", "lazy_codec's optional C accelerator", -1,
    accel_methods};

PyMODINIT_FUNC
PyInit__accel(void)
{
    KeyBase_Type.tp_base = &PyUnicode_Type;
    if (PyType_Ready(&KeyBase_Type) < 0)
        return NULL;
#define INTERN(var, text)                                                                                   \
    if ((var = PyUnicode_InternFromString(text)) == NULL)                                                   \
        return NULL;
    INTERN(s_line, "line")
    INTERN(s_spec, "__spec__")
    INTERN(s_initializing, "_initializing")
    INTERN(s_builtins, "__builtins__")
    INTERN(s_import, "__import__")
    INTERN(s_lazy_import, "__lazy_import__")
    INTERN(s_path, "__path__")
    INTERN(s_dot, ".")
    INTERN(s_package, "__package__")
    INTERN(s_import_head, "import ")
    INTERN(s_as_v, " as v")
    INTERN(s_empty, "")
    INTERN(s_dict, "__dict__")
    INTERN(s_class, "__class__")
    INTERN(s_from_head, "from ")
    INTERN(s_import_part, " import ")
    INTERN(s_getattr, "__getattr__")
    INTERN(s_name, "__name__")
#undef INTERN
    if ((loop_verdicts = PyDict_New()) == NULL)
        return NULL;
    PyObject *module = PyModule_Create(&accel_module);
    if (module == NULL)
        return NULL;
    Py_INCREF(&KeyBase_Type);
    if (PyModule_AddObject(module, "KeyBase", (PyObject *)&KeyBase_Type) < 0) {
        Py_DECREF(&KeyBase_Type);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
