/* Hot loops of the poker evaluator: 5-, 6- and 7-card hands ranked 1 (royal flush) … 7462.
 *
 * Card ids are cardscore's: rank.index * 4 + suit.index (0 = 2♠ … 51 = A♣).
 *
 * A hand is summed card by card into one 64-bit key: the low 32 bits add a per-rank key chosen
 * so that every multiset of up to 7 ranks (at most 4 of each) has its own sum; the high bits
 * count suits in four nibbles that start at 3, so bit 3 of a nibble is set exactly when that
 * suit holds 5 or more cards.  A flush (at most one in 7 cards, and then nothing better than a
 * straight flush is possible) is ranked from the suit's 13-bit rank mask; anything else from
 * the rank-sum through a displacement perfect hash.  The tables are computed when the extension
 * is built (_tablegen.py writes _c_eval_tables.h), so importing it computes nothing.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#define NRANKS 13
#define NCLASSES 7462
#define SUIT_INIT (0x3333ull << 32)
#define FLUSH_BITS (0x8888ull << 32)

/* RANK_KEY, FLUSH (best flush class of a 13-bit mask), ROW_BASE and NONFLUSH (the perfect
   hash), CLASS_CATEGORY and CLASS_RANKS: written by _tablegen.py when the extension is built. */
#include "_c_eval_tables.h"
#define NROWS (1u << ROW_SHIFT)
/* The tables are copied at import (230 KB, microseconds) into one 2 MiB-aligned block that asks
   for a huge page (Linux): every lookup then shares one TLB entry. Read in place from the
   extension's mapped image, random 7-card batches ran 20-50% slower than the former tables
   built on the heap, in separate processes. */
static uint16_t *NONFLUSH_HEAP = NULL, *FLUSH_HEAP = NULL;
static uint32_t *ROW_BASE_HEAP = NULL;

static uint64_t CARD_KEY[52];  /* rank key + one in the card's suit nibble */
static uint64_t CARD_MASK[52]; /* 1 << (16 * suit + rank) */

static PyObject *INT_CACHE[NCLASSES + 1];
static PyObject *RANK_OBJECTS = NULL; /* tuple of 7463 HandRank objects, index = rank */
static PyObject *ERROR_TYPE = NULL;   /* raised for bad ids in the integer paths */
static PyObject *SLOW_PATH = NULL;    /* evaluate()'s Python path for everything else */
#define PTR_SLOTS 256
static PyObject *PTR_KEY[PTR_SLOTS];
static int PTR_ID[PTR_SLOTS];

static inline uint32_t nonflush_slot(uint32_t key) {
    return ROW_BASE_HEAP[key & (NROWS - 1)] + (key >> ROW_SHIFT);
}

static inline int rank_of_sum(uint64_t key, uint64_t mask) {
    uint64_t flush = key & FLUSH_BITS;
    if (flush) {
        int suit = (__builtin_ctzll(flush) - 35) >> 2;
        return FLUSH_HEAP[(mask >> (16 * suit)) & 0x1fff];
    }
    return NONFLUSH_HEAP[nonflush_slot((uint32_t)key)];
}

static inline int rank_of_ids(const uint8_t *ids, int n) {
    uint64_t key = SUIT_INIT, mask = 0;
    for (int i = 0; i < n; i++) {
        key += CARD_KEY[ids[i]];
        mask |= CARD_MASK[ids[i]];
    }
    return rank_of_sum(key, mask);
}

/* class_info(rank) -> (category index 0..9, ranks tuple in the order that breaks ties) */
static PyObject *class_info(PyObject *self, PyObject *arg) {
    long r = PyLong_AsLong(arg);
    if (r < 1 || r > NCLASSES) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "class_info(): not in 1…7462");
        return NULL;
    }
    const uint8_t *ranks = &CLASS_RANKS[5 * r];
    return Py_BuildValue("(i(iiiii))", CLASS_CATEGORY[r], ranks[0], ranks[1], ranks[2], ranks[3],
                         ranks[4]);
}

/* ---- objects: Card -> id, rank -> HandRank ----------------------------------------------- */

static inline uint32_t ptr_hash(const void *p) {
    return (uint32_t)(((uintptr_t)p >> 4) * 2654435761u) >> 24;
}

static PyObject *set_objects(PyObject *self, PyObject *args) {
    PyObject *cards, *hand_ranks, *error_type, *slow_path;
    if (!PyArg_ParseTuple(args, "O!O!OO", &PyTuple_Type, &cards, &PyTuple_Type, &hand_ranks,
                          &error_type, &slow_path))
        return NULL;
    if (PyTuple_GET_SIZE(cards) != 52 || PyTuple_GET_SIZE(hand_ranks) != NCLASSES + 1) {
        PyErr_SetString(PyExc_ValueError, "set_objects(): wrong sizes");
        return NULL;
    }
    for (int h = 0; h < PTR_SLOTS; h++) Py_CLEAR(PTR_KEY[h]);
    for (int id = 0; id < 52; id++) {
        PyObject *card = PyTuple_GET_ITEM(cards, id);
        uint32_t h = ptr_hash(card);
        while (PTR_KEY[h]) h = (h + 1) & (PTR_SLOTS - 1);
        Py_INCREF(card);
        PTR_KEY[h] = card;
        PTR_ID[h] = id;
    }
    Py_INCREF(hand_ranks);
    Py_XSETREF(RANK_OBJECTS, hand_ranks);
    Py_INCREF(error_type);
    Py_XSETREF(ERROR_TYPE, error_type);
    Py_INCREF(slow_path);
    Py_XSETREF(SLOW_PATH, slow_path);
    Py_RETURN_NONE;
}

/* The id of one of the 52 interned Card objects, or -1 for anything else (Card() always
   returns one of them, so anything else takes the explaining slow path). */
static inline int card_id(PyObject *card) {
    uint32_t h = ptr_hash(card);
    while (PTR_KEY[h]) {
        if (PTR_KEY[h] == card) return PTR_ID[h];
        h = (h + 1) & (PTR_SLOTS - 1);
    }
    return -1;
}

static PyObject *not_ready(void) {
    PyErr_SetString(PyExc_RuntimeError, "cardscore.poker: set_objects() was not called");
    return NULL;
}

/* evaluate(cards) -> HandRank: 5-7 of the 52 Card objects in a list or tuple, ranked here;
   anything else (text, a card twice, the wrong count) goes to the Python path that explains. */
static PyObject *evaluate(PyObject *self, PyObject *arg) {
    if (!SLOW_PATH) return not_ready();
    PyObject **items;
    Py_ssize_t n;
    if (PyTuple_CheckExact(arg)) {
        items = &PyTuple_GET_ITEM(arg, 0);
        n = PyTuple_GET_SIZE(arg);
    } else if (PyList_CheckExact(arg)) {
        items = PySequence_Fast_ITEMS(arg);
        n = PyList_GET_SIZE(arg);
    } else {
        return PyObject_CallOneArg(SLOW_PATH, arg);
    }
    if (n < 5 || n > 7) return PyObject_CallOneArg(SLOW_PATH, arg);
    uint64_t key = SUIT_INIT, mask = 0, seen = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int id = card_id(items[i]);
        if (id < 0) return PyObject_CallOneArg(SLOW_PATH, arg);
        seen |= 1ull << id;
        key += CARD_KEY[id];
        mask |= CARD_MASK[id];
    }
    if (__builtin_popcountll(seen) != n) return PyObject_CallOneArg(SLOW_PATH, arg);
    PyObject *hand_rank = PyTuple_GET_ITEM(RANK_OBJECTS, rank_of_sum(key, mask));
    Py_INCREF(hand_rank);
    return hand_rank;
}

static int bad_ids(void) {
    PyErr_SetString(ERROR_TYPE ? ERROR_TYPE : PyExc_ValueError,
                    "card ids must be distinct integers in 0…51");
    return -1;
}

static inline int ranks_from_args(PyObject *const *args, Py_ssize_t n) {
    uint64_t key = SUIT_INIT, mask = 0, seen = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        long id = PyLong_AsLong(args[i]);
        if ((unsigned long)id > 51) {
            if (id == -1 && PyErr_Occurred()) return -1;
            return bad_ids();
        }
        seen |= 1ull << id;
        key += CARD_KEY[id];
        mask |= CARD_MASK[id];
    }
    if (__builtin_popcountll(seen) != n) return bad_ids();
    return rank_of_sum(key, mask);
}

/* rank(*ids) -> int: 5, 6 or 7 card ids as separate arguments (the per-call fast path). */
static PyObject *rank(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs < 5 || nargs > 7) {
        PyErr_SetString(PyExc_TypeError, "rank() takes 5, 6 or 7 card ids");
        return NULL;
    }
    int r = ranks_from_args(args, nargs);
    if (r < 0) return NULL;
    Py_INCREF(INT_CACHE[r]);
    return INT_CACHE[r];
}

/* rank_ids(ids) -> int: the same from one list or tuple of ids. */
static PyObject *rank_ids(PyObject *self, PyObject *arg) {
    PyObject *fast = PySequence_Fast(arg, "rank_ids() takes a sequence of card ids");
    if (!fast) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    int r;
    if (n < 5 || n > 7) {
        PyErr_SetString(PyExc_TypeError, "rank_ids() takes 5, 6 or 7 card ids");
        r = -1;
    } else {
        r = ranks_from_args(PySequence_Fast_ITEMS(fast), n);
    }
    Py_DECREF(fast);
    if (r < 0) return NULL;
    Py_INCREF(INT_CACHE[r]);
    return INT_CACHE[r];
}

/* rank_batch(ids: uint8 buffer n*k, k, out: uint16 buffer n) -> -1, or the first bad row. */
static PyObject *rank_batch(PyObject *self, PyObject *args) {
    Py_buffer in, out;
    int k;
    if (!PyArg_ParseTuple(args, "y*iw*", &in, &k, &out)) return NULL;
    Py_ssize_t n = k > 0 ? in.len / k : 0, bad = -1;
    if (k < 5 || k > 7 || in.len != n * k || out.len != n * 2) {
        PyBuffer_Release(&in);
        PyBuffer_Release(&out);
        PyErr_SetString(PyExc_ValueError, "rank_batch(): wrong shapes");
        return NULL;
    }
    const uint8_t *ids = in.buf;
    uint16_t *ranks = out.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++, ids += k) {
        uint64_t key = SUIT_INIT, mask = 0, seen = 0;
        int over = 0;
        for (int j = 0; j < k; j++) {
            uint8_t c = ids[j];
            over |= c > 51;
            c = c < 52 ? c : 0;
            seen |= 1ull << c;
            key += CARD_KEY[c];
            mask |= CARD_MASK[c];
        }
        if (__builtin_expect(over || __builtin_popcountll(seen) != k, 0)) {
            bad = i;
            break;
        }
        ranks[i] = (uint16_t)rank_of_sum(key, mask);
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&in);
    PyBuffer_Release(&out);
    return PyLong_FromSsize_t(bad);
}

/* ---- combinations, showdowns, draws ------------------------------------------------------ */

static int ids_ok(const Py_buffer *view) {
    const uint8_t *c = view->buf;
    for (Py_ssize_t i = 0; i < view->len; i++)
        if (c[i] > 51) return 0;
    return 1;
}

/* combinations(n, k) -> bytes: every k-subset of range(n) in colexicographic order. */
static PyObject *combinations(PyObject *self, PyObject *args) {
    int n, k;
    if (!PyArg_ParseTuple(args, "ii", &n, &k)) return NULL;
    if (n < 0 || n > 64 || k < 0 || k > 8 || k > n) {
        PyErr_SetString(PyExc_ValueError, "combinations(): need 0 <= k <= 8, k <= n <= 64");
        return NULL;
    }
    double total = 1;
    for (int i = 0; i < k; i++) total = total * (n - i) / (i + 1);
    if (total * k > 2e9) {
        PyErr_SetString(PyExc_ValueError, "combinations(): too many");
        return NULL;
    }
    Py_ssize_t count = (Py_ssize_t)(total + 0.5);
    PyObject *bytes = PyBytes_FromStringAndSize(NULL, count * k);
    if (!bytes || k == 0) return bytes;
    uint8_t *out = (uint8_t *)PyBytes_AS_STRING(bytes);
    uint8_t c[9];
    for (int i = 0; i < k; i++) c[i] = (uint8_t)i;
    c[k] = (uint8_t)n;
    for (Py_ssize_t row = 0; row < count; row++) {
        memcpy(out + row * k, c, k);
        int j = 0;
        while (j < k && c[j] + 1 == c[j + 1]) {
            c[j] = (uint8_t)j;
            j++;
        }
        if (j < k) c[j]++;
    }
    return bytes;
}

/* Share of the pot for each of p players, each holding h cards, over boards completed with
   every k-subset of deck (exact) — added to shares[], returns the number of boards. */
static PyObject *showdown_enumerate(PyObject *self, PyObject *args) {
    Py_buffer hands, board, deck;
    int p, h, k;
    if (!PyArg_ParseTuple(args, "y*iiy*y*i", &hands, &p, &h, &board, &deck, &k)) return NULL;
    int b = (int)board.len, d = (int)deck.len;
    PyObject *result = NULL;
    if (p < 1 || p > 10 || hands.len != p * h || h + b + k > 7 || h + b + k < 5 || k < 0 ||
        k > d || !ids_ok(&hands) || !ids_ok(&board) || !ids_ok(&deck)) {
        PyErr_SetString(PyExc_ValueError, "showdown_enumerate(): wrong sizes");
        goto done;
    }
    double shares[10] = {0};
    uint64_t base_key[10], base_mask[10];
    const uint8_t *hc = hands.buf, *bc = board.buf, *dc = deck.buf;
    for (int i = 0; i < p; i++) {
        base_key[i] = SUIT_INIT;
        base_mask[i] = 0;
        for (int j = 0; j < h; j++) {
            base_key[i] += CARD_KEY[hc[i * h + j]];
            base_mask[i] |= CARD_MASK[hc[i * h + j]];
        }
        for (int j = 0; j < b; j++) {
            base_key[i] += CARD_KEY[bc[j]];
            base_mask[i] |= CARD_MASK[bc[j]];
        }
    }
    long long boards = 0;
    int c[9];
    for (int i = 0; i < k; i++) c[i] = i;
    c[k] = d;
    Py_BEGIN_ALLOW_THREADS
    for (;;) {
        uint64_t key = 0, mask = 0;
        for (int i = 0; i < k; i++) {
            key += CARD_KEY[dc[c[i]]];
            mask |= CARD_MASK[dc[c[i]]];
        }
        int best = 1 << 30, winners = 0, r[10];
        for (int i = 0; i < p; i++) {
            r[i] = rank_of_sum(base_key[i] + key, base_mask[i] | mask);
            if (r[i] < best) {
                best = r[i];
                winners = 1;
            } else if (r[i] == best) {
                winners++;
            }
        }
        for (int i = 0; i < p; i++)
            if (r[i] == best) shares[i] += 1.0 / winners;
        boards++;
        int j = 0;
        while (j < k && c[j] + 1 == c[j + 1]) {
            c[j] = j;
            j++;
        }
        if (j >= k) break;
        c[j]++;
    }
    Py_END_ALLOW_THREADS
    result = PyTuple_New(p + 1);
    for (int i = 0; i < p; i++) PyTuple_SET_ITEM(result, i, PyFloat_FromDouble(shares[i]));
    PyTuple_SET_ITEM(result, p, PyLong_FromLongLong(boards));
done:
    PyBuffer_Release(&hands);
    PyBuffer_Release(&board);
    PyBuffer_Release(&deck);
    return result;
}

/* showdown_batch(cards: uint8 n*p*m, p, m) -> tuple of p pot shares summed over n deals. */
static PyObject *showdown_batch(PyObject *self, PyObject *args) {
    Py_buffer cards;
    int p, m;
    if (!PyArg_ParseTuple(args, "y*ii", &cards, &p, &m)) return NULL;
    if (p < 1 || p > 10 || m < 5 || m > 7 || cards.len % (p * m) || !ids_ok(&cards)) {
        PyBuffer_Release(&cards);
        PyErr_SetString(PyExc_ValueError, "showdown_batch(): wrong shapes");
        return NULL;
    }
    Py_ssize_t n = cards.len / (p * m);
    const uint8_t *c = cards.buf;
    double shares[10] = {0};
    for (Py_ssize_t t = 0; t < n; t++) {
        int best = 1 << 30, winners = 0, r[10];
        for (int i = 0; i < p; i++, c += m) {
            r[i] = rank_of_ids(c, m);
            if (r[i] < best) {
                best = r[i];
                winners = 1;
            } else if (r[i] == best) {
                winners++;
            }
        }
        for (int i = 0; i < p; i++)
            if (r[i] == best) shares[i] += 1.0 / winners;
    }
    PyBuffer_Release(&cards);
    PyObject *result = PyTuple_New(p);
    for (int i = 0; i < p; i++) PyTuple_SET_ITEM(result, i, PyFloat_FromDouble(shares[i]));
    return result;
}

/* draw_histogram(kept, deck, k) -> bytes of uint32[7463]: how many of the k-card draws from
   deck complete kept into a hand of each rank. */
static PyObject *draw_histogram(PyObject *self, PyObject *args) {
    Py_buffer kept, deck;
    int k;
    if (!PyArg_ParseTuple(args, "y*y*i", &kept, &deck, &k)) return NULL;
    int h = (int)kept.len, d = (int)deck.len;
    PyObject *result = NULL;
    if (h + k < 5 || h + k > 7 || k < 0 || k > d || !ids_ok(&kept) || !ids_ok(&deck)) {
        PyErr_SetString(PyExc_ValueError, "draw_histogram(): wrong sizes");
        goto done;
    }
    result = PyBytes_FromStringAndSize(NULL, (NCLASSES + 1) * 4);
    if (!result) goto done;
    uint32_t *hist = (uint32_t *)PyBytes_AS_STRING(result);
    memset(hist, 0, (NCLASSES + 1) * 4);
    uint64_t base_key = SUIT_INIT, base_mask = 0;
    const uint8_t *kc = kept.buf, *dc = deck.buf;
    for (int j = 0; j < h; j++) {
        base_key += CARD_KEY[kc[j]];
        base_mask |= CARD_MASK[kc[j]];
    }
    int c[9];
    for (int i = 0; i < k; i++) c[i] = i;
    c[k] = d;
    Py_BEGIN_ALLOW_THREADS
    for (;;) {
        uint64_t key = base_key, mask = base_mask;
        for (int i = 0; i < k; i++) {
            key += CARD_KEY[dc[c[i]]];
            mask |= CARD_MASK[dc[c[i]]];
        }
        hist[rank_of_sum(key, mask)]++;
        int j = 0;
        while (j < k && c[j] + 1 == c[j + 1]) {
            c[j] = j;
            j++;
        }
        if (j >= k) break;
        c[j]++;
    }
    Py_END_ALLOW_THREADS
done:
    PyBuffer_Release(&kept);
    PyBuffer_Release(&deck);
    return result;
}

static PyMethodDef METHODS[] = {
    {"class_info", class_info, METH_O, "(category index, ranks) of a class 1…7462."},
    {"set_objects", set_objects, METH_VARARGS, "Register Card and HandRank objects."},
    {"evaluate", evaluate, METH_O,
     "evaluate(cards, /)\n--\n\n"
     "The class of the best five-card hand in 5, 6 or 7 cards, as a HandRank.\n\n"
     "cards is a list or tuple of Card (ranked here, in C), or anything parse_cards reads\n"
     "(text, a mix of text and cards), which is read and checked in Python: a card twice\n"
     "or the wrong number of cards raises ImpossibleTableError naming the problem."},
    {"rank", (PyCFunction)(void (*)(void))rank, METH_FASTCALL, "Rank of 5-7 card ids."},
    {"rank_ids", rank_ids, METH_O, "Rank of a sequence of 5-7 card ids."},
    {"rank_batch", rank_batch, METH_VARARGS, "Rank rows of card ids into a uint16 buffer."},
    {"combinations", combinations, METH_VARARGS, "All k-subsets of range(n), colex order."},
    {"showdown_enumerate", showdown_enumerate, METH_VARARGS, "Exact pot shares."},
    {"showdown_batch", showdown_batch, METH_VARARGS, "Pot shares over given deals."},
    {"draw_histogram", draw_histogram, METH_VARARGS, "Ranks reached by every draw."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "_c_eval", NULL, -1, METHODS};

#define TABLE_BLOCK (2u << 20)
static int copy_tables(void) {
    size_t need = sizeof NONFLUSH + sizeof FLUSH + sizeof ROW_BASE;
    size_t size = need <= TABLE_BLOCK ? TABLE_BLOCK : need;
    void *block = NULL;
    if (posix_memalign(&block, TABLE_BLOCK, size)) return 0;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    madvise(block, size, MADV_HUGEPAGE); /* a hint: without it, 4 KiB pages */
#endif
    ROW_BASE_HEAP = (uint32_t *)block;
    NONFLUSH_HEAP = (uint16_t *)((char *)block + sizeof ROW_BASE);
    FLUSH_HEAP = NONFLUSH_HEAP + sizeof NONFLUSH / sizeof NONFLUSH[0];
    return 1;
}

PyMODINIT_FUNC PyInit__c_eval(void) {
    if (!copy_tables()) return PyErr_NoMemory();
    memcpy(NONFLUSH_HEAP, NONFLUSH, sizeof NONFLUSH);
    memcpy(FLUSH_HEAP, FLUSH, sizeof FLUSH);
    memcpy(ROW_BASE_HEAP, ROW_BASE, sizeof ROW_BASE);
    for (int id = 0; id < 52; id++) {
        int r = id >> 2, s = id & 3;
        CARD_KEY[id] = RANK_KEY[r] + (1ull << (32 + 4 * s));
        CARD_MASK[id] = 1ull << (16 * s + r);
    }
    for (int r = 0; r <= NCLASSES; r++) {
        if (!INT_CACHE[r]) INT_CACHE[r] = PyLong_FromLong(r);
        if (!INT_CACHE[r]) return NULL;
    }
    return PyModule_Create(&MODULE);
}
