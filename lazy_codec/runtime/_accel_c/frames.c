/* what a frame tells: a statement's frame, a code's loops, a filename */
#include "accel.h"

#define LOOP_VERDICTS_KEPT 64 /* (loop_verdicts' size at most) */

/* the frame's globals, code bytes (deoptimized) and current offset; new
 * references in *globals and *code */
int
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

/* the running frame's instruction, deoptimized (its opcode), and its code in
 * *code (borrowed from the frame, for an identity test); -1 when there is no
 * frame or no instruction yet, -2 on error */
int
running_op(PyCodeObject **code)
{
    *code = NULL;
    PyFrameObject *frame = PyEval_GetFrame();
    if (frame == NULL)
        return -1;
    PyObject *globals, *codebytes;
    PyCodeObject *running;
    Py_ssize_t lasti = -1;
    if (frame_state(frame, &globals, &codebytes, &running, &lasti) < 0)
        return -2;
    int op = lasti >= 0 && lasti < PyBytes_GET_SIZE(codebytes) ? (unsigned char)PyBytes_AS_STRING(codebytes)[lasti]
                                                               : -1;
    *code = running;
    Py_DECREF(globals);
    Py_DECREF(codebytes);
    Py_DECREF(running); /* (the frame holds it) */
    return op;
}


/* the offset of the instruction before `at` in `raw` (past inline caches), or -1 */
static Py_ssize_t
instruction_before(const unsigned char *raw, Py_ssize_t at)
{
    at -= 2;
#if PY_VERSION_HEX >= 0x030B0000
    while (at >= 0 && raw[at] == 0) /* (CACHE) */
        at -= 2;
#endif
    return at;
}

/* The `in` running (CONTAINS_OP), whose lookup met a lazy key: 1 when the
 * instruction that pushed what it tests shows it is no iterator calling a
 * function per item (access.tests_calling_iterator: C answers the peek),
 * which C tells only for a call of a builtin function named by a global,
 * given simple arguments (`'x' in globals()`, `k in vars(m)`, `k in dir(m)`);
 * 0 when Python reads it (a variable, any other call: `x in map(getattr,
 * ...)`); -1 on error. */
int
in_tests_no_calling_iterator(void)
{
    PyFrameObject *frame = PyEval_GetFrame();
    if (frame == NULL)
        return 1;
    PyObject *globals, *codebytes;
    PyCodeObject *code;
    Py_ssize_t lasti = -1;
    if (frame_state(frame, &globals, &codebytes, &code, &lasti) < 0)
        return -1;
    const unsigned char *raw = (const unsigned char *)PyBytes_AS_STRING(codebytes);
    int answer = 0;
    Py_ssize_t at = lasti >= 0 ? instruction_before(raw, lasti) : -1;
    if (at < 0 || !S.container_producers[raw[at]]) {
        answer = 1;
        goto done;
    }
    /* (the runtime's own `in`, in a module named lazy_codec.*: a peek, as
     * lookup._in_runtime answers it) */
    busy++;
    PyObject *module_name = PyDict_Check(globals) ? PyDict_GetItemWithError(globals, s_name) : NULL;
    busy--;
    if (module_name == NULL && PyErr_Occurred()) {
        answer = -1;
        goto done;
    }
    if (module_name != NULL && PyUnicode_Check(module_name) &&
        PyUnicode_Tailmatch(module_name, s_runtime_prefix, 0, PY_SSIZE_T_MAX, -1) == 1) {
        answer = 1;
        goto done;
    }
    if (!S.plain_calls[raw[at]])
        goto done; /* (a variable: Python reads its value) */
    int pushes = raw[at + 1];
    at = instruction_before(raw, at);
    while (at >= 0 && (pushes > 0 || S.call_skips[raw[at]])) {
        int op = raw[at];
        if (op == S.extended_arg || !(S.call_skips[op] || S.single_pushes[op]))
            goto done;
#if PY_VERSION_HEX >= 0x030B0000
        if (op == S.load_global && (raw[at + 1] & 1))
            goto done; /* (pushes NULL too: not one argument) */
#endif
        if (S.single_pushes[op])
            pushes--;
        at = instruction_before(raw, at);
    }
    if (at < 0 || !S.simple_loads[raw[at]] || (at >= 2 && raw[at - 2] == S.extended_arg))
        goto done;
    int index = raw[at + 1];
#if PY_VERSION_HEX >= 0x030B0000
    if (raw[at] == S.load_global)
        index >>= 1;
#endif
    PyObject *names = code->co_names;
    if (index >= PyTuple_GET_SIZE(names))
        goto done;
    PyObject *name = PyTuple_GET_ITEM(names, index);
    PyObject *locals = NULL; /* (LOAD_NAME's first namespace, a dict) */
    if (raw[at] != S.load_global) {
#if PY_VERSION_HEX >= 0x030B0000
        locals = PyFrame_GetLocals(frame);
        if (locals == NULL) {
            answer = -1;
            goto done;
        }
        Py_DECREF(locals); /* (the frame holds them: a non-optimized frame's own mapping) */
#else
        locals = frame->f_locals;
#endif
        if (locals == globals)
            locals = NULL;
        else if (locals == NULL || !PyDict_Check(locals))
            goto done;
    }
    busy++; /* (a lazy key met here compares as a plain str) */
    PyObject *callee = locals != NULL ? PyDict_GetItemWithError(locals, name) : NULL;
    if (callee == NULL && !PyErr_Occurred())
        callee = PyDict_GetItemWithError(globals, name);
    if (callee == NULL && !PyErr_Occurred()) {
        PyObject *builtins = PyEval_GetBuiltins(); /* (the running frame's, borrowed) */
        callee = builtins != NULL && PyDict_Check(builtins) ? PyDict_GetItemWithError(builtins, name) : NULL;
    }
    busy--;
    if (callee == NULL && PyErr_Occurred())
        answer = -1;
    else
        answer = callee != NULL && PyCFunction_Check(callee);
done:
    Py_DECREF(globals);
    Py_DECREF(codebytes);
    Py_DECREF(code);
    return answer;
}

/* may a for loop in `code` iterate its module's dict? (rebuilder.in_dict_loop's
 * question asked of the whole code: it names a way to iterate a dict, or it
 * is a 3.9-3.11 comprehension); -1 on error.  Cached by code (bounded). */
int
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

/* the statement's frame, when it is a module's (locals are globals, a dict)
 * and nothing unusual is set: its globals (borrowed, through the frame) */
PyObject *
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

PyObject *
frame_filename(PyFrameObject *frame)
{
    PyCodeObject *code = PyFrame_GetCode(frame);
    PyObject *filename = code->co_filename;
    Py_INCREF(filename);
    Py_DECREF(code);
    return filename;
}
