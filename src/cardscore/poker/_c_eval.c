/* Hot loops of the poker evaluator: 5-, 6- and 7-card hands ranked 1 (royal flush) … 7462.
 *
 * Card ids are cardscore's: rank.index * 4 + suit.index (0 = 2♠ … 51 = A♣).
 *
 * A hand is summed card by card into one 64-bit key: the low 32 bits add a per-rank key chosen
 * so that every multiset of up to 7 ranks (at most 4 of each) has its own sum; the high bits
 * count suits in four nibbles that start at 3, so bit 3 of a nibble is set exactly when that
 * suit holds 5 or more cards.  A flush (at most one in 7 cards, and then nothing better than a
 * straight flush is possible) is ranked from the suit's 13-bit rank mask; anything else from
 * the rank-sum through a displacement perfect hash.  The tables are derived at import from the
 * 7,462 classes that tables.py builds (see build()), so nothing is loaded from files.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NRANKS 13
#define NCLASSES 7462
#define ROW_SHIFT 14
#define SEARCH_BACK 8192
#define SUIT_INIT (0x3333ull << 32)
#define FLUSH_BITS (0x8888ull << 32)

/* Greedy: each key is the smallest above the previous that keeps all multiset sums distinct. */
static const uint32_t RANK_KEY[NRANKS] = {1,      5,      24,     112,     521,     2247,   9244,
                                          30823,  103066, 250154, 667453,  1526359, 3453520};
#define MAX_KEY (4u * 3453520u + 3u * 1526359u)
#define NROWS (1u << ROW_SHIFT)

static uint64_t CARD_KEY[52];  /* rank key + one in the card's suit nibble */
static uint64_t CARD_MASK[52]; /* 1 << (16 * suit + rank) */
static uint16_t FLUSH[8192];   /* best flush rank of a 13-bit mask with >= 5 bits */
static uint32_t ROW_BASE[NROWS]; /* slot = ROW_BASE[key % NROWS] + key / NROWS */
static uint16_t *NONFLUSH = NULL;
static size_t NONFLUSH_SIZE = 0;
static int READY = 0;

static PyObject *INT_CACHE[NCLASSES + 1];
static PyObject *RANK_OBJECTS = NULL; /* tuple of 7463 HandRank objects, index = rank */
static PyObject *CARD_TYPE = NULL;
static PyObject *RANK_ENUM[NRANKS];
static PyObject *SUIT_ENUM[4];
static PyObject *ERROR_TYPE = NULL; /* raised for bad ids in the integer paths */
#define PTR_SLOTS 256
static PyObject *PTR_KEY[PTR_SLOTS];
static int PTR_ID[PTR_SLOTS];
static PyObject *STR_RANK = NULL, *STR_SUIT = NULL;

static inline uint32_t nonflush_slot(uint32_t key) {
    return ROW_BASE[key & (NROWS - 1)] + (key >> ROW_SHIFT);
}

static inline int rank_of_sum(uint64_t key, uint64_t mask) {
    uint64_t flush = key & FLUSH_BITS;
    if (flush) {
        int suit = (__builtin_ctzll(flush) - 35) >> 2;
        return FLUSH[(mask >> (16 * suit)) & 0x1fff];
    }
    return NONFLUSH[nonflush_slot((uint32_t)key)];
}

static inline int rank_of_ids(const uint8_t *ids, int n) {
    uint64_t key = SUIT_INIT, mask = 0;
    for (int i = 0; i < n; i++) {
        key += CARD_KEY[ids[i]];
        mask |= CARD_MASK[ids[i]];
    }
    return rank_of_sum(key, mask);
}

/* ---- building the tables ------------------------------------------------------------------ */

typedef struct {
    uint32_t key;
    uint8_t size;
    uint8_t counts[NRANKS];
} Multiset;

static Multiset *MULTISETS = NULL;
static int NMULTI = 0;

static void enumerate(int rank, int size, uint32_t key, uint8_t *counts) {
    if (rank == NRANKS) {
        if (size >= 5) {
            Multiset *m = &MULTISETS[NMULTI++];
            m->key = key;
            m->size = (uint8_t)size;
            memcpy(m->counts, counts, NRANKS);
        }
        return;
    }
    for (int c = 0; c <= 4 && size + c <= 7; c++) {
        counts[rank] = (uint8_t)c;
        enumerate(rank + 1, size + c, key + (uint32_t)c * RANK_KEY[rank], counts);
    }
    counts[rank] = 0;
}

static uint32_t *ROW_COUNT_FOR_SORT;
static int by_density(const void *a, const void *b) {
    uint32_t ra = *(const uint32_t *)a, rb = *(const uint32_t *)b;
    if (ROW_COUNT_FOR_SORT[ra] != ROW_COUNT_FOR_SORT[rb])
        return ROW_COUNT_FOR_SORT[ra] < ROW_COUNT_FOR_SORT[rb] ? 1 : -1;
    return ra < rb ? -1 : (ra > rb);
}

static int64_t quinary_code(const uint8_t *counts) {
    int64_t code = 0, power = 1;
    for (int r = 0; r < NRANKS; r++, power *= 5) code += counts[r] * power;
    return code;
}

static PyObject *build(PyObject *self, PyObject *args) {
    Py_buffer codes, ranks, flush5;
    if (!PyArg_ParseTuple(args, "y*y*y*", &codes, &ranks, &flush5)) return NULL;
    PyObject *result = NULL;
    uint32_t *row_count = NULL, *order = NULL, **row_cols = NULL;
    void *taken = NULL;
    int64_t ncodes = codes.len / 8;
    if (ranks.len != ncodes * 2 || flush5.len != 8192 * 2) {
        PyErr_SetString(PyExc_ValueError, "build(): table sizes do not match");
        goto done;
    }
    const int64_t *code = codes.buf;
    const uint16_t *code_rank = ranks.buf;

    for (int id = 0; id < 52; id++) {
        int r = id >> 2, s = id & 3;
        CARD_KEY[id] = RANK_KEY[r] + (1ull << (32 + 4 * s));
        CARD_MASK[id] = 1ull << (16 * s + r);
    }
    /* flushes: 5 bits from tables.py, 6 and 7 bits as the best after dropping one card
       (mask ^ bit < mask, so increasing order has every smaller mask ready) */
    memcpy(FLUSH, flush5.buf, sizeof FLUSH);
    for (uint32_t m = 0; m < 8192; m++) {
        int bits = __builtin_popcount(m);
        if (bits < 5) FLUSH[m] = 0;
        if (bits <= 5) continue;
        uint16_t best = 0xffff;
        for (uint32_t rest = m; rest; rest &= rest - 1) {
            uint16_t v = FLUSH[m ^ (rest & -rest)];
            if (v < best) best = v;
        }
        FLUSH[m] = best;
    }

    /* every rank multiset of 5..7 cards, then a displacement perfect hash over their sums */
    if (!MULTISETS) MULTISETS = malloc(sizeof(Multiset) * 80000);
    NMULTI = 0;
    uint8_t counts[NRANKS] = {0};
    enumerate(0, 0, 0, counts);
    row_count = calloc(NROWS, sizeof(uint32_t));
    order = malloc(NROWS * sizeof(uint32_t));
    row_cols = calloc(NROWS, sizeof(uint32_t *));
    if (!row_count || !order || !row_cols) {
        PyErr_NoMemory();
        goto done;
    }
    for (int i = 0; i < NMULTI; i++) row_count[MULTISETS[i].key & (NROWS - 1)]++;
    for (uint32_t r = 0; r < NROWS; r++) {
        order[r] = r;
        row_cols[r] = malloc((row_count[r] + 1) * sizeof(uint32_t));
        row_count[r] = 0;
    }
    for (int i = 0; i < NMULTI; i++) {
        uint32_t r = MULTISETS[i].key & (NROWS - 1);
        row_cols[r][row_count[r]++] = MULTISETS[i].key >> ROW_SHIFT;
    }
    ROW_COUNT_FOR_SORT = row_count;
    qsort(order, NROWS, sizeof(uint32_t), by_density);
    /* first fit, 64 candidate bases at a time over a bitmap of taken slots */
    size_t words = ((size_t)NMULTI * 4 + (MAX_KEY >> ROW_SHIFT)) / 64 + 4;
    taken = calloc(words, sizeof(uint64_t));
    uint64_t *bits = (uint64_t *)taken;
    size_t used = 0, first_free = 0, last_at = 0;
    for (uint32_t i = 0; i < NROWS; i++) {
        uint32_t r = order[i], n = row_count[r];
        ROW_BASE[r] = 0;
        if (n == 0) continue; /* never looked up */
        uint32_t *cols = row_cols[r], top = 0;
        for (uint32_t j = 0; j < n; j++)
            if (cols[j] > top) top = cols[j];
        /* rows come densest first, so a row rarely fits far below where the last one went */
        size_t start = last_at > first_free + SEARCH_BACK ? last_at - SEARCH_BACK : first_free;
        for (size_t base = start & ~(size_t)63;; base += 64) {
            uint64_t fits = ~0ull;
            for (uint32_t j = 0; j < n && fits; j++) {
                size_t pos = base + cols[j], w = pos >> 6, sh = pos & 63;
                uint64_t window = bits[w] >> sh;
                if (sh) window |= bits[w + 1] << (64 - sh);
                fits &= ~window;
            }
            if (!fits) continue;
            size_t at = base + (size_t)__builtin_ctzll(fits);
            if ((at + top) / 64 + 2 >= words) {
                PyErr_SetString(PyExc_RuntimeError, "build(): perfect hash overflow");
                goto done;
            }
            for (uint32_t j = 0; j < n; j++) {
                size_t pos = at + cols[j];
                bits[pos >> 6] |= 1ull << (pos & 63);
                if (pos + 1 > used) used = pos + 1;
            }
            ROW_BASE[r] = (uint32_t)at;
            last_at = at;
            break;
        }
        while (bits[first_free >> 6] >> (first_free & 63) & 1) first_free++;
    }
    free(NONFLUSH);
    NONFLUSH_SIZE = used;
    NONFLUSH = calloc(used, sizeof(uint16_t));
    /* multisets come out of enumerate() in no size order: fill 5s, then 6s, then 7s */
    for (int size = 5; size <= 7; size++) {
        for (int i = 0; i < NMULTI; i++) {
            Multiset *m = &MULTISETS[i];
            if (m->size != size) continue;
            uint16_t value = 0xffff;
            if (size == 5) {
                int64_t want = quinary_code(m->counts), lo = 0, hi = ncodes - 1;
                while (lo <= hi) {
                    int64_t mid = (lo + hi) / 2;
                    if (code[mid] == want) {
                        value = code_rank[mid];
                        break;
                    }
                    if (code[mid] < want) lo = mid + 1;
                    else hi = mid - 1;
                }
            } else {
                for (int r = 0; r < NRANKS; r++) {
                    if (!m->counts[r]) continue;
                    uint16_t v = NONFLUSH[nonflush_slot(m->key - RANK_KEY[r])];
                    if (v < value) value = v;
                }
            }
            if (value == 0xffff || value == 0) {
                PyErr_SetString(PyExc_ValueError, "build(): a rank multiset has no class");
                goto done;
            }
            NONFLUSH[nonflush_slot(m->key)] = value;
        }
    }
    for (int r = 0; r <= NCLASSES; r++) {
        if (!INT_CACHE[r]) INT_CACHE[r] = PyLong_FromLong(r);
    }
    READY = 1;
    result = Py_BuildValue("(iin)", NMULTI, (int)NROWS, (Py_ssize_t)NONFLUSH_SIZE);
done:
    if (row_cols) {
        for (uint32_t r = 0; r < NROWS; r++) free(row_cols[r]);
    }
    free(row_cols);
    free(row_count);
    free(order);
    free(taken);
    PyBuffer_Release(&codes);
    PyBuffer_Release(&ranks);
    PyBuffer_Release(&flush5);
    return result;
}

/* ---- objects: Card -> id, rank -> HandRank ----------------------------------------------- */

static inline uint32_t ptr_hash(const void *p) {
    return (uint32_t)(((uintptr_t)p >> 4) * 2654435761u) >> 24;
}

static PyObject *set_objects(PyObject *self, PyObject *args) {
    PyObject *cards, *ranks, *suits, *card_type, *hand_ranks, *error_type;
    if (!PyArg_ParseTuple(args, "O!O!O!OO!O", &PyTuple_Type, &cards, &PyTuple_Type, &ranks,
                          &PyTuple_Type, &suits, &card_type, &PyTuple_Type, &hand_ranks,
                          &error_type))
        return NULL;
    if (PyTuple_GET_SIZE(cards) != 52 || PyTuple_GET_SIZE(ranks) != NRANKS ||
        PyTuple_GET_SIZE(suits) != 4 || PyTuple_GET_SIZE(hand_ranks) != NCLASSES + 1) {
        PyErr_SetString(PyExc_ValueError, "set_objects(): wrong sizes");
        return NULL;
    }
    memset(PTR_KEY, 0, sizeof PTR_KEY);
    for (int id = 0; id < 52; id++) {
        PyObject *card = PyTuple_GET_ITEM(cards, id);
        uint32_t h = ptr_hash(card);
        while (PTR_KEY[h]) h = (h + 1) & (PTR_SLOTS - 1);
        Py_INCREF(card);
        PTR_KEY[h] = card;
        PTR_ID[h] = id;
    }
    for (int r = 0; r < NRANKS; r++) {
        RANK_ENUM[r] = PyTuple_GET_ITEM(ranks, r);
        Py_INCREF(RANK_ENUM[r]);
    }
    for (int s = 0; s < 4; s++) {
        SUIT_ENUM[s] = PyTuple_GET_ITEM(suits, s);
        Py_INCREF(SUIT_ENUM[s]);
    }
    Py_INCREF(card_type);
    Py_XSETREF(CARD_TYPE, card_type);
    Py_INCREF(hand_ranks);
    Py_XSETREF(RANK_OBJECTS, hand_ranks);
    Py_INCREF(error_type);
    Py_XSETREF(ERROR_TYPE, error_type);
    Py_RETURN_NONE;
}

/* The id of a Card object, or -1 when it is not one (no exception set). */
static inline int card_id(PyObject *card) {
    uint32_t h = ptr_hash(card);
    while (PTR_KEY[h]) {
        if (PTR_KEY[h] == card) return PTR_ID[h];
        h = (h + 1) & (PTR_SLOTS - 1);
    }
    if (!CARD_TYPE || !PyObject_TypeCheck(card, (PyTypeObject *)CARD_TYPE)) return -1;
    PyObject *rank = PyObject_GetAttr(card, STR_RANK);
    PyObject *suit = PyObject_GetAttr(card, STR_SUIT);
    int r = -1, s = -1;
    for (int i = 0; i < NRANKS; i++)
        if (rank == RANK_ENUM[i]) r = i;
    for (int i = 0; i < 4; i++)
        if (suit == SUIT_ENUM[i]) s = i;
    Py_XDECREF(rank);
    Py_XDECREF(suit);
    PyErr_Clear();
    return (r < 0 || s < 0) ? -1 : r * 4 + s;
}

static PyObject *not_ready(void) {
    PyErr_SetString(PyExc_RuntimeError, "cardscore.poker tables are not built");
    return NULL;
}

/* evaluate_cards(cards) -> HandRank, or None when the input needs the slow, explaining path
   (not 5-7 Card objects, or a card twice). */
static PyObject *evaluate_cards(PyObject *self, PyObject *arg) {
    if (!RANK_OBJECTS) return not_ready();
    PyObject **items;
    Py_ssize_t n;
    if (PyTuple_CheckExact(arg)) {
        items = &PyTuple_GET_ITEM(arg, 0);
        n = PyTuple_GET_SIZE(arg);
    } else if (PyList_CheckExact(arg)) {
        items = PySequence_Fast_ITEMS(arg);
        n = PyList_GET_SIZE(arg);
    } else {
        Py_RETURN_NONE;
    }
    if (n < 5 || n > 7) Py_RETURN_NONE;
    uint64_t key = SUIT_INIT, mask = 0, seen = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int id = card_id(items[i]);
        if (id < 0) Py_RETURN_NONE;
        seen |= 1ull << id;
        key += CARD_KEY[id];
        mask |= CARD_MASK[id];
    }
    if (__builtin_popcountll(seen) != n) Py_RETURN_NONE;
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
    if (!READY) return not_ready();
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
    if (!READY) return not_ready();
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
    if (!READY) return not_ready();
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
    if (!READY) return not_ready();
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
    if (!READY) return not_ready();
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
    if (!READY) return not_ready();
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
    {"build", build, METH_VARARGS, "Derive the 5-7 card tables from the 7,462 classes."},
    {"set_objects", set_objects, METH_VARARGS, "Register Card and HandRank objects."},
    {"evaluate_cards", evaluate_cards, METH_O, "HandRank of 5-7 Cards, or None (slow path)."},
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

PyMODINIT_FUNC PyInit__c_eval(void) {
    STR_RANK = PyUnicode_InternFromString("rank");
    STR_SUIT = PyUnicode_InternFromString("suit");
    PyObject *module = PyModule_Create(&MODULE);
    if (module) {
        PyModule_AddIntConstant(module, "ROW_SHIFT", ROW_SHIFT);
        PyObject *keys = PyTuple_New(NRANKS);
        for (int r = 0; r < NRANKS; r++) PyTuple_SET_ITEM(keys, r, PyLong_FromLong(RANK_KEY[r]));
        PyModule_AddObject(module, "RANK_KEYS", keys);
    }
    return module;
}
