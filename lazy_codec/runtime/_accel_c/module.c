/* the module: its state (declared in accel.h, defined here), setup(), the
 * methods and PyInit */
#include "accel.h"
#include "dict_entries.h"

/* the shared state: each piece's invariant is stated in accel.h */
struct accel_state S;
#if defined(_MSC_VER)
__declspec(thread) int busy;
#else
__thread int busy;
#endif
Py_ssize_t lookups;
PyObject *loop_verdicts;
PyObject *int_zero;
PyObject *s_line, *s_spec, *s_initializing, *s_builtins, *s_import, *s_lazy_import, *s_path, *s_dot, *s_package,
    *s_import_head, *s_as_v, *s_empty, *s_dict, *s_class, *s_from_head, *s_import_part, *s_getattr, *s_name,
    *s_runtime_prefix;

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
    TAKE(dirty, "dirty")
    TAKE(lookup_codes, "lookup_codes")
    TAKE(escaped_name, "EscapedName")
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
    TAKE(on_demand, "on_demand")
    TAKE(entry_name, "entry_name")
    TAKE(dict_iteration_names, "dict_iteration_names")
    TAKE(comprehensions, "comprehensions")
    TAKE(child_store_code, "child_store_code")
    TAKE(fromlist_code, "fromlist_code")
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
    S.binding_lock = take(config, "binding_lock");
    if (S.binding_lock == NULL)
        return NULL;
    if (Py_TYPE(S.binding_lock) != &BindingLock_Type || !PyType_Check(S.lazy_name) || !PyType_IsSubtype(S.lazy_name, &KeyBase_Type) ||
        !PyType_Check(S.lazy_import) || !PyList_Check(S.runtime_globals) || !PyDict_Check(S.live_keys) || !PySet_Check(S.lazy_modules) ||
        !PyDict_Check(S.waiting_children) || !PyDict_CheckExact(S.dirty) || !PyAnySet_Check(S.lookup_codes) ||
        !PyType_Check(S.escaped_name) || !PyAnySet_Check(S.dict_iteration_names)) {
        PyErr_SetString(PyExc_TypeError, "lazy_codec._accel.setup: unexpected types");
        return NULL;
    }
    PyObject *loads = PyDict_GetItemString(config, "simple_loads");
    PyObject *peeks = PyDict_GetItemString(config, "plain_peeks");
    PyObject *attribute_loads = PyDict_GetItemString(config, "attribute_loads");
    PyObject *calls = PyDict_GetItemString(config, "calls");
    PyObject *producers = PyDict_GetItemString(config, "container_producers");
    PyObject *plain_calls = PyDict_GetItemString(config, "plain_calls");
    PyObject *single_pushes = PyDict_GetItemString(config, "single_pushes");
    PyObject *call_skips = PyDict_GetItemString(config, "call_skips");
    PyObject *load_global = PyDict_GetItemString(config, "LOAD_GLOBAL");
    PyObject *extended = PyDict_GetItemString(config, "EXTENDED_ARG");
    PyObject *contains = PyDict_GetItemString(config, "CONTAINS_OP");
    if (!PyType_Check(S.live_keys_type) || loads == NULL || peeks == NULL || attribute_loads == NULL ||
        calls == NULL || producers == NULL || plain_calls == NULL || single_pushes == NULL ||
        call_skips == NULL || extended == NULL || contains == NULL || load_global == NULL ||
        !PyCode_Check(S.child_store_code) || !PyCode_Check(S.fromlist_code)) {
        PyErr_SetString(PyExc_TypeError, "lazy_codec._accel.setup: LiveKeys, simple_loads, plain_peeks, "
                                         "attribute_loads, calls, container_producers, plain_calls, "
                                         "single_pushes, call_skips, EXTENDED_ARG, CONTAINS_OP, "
                                         "LOAD_GLOBAL, child_store_code, fromlist_code");
        return NULL;
    }
    S.extended_arg = (int)PyLong_AsLong(extended);
    S.contains_op = (int)PyLong_AsLong(contains);
    S.load_global = (int)PyLong_AsLong(load_global);
    if (opcode_table(loads, S.simple_loads) < 0 || opcode_table(peeks, S.plain_peeks) < 0 ||
        opcode_table(attribute_loads, S.attribute_loads) < 0 || opcode_table(calls, S.calls) < 0 ||
        opcode_table(producers, S.container_producers) < 0 || opcode_table(plain_calls, S.plain_calls) < 0 ||
        opcode_table(single_pushes, S.single_pushes) < 0 || opcode_table(call_skips, S.call_skips) < 0)
        return NULL;
    PyTypeObject *lt = S.lazy_import;
    if (slot_offset(lt, "_name", &S.o_name) || slot_offset(lt, "_kind", &S.o_kind) ||
        slot_offset(lt, "_statement", &S.o_statement) ||
        slot_offset(lt, "_globals", &S.o_globals) || slot_offset(lt, "_filename", &S.o_filename) ||
        slot_offset(lt, "_lineno", &S.o_lineno) || slot_offset(lt, "_submodule", &S.o_submodule) ||
        slot_offset(lt, "_base", &S.o_base) || slot_offset(lt, "_level", &S.o_level) || slot_offset(lt, "_key", &S.o_key) ||
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

static PyObject *
accel_replace_key(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "replace_key(namespace, old, new, value)");
        return NULL;
    }
    busy++;
    int replaced = dict_entries_replace(args[0], args[1], args[2], args[3]);
    busy--;
    if (replaced < 0)
        return NULL;
    return PyBool_FromLong(replaced);
}

static PyObject *
accel_dict_compact(PyObject *module, PyObject *namespace)
{
    return PyBool_FromLong(dict_entries_compact(namespace));
}

static PyObject *
accel_entries_in_place(PyObject *module, PyObject *unused)
{
    return PyBool_FromLong(dict_entries_usable());
}

/* binding.attach_waiting: (dotted, origin) as resolution.attach_submodules */
static PyObject *
accel_attach_submodules(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (S.lazy_import == NULL || nargs != 2 || !PyUnicode_Check(args[0]) ||
        !PyObject_TypeCheck(args[1], S.lazy_import)) {
        PyErr_SetString(PyExc_TypeError, "attach_submodules(dotted, origin): a str and a lazy object, after setup");
        return NULL;
    }
    if (attach_submodules_from(args[0], args[1]) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef accel_methods[] = {
    {"attach_submodules", (PyCFunction)(void (*)(void))accel_attach_submodules, METH_FASTCALL,
     "resolution.attach_submodules: bind each not-yet-imported level of a dotted name in its imported parent"},
    {"replace_key", (PyCFunction)(void (*)(void))accel_replace_key, METH_FASTCALL,
     "binding.replace_key where the entry stands: True if done, False if not possible (nothing changed)"},
    {"dict_compact", accel_dict_compact, METH_O,
     "has the dict no deleted entries (a copy in its order keeps each item's index)?"},
    {"entries_in_place", accel_entries_in_place, METH_NOARGS,
     "does this interpreter's dict layout agree with what replace_key changes?"},
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
    if (PyType_Ready(&KeyBase_Type) < 0 || PyType_Ready(&BindingLock_Type) < 0)
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
    INTERN(s_runtime_prefix, "lazy_codec.")
#undef INTERN
    if ((int_zero = PyLong_FromLong(0)) == NULL || (loop_verdicts = PyDict_New()) == NULL)
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
    Py_INCREF(&BindingLock_Type);
    if (PyModule_AddObject(module, "BindingLock", (PyObject *)&BindingLock_Type) < 0) {
        Py_DECREF(&BindingLock_Type);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
