/* A module dict's entry, changed where it stands: see dict_entries.c. */
#ifndef LAZY_CODEC_DICT_ENTRIES_H
#define LAZY_CODEC_DICT_ENTRIES_H

#include <Python.h>

/* (the extension exports PyInit__accel only: see accel.h) */
#if defined(__GNUC__) && !defined(_WIN32) && !defined(__CYGWIN__)
#pragma GCC visibility push(hidden)
#define DICT_ENTRIES_VISIBILITY_PUSHED
#endif

/* check this interpreter's dict layout against what dict_entries.c reads
 * (made once, by the first call below that needs it): 1 if it agrees, 0 if
 * not (then every call below answers 0), -1 on error */
int dict_entries_check(void);

/* is dict_entries_check's verdict 1 (made now if not yet)? */
int dict_entries_usable(void);

/* the entry of `dict` whose key is `old` (itself, or an equal exact str)
 * given the key `new_key`, a str equal to `old` (a lazy key or a plain one),
 * in the same place: 1 done; 0 not possible here (layout not checked, a
 * split or str-only table, `old` not there); runs no Python code, never an
 * error */
int dict_entries_swap_key(PyObject *dict, PyObject *old, PyObject *new_key);

/* the same, and `value` stored in the entry first (through PyDict_SetItem,
 * which hashes the entry's key: the caller makes a lazy key answer as a
 * str meanwhile): 1 done, 0 not possible (nothing changed), -1 error */
int dict_entries_replace(PyObject *dict, PyObject *old, PyObject *new_key, PyObject *value);

/* does `dict` have no deleted entries, so that a copy made in its order
 * has each item at the index it has here?  1 yes, 0 no or not known */
int dict_entries_compact(PyObject *dict);

#ifdef DICT_ENTRIES_VISIBILITY_PUSHED
#pragma GCC visibility pop
#endif

#endif
