/* A module dict's entry, changed where it stands.
 *
 * A first use makes its lazy key plain.  The dict API can only delete the
 * key and insert a plain one, which moves the name to the end of the dict
 * and, under an iteration of that dict in any frame, raises "dictionary
 * keys changed during iteration".  3.15 replaces only the value: the entry
 * keeps its place and the dict its size.  Here the key pointer is changed in
 * the entry itself, to an equal exact str of the same hash: the table's
 * shape, its order and its size stay as they are, and a lookup in progress
 * (one that called the lazy key's __eq__) sees its key changed and restarts,
 * as the interpreter's lookup does for any mutation (3.9-3.14).
 *
 * The layout read here is the interpreter's private one (Objects/
 * dict-common.h for 3.9-3.10, Include/internal/pycore_dict.h for 3.11+),
 * mirrored below: dict_entries_check() verifies it against real dicts at
 * init, and nothing is changed unless it agrees.  Each change is checked
 * again where it is made: the slot must hold `old`, with its hash.
 */
#include "dict_entries.h"

#include <stdint.h>

/* the keys object's header (a table of indices and then the entries
 * follow it) */
#if PY_VERSION_HEX < 0x030B0000
typedef struct {
    Py_ssize_t dk_refcnt;
    Py_ssize_t dk_size;
    void *dk_lookup;
    Py_ssize_t dk_usable;
    Py_ssize_t dk_nentries;
    char dk_indices[];
} KeysHeader;
/* 3.9-3.10 look a table up with a function of the keys object: one for
 * tables of exact str keys only compares them as str, never calling a key's
 * __eq__ (a lazy key's hook); inserting another key switches the table to
 * the generic one for good.  A change in place that puts a lazy key in
 * does the same, with the generic function the check saw (it is static in
 * dictobject.c), or does not happen */
static void *generic_lookup;
#define TABLE_SIZE(dk) ((size_t)(dk)->dk_size)
#define INDEX_BYTES(dk)                                                                                     \
    ((dk)->dk_size <= 0xff ? 1 : (dk)->dk_size <= 0xffff ? 2 : (uint64_t)(dk)->dk_size <= 0xffffffffu ? 4 : 8)
#define GENERAL(dk) 1
#else
typedef struct {
    Py_ssize_t dk_refcnt;
    uint8_t dk_log2_size;
    uint8_t dk_log2_index_bytes;
    uint8_t dk_kind; /* 0: any keys (each entry with its hash); 1, 2: str only, split */
    uint32_t dk_version;
    Py_ssize_t dk_usable;
    Py_ssize_t dk_nentries;
    char dk_indices[];
} KeysHeader;
#define TABLE_SIZE(dk) ((size_t)1 << (dk)->dk_log2_size)
#define INDEX_BYTES(dk) ((size_t)1 << ((dk)->dk_log2_index_bytes - (dk)->dk_log2_size))
#define GENERAL(dk) ((dk)->dk_kind == 0)
#endif

/* an entry of a table of any keys */
typedef struct {
    Py_hash_t hash;
    PyObject *key;
    PyObject *value;
} Entry;

#define PERTURB_SHIFT 5 /* the interpreter's probe sequence, 3.9-3.14 */

/* dict_entries_check's verdict: -1 not made yet (it is made at the first
 * call that needs it, so that a program that never settles a key does not
 * pay for it), 0 or 1 */
static int usable = -1;

static int
verdict(void)
{
    if (usable < 0 && dict_entries_check() < 0) {
        PyErr_Clear(); /* (not usable then: the caller goes the API's way) */
        usable = 0;
    }
    return usable;
}

static Py_ssize_t
index_at(KeysHeader *dk, size_t i)
{
    switch (INDEX_BYTES(dk)) {
    case 1:
        return ((int8_t *)dk->dk_indices)[i];
    case 2:
        return ((int16_t *)dk->dk_indices)[i];
    case 4:
        return ((int32_t *)dk->dk_indices)[i];
    default:
        return (Py_ssize_t)((int64_t *)dk->dk_indices)[i];
    }
}

/* the combined, any-keys table of an exact dict, or NULL */
static KeysHeader *
general_table(PyObject *dict)
{
    if (!PyDict_CheckExact(dict))
        return NULL;
    PyDictObject *mp = (PyDictObject *)dict;
    KeysHeader *dk = (KeysHeader *)mp->ma_keys;
    if (mp->ma_values != NULL || dk == NULL || !GENERAL(dk))
        return NULL;
    return dk;
}

static Entry *
entries_of(KeysHeader *dk)
{
    return (Entry *)(dk->dk_indices + TABLE_SIZE(dk) * INDEX_BYTES(dk));
}

/* the entry whose key is `key` itself, or an exact str equal to `key` (an
 * exact str too), hashed `hash`, or NULL: the interpreter's probe, with no
 * compare that could run Python code */
static Entry *
entry_of(KeysHeader *dk, PyObject *key, Py_hash_t hash)
{
    Entry *entries = entries_of(dk);
    size_t mask = TABLE_SIZE(dk) - 1;
    size_t perturb = (size_t)hash;
    size_t i = (size_t)hash & mask;
    for (size_t probes = 0; probes <= mask; probes++) {
        Py_ssize_t ix = index_at(dk, i);
        if (ix == -1) /* empty: not there */
            return NULL;
        if (ix >= 0) {
            if (ix >= dk->dk_nentries)
                return NULL; /* (not this layout) */
            PyObject *found = entries[ix].key;
            if (entries[ix].hash == hash &&
                (found == key || (PyUnicode_CheckExact(key) && PyUnicode_CheckExact(found) &&
                                  PyUnicode_Compare(found, key) == 0)))
                return &entries[ix];
        }
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + perturb + 1) & mask;
    }
    return NULL;
}

int
dict_entries_usable(void)
{
    return verdict();
}

/* the entry of `old` in `dict`'s table of any keys, or NULL */
static Entry *
swappable(PyObject *dict, PyObject *old, PyObject *new_key)
{
    if (!PyUnicode_Check(old) || !PyUnicode_Check(new_key) || verdict() != 1)
        return NULL;
    KeysHeader *dk = general_table(dict);
    if (dk == NULL)
        return NULL;
#if PY_VERSION_HEX < 0x030B0000
    if (!PyUnicode_CheckExact(new_key) && generic_lookup == NULL)
        return NULL;
#endif
    /* (str's own hash, cached in the object: no Python code) */
    Py_hash_t hash = PyUnicode_Type.tp_hash(old);
    if (hash == -1 || PyUnicode_Type.tp_hash(new_key) != hash || PyUnicode_Compare(old, new_key) != 0) {
        PyErr_Clear();
        return NULL;
    }
    return entry_of(dk, old, hash);
}

int
dict_entries_swap_key(PyObject *dict, PyObject *old, PyObject *new_key)
{
    Entry *entry = swappable(dict, old, new_key);
    if (entry == NULL)
        return 0;
    PyObject *was = entry->key;
#if PY_VERSION_HEX < 0x030B0000
    if (!PyUnicode_CheckExact(new_key)) /* (as insertdict does for such a key) */
        ((KeysHeader *)((PyDictObject *)dict)->ma_keys)->dk_lookup = generic_lookup;
#endif
    Py_INCREF(new_key);
    entry->key = new_key;
    Py_DECREF(was); /* (a lookup in progress holds its own reference) */
    return 1;
}

int
dict_entries_replace(PyObject *dict, PyObject *old, PyObject *new_key, PyObject *value)
{
    Entry *entry = swappable(dict, old, new_key);
    if (entry == NULL)
        return 0;
    /* the value through the API (the dict's version, its watchers), under
     * the key it has: replaced in place, the table unchanged */
    if (PyDict_SetItem(dict, entry->key, value) < 0)
        return -1;
    return dict_entries_swap_key(dict, old, new_key) ? 1 : -1;
}

int
dict_entries_compact(PyObject *dict)
{
    if (!PyDict_CheckExact(dict) || verdict() != 1)
        return 0;
    PyDictObject *mp = (PyDictObject *)dict;
    KeysHeader *dk = (KeysHeader *)mp->ma_keys;
    return mp->ma_values == NULL && dk != NULL && dk->dk_nentries == mp->ma_used;
}

/* -- the check ------------------------------------------------------------ */

/* a dict of `count` keys of a str subclass (so that its table is of any
 * keys, as a module dict with a lazy key is), every third then deleted;
 * each key left must be found where PyDict_Next finds it, with its value,
 * and a swap must leave the dict's order, size and lookups as they were */
static int
agrees(PyObject *subclass, Py_ssize_t count)
{
    int verdict = 0;
    PyObject *dict = PyDict_New(), *keys = PyList_New(0);
    if (dict == NULL || keys == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *text = PyUnicode_FromFormat("name_%zd", i);
        PyObject *key = text ? PyObject_CallOneArg(subclass, text) : NULL;
        PyObject *value = PyLong_FromSsize_t(i);
        int failed = key == NULL || value == NULL || PyDict_SetItem(dict, key, value) < 0 ||
                     PyList_Append(keys, key) < 0;
        Py_XDECREF(text);
        Py_XDECREF(key);
        Py_XDECREF(value);
        if (failed)
            goto done;
    }
    for (Py_ssize_t i = 0; i < count; i += 3)
        if (PyDict_DelItem(dict, PyList_GET_ITEM(keys, i)) < 0)
            goto done;
    KeysHeader *dk = general_table(dict);
    if (dk == NULL || (size_t)dk->dk_nentries > TABLE_SIZE(dk) || dk->dk_nentries < count)
        goto done;
#if PY_VERSION_HEX < 0x030B0000
    generic_lookup = dk->dk_lookup; /* (a table of str subclass keys) */
#endif
    Entry *entries = entries_of(dk);
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(dict, &pos, &key, &value)) {
        Py_hash_t hash = PyUnicode_Type.tp_hash(key);
        Entry *entry = entry_of(dk, key, hash);
        /* (PyDict_Next leaves pos one past the entry's index) */
        if (entry == NULL || entry != &entries[pos - 1] || entry->value != value)
            goto done;
    }
    /* a swap in the middle: same size, same order, found by the plain key */
    Py_ssize_t middle = count / 2 + (count / 2 % 3 == 0); /* (not one deleted) */
    PyObject *old = PyList_GET_ITEM(keys, middle);
    Py_INCREF(old);
    PyObject *plain = PyUnicode_FromObject(old);
    Py_ssize_t size = PyDict_GET_SIZE(dict);
    if (plain == NULL) {
        Py_DECREF(old);
        goto done;
    }
    usable = 1;
    int swapped = dict_entries_swap_key(dict, old, plain);
    usable = -1;
    PyObject *found = PyDict_GetItemWithError(dict, plain);
    PyObject *listed = PyDict_Keys(dict);
    Py_ssize_t at = listed ? PySequence_Index(listed, plain) : -1;
    int plain_listed = at >= 0 && PyList_GET_ITEM(listed, at) == plain;
    verdict = swapped == 1 && found != NULL && PyDict_GET_SIZE(dict) == size && plain_listed &&
              middle - (middle + 2) / 3 == at; /* (keys deleted before it: every third from 0) */
    Py_XDECREF(listed);
    Py_DECREF(plain);
    Py_DECREF(old);
done:
    Py_XDECREF(dict);
    Py_XDECREF(keys);
    if (PyErr_Occurred())
        return -1;
    return verdict;
}

int
dict_entries_check(void)
{
    /* class probe(str): a str subclass whose hash and compare are str's */
    PyObject *subclass = PyObject_CallFunction((PyObject *)&PyType_Type, "s(O){}", "probe", &PyUnicode_Type);
    if (subclass == NULL)
        return -1;
    /* (a small table: 1-byte indices; the width of larger ones follows the
     * table's size, as the interpreter's does) */
    int agreed = agrees(subclass, 8);
    Py_DECREF(subclass);
    if (agreed < 0)
        return -1;
    usable = agreed;
    return agreed;
}
