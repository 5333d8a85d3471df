/* Cross Kings in C: the kings-wild hand scorer and the exact expectimax solver.
 *
 * Cards are bits of a 36-bit mask: bit suit*9 + r, r = 0..7 for A..8 (ace low), r = 8 for
 * the king. Cells are 0..35, row-major on the 6x6 grid.
 *
 * Values are exact integers. At a node with f face-down cells left, the solver returns
 *   er = f! * E[result]   (result of player 1: win 2, draw 1, loss 0)
 *   em = f! * E[margin]   (player 1's score minus player 2's)
 * A face-down card is uniform over the f unseen cards, so a chance node's value is the plain
 * sum of its children's values, each scaled by (f-1)!: no division, no rounding, and ties
 * between moves are exact. |margin| <= 92 (a hand scores at most 4 runs of 8 = 4*13 plus
 * 8 sets of 4 = 8*5), so em fits easily in 64 bits (92 * 12! < 2^36).
 *
 * Search: alpha-beta at the players' nodes and Star1 at chance nodes with Star2 probing, with
 * bounds that are proven (see node_bounds and star2_probe), and a transposition table keyed on
 * (cells left, marker, player 1's cards, player 2's cards), which fixes the unseen cards too
 * (as a set: the key is already canonical; the fixed board leaves no suit symmetry).
 * prune=False gives the plain expectimax, kept for cross-checks.
 *
 * Two-phase exact analysis: a result-only Solver (objective 2) searches a move first; its table
 * then serves as the full-objective Solver's oracle (set_oracle), bounding the expected result
 * of the nodes it knows (see oracle_bounds). The second phase keeps only the margin work.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#define ALL_CARDS ((1ULL << 36) - 1)
#define KING_BITS ((1ULL << 8) | (1ULL << 17) | (1ULL << 26) | (1ULL << 35))
#define MAX_DIFF 92
#define PROBE_LIMIT 16

static int8_t RUN[256 * 256]; /* [naturals << 8 | kings] of one suit -> run points */
static int8_t SETS[5][5];     /* [naturals][kings] of one rank -> set points */
static int8_t RUN_MORE[256 * 256][5]; /* [naturals << 8 | kings][j]: the most j more kings add
                                        to one suit's runs (on any ranks free in that suit) */
static uint64_t LINES[36];    /* cells in the same row or column, the cell itself excluded */
static uint64_t FACEDOWN;     /* the 12 diagonal cells */
static int64_t FACT[13];

static int popcount64(uint64_t x) { return __builtin_popcountll(x); }

static int run_points(unsigned naturals, unsigned kings) {
    unsigned all = naturals | kings;
    int total = 0, r = 0;
    while (r < 8) {
        if (!((all >> r) & 1)) {
            r++;
            continue;
        }
        int start = r;
        while (r < 8 && ((all >> r) & 1)) r++;
        int length = r - start;
        if (length >= 3) {
            unsigned segment = ((1u << length) - 1) << start;
            total += 2 * length - 3 - __builtin_popcount(kings & segment);
        }
    }
    return total;
}

static void init_tables(void) {
    for (unsigned n = 0; n < 256; n++)
        for (unsigned k = 0; k < 256; k++)
            RUN[n << 8 | k] = (n & k) ? 0 : (int8_t)run_points(n, k);
    for (int c = 0; c <= 4; c++)
        for (int j = 0; j <= 4; j++)
            SETS[c][j] = (c + j >= 3 && c + j <= 4) ? (int8_t)(2 * (c + j) - 3 - j) : 0;
    for (unsigned n = 0; n < 256; n++)
        for (unsigned k = 0; k < 256; k++) {
            if (n & k) continue;
            int8_t *more = RUN_MORE[n << 8 | k];
            unsigned free = 0xFF & ~(n | k);
            for (unsigned add = free;; add = (add - 1) & free) { /* every subset of free */
                int j = __builtin_popcount(add), gain = RUN[n << 8 | k | add] - RUN[n << 8 | k];
                for (int x = j; x <= 4; x++)
                    if (gain > more[x]) more[x] = (int8_t)gain;
                if (!add) break;
            }
        }
    FACEDOWN = 0;
    for (int cell = 0; cell < 36; cell++) {
        int row = cell / 6, col = cell % 6;
        uint64_t line = 0;
        for (int i = 0; i < 6; i++) {
            line |= 1ULL << (row * 6 + i);
            line |= 1ULL << (i * 6 + col);
        }
        LINES[cell] = line & ~(1ULL << cell);
        if (row == col || row + col == 5) FACEDOWN |= 1ULL << cell;
    }
    FACT[0] = 1;
    for (int i = 1; i <= 12; i++) FACT[i] = FACT[i - 1] * i;
}

/* ---- hand scoring ------------------------------------------------------------------------ */

typedef struct {
    unsigned naturals[4], kings[4];
    int counts[8], placed[8];
    int candidates[32], ncandidates;
    int best;
    unsigned best_kings[4];
} Placement;

static int placement_value(const Placement *p) {
    int total = 0;
    for (int s = 0; s < 4; s++) total += RUN[p->naturals[s] << 8 | p->kings[s]];
    for (int r = 0; r < 8; r++) total += SETS[p->counts[r]][p->placed[r]];
    return total;
}

/* Adding one card to a hand raises its score by at most 8: 6 from joining two runs of two
 * around it (7 - 1 for the king) and 2 from turning a pair into a set of three. */
#define MAX_GAIN_PER_KING 8

static void place(Placement *p, int start, int left, int value) {
    if (left == 0) {
        if (value > p->best) {
            p->best = value;
            memcpy(p->best_kings, p->kings, sizeof p->kings);
        }
        return;
    }
    if (value + MAX_GAIN_PER_KING * left <= p->best) return;
    for (int i = start; i <= p->ncandidates - left; i++) {
        int s = p->candidates[i] >> 3, r = p->candidates[i] & 7;
        unsigned n = p->naturals[s] << 8, a = p->kings[s], bit = 1u << r;
        int c = p->counts[r], j = p->placed[r];
        int gain = RUN[n | a | bit] - RUN[n | a] + SETS[c][j + 1] - SETS[c][j];
        p->kings[s] = a | bit;
        p->placed[r] = j + 1;
        place(p, i + 1, left - 1, value + gain);
        p->kings[s] = a;
        p->placed[r] = j;
    }
}

/* A hand's naturals: each suit's ranks (bit r: the rank r above the ace) and each rank's count. */
static void naturals_of(uint64_t hand, unsigned naturals[4], int counts[8]) {
    memset(counts, 0, 8 * sizeof counts[0]);
    for (int s = 0; s < 4; s++) {
        naturals[s] = (unsigned)(hand >> (9 * s)) & 0xFF;
        for (int r = 0; r < 8; r++) counts[r] += (naturals[s] >> r) & 1;
    }
}

/* The best score of a hand and (in *assigned) the natural cards its kings stand for.
 *
 * Only cards that can sit in a scoring run or set with k kings are candidates: a window of 3
 * ranks around the card lacking at most k cards, or a rank with at least 3 - k naturals. A king
 * outside every scoring run and set adds nothing (removing it splits only runs shorter than 3
 * and shrinks only a set smaller than 3), and adding a card never lowers a score, so the best
 * choice of min(k, candidates) candidates is the best assignment of all k kings. */
static int score_hand(uint64_t hand, uint64_t *assigned) {
    Placement p;
    int k = popcount64(hand & KING_BITS);
    naturals_of(hand, p.naturals, p.counts);
    memset(p.kings, 0, sizeof p.kings);
    memset(p.placed, 0, sizeof p.placed);
    if (assigned) *assigned = 0;
    if (k == 0) return placement_value(&p);
    p.ncandidates = 0;
    for (int s = 0; s < 4; s++) {
        for (int r = 0; r < 8; r++) {
            if ((p.naturals[s] >> r) & 1) continue;
            int useful = p.counts[r] + k >= 3;
            for (int r0 = r - 2; !useful && r0 <= r; r0++) {
                if (r0 < 0 || r0 + 2 > 7) continue;
                int lacking = 3 - __builtin_popcount(p.naturals[s] & (7u << r0));
                useful = lacking <= k;
            }
            if (useful) p.candidates[p.ncandidates++] = s * 8 + r;
        }
    }
    int t = k < p.ncandidates ? k : p.ncandidates;
    /* a greedy assignment first, so that the bound in place() cuts from the start */
    int value = placement_value(&p);
    uint64_t used = 0;
    for (int n = 0; n < t; n++) {
        int pick = -1, pick_gain = -1;
        for (int i = 0; i < p.ncandidates; i++) {
            if (used >> i & 1) continue;
            int s = p.candidates[i] >> 3, r = p.candidates[i] & 7;
            unsigned nat = p.naturals[s] << 8, a = p.kings[s];
            int c = p.counts[r], j = p.placed[r];
            int gain = RUN[nat | a | 1u << r] - RUN[nat | a] + SETS[c][j + 1] - SETS[c][j];
            if (gain > pick_gain) {
                pick = i;
                pick_gain = gain;
            }
        }
        used |= 1ULL << pick;
        p.kings[p.candidates[pick] >> 3] |= 1u << (p.candidates[pick] & 7);
        p.placed[p.candidates[pick] & 7]++;
        value += pick_gain;
    }
    p.best = value;
    memcpy(p.best_kings, p.kings, sizeof p.kings);
    memset(p.kings, 0, sizeof p.kings);
    memset(p.placed, 0, sizeof p.placed);
    place(&p, 0, t, placement_value(&p));
    if (assigned) {
        uint64_t mask = 0;
        for (int s = 0; s < 4; s++) mask |= (uint64_t)p.best_kings[s] << (9 * s);
        /* kings with nothing useful to stand for take the lowest cards still lacking */
        int spare = k - t;
        for (int card = 0; card < 36 && spare > 0; card++) {
            uint64_t bit = 1ULL << card;
            if (bit & (KING_BITS | hand | mask)) continue;
            mask |= bit;
            spare--;
        }
        *assigned = mask;
    }
    return p.best;
}

/* An upper bound on a hand's score, without the search over its kings: its naturals' score
 * plus the most the kings could add to runs alone (the best split of them among the suits)
 * plus the most they could add to sets alone. A king's gain is its run's share plus its
 * set's, so the two maxima together bound every assignment. */
static int score_upper(uint64_t hand) {
    int k = popcount64(hand & KING_BITS), counts[8], value = 0;
    int runs[5] = {0, 0, 0, 0, 0}, sets[5] = {0, 0, 0, 0, 0};
    unsigned naturals[4];
    naturals_of(hand, naturals, counts);
    for (int s = 0; s < 4; s++) {
        value += RUN[naturals[s] << 8];
        const int8_t *more = RUN_MORE[naturals[s] << 8];
        for (int t = k; t > 0; t--) /* max-plus: runs[t] = the most t kings add to these suits */
            for (int x = 1; x <= t; x++)
                if (runs[t - x] + more[x] > runs[t]) runs[t] = runs[t - x] + more[x];
    }
    for (int r = 0; r < 8; r++) {
        value += SETS[counts[r]][0];
        for (int t = k; t > 0; t--)
            for (int x = 1; x <= t && counts[r] + x <= 4; x++)
                if (sets[t - x] + SETS[counts[r]][x] - SETS[counts[r]][0] > sets[t])
                    sets[t] = sets[t - x] + SETS[counts[r]][x] - SETS[counts[r]][0];
    }
    return value + runs[k] + sets[k];
}

/* ---- the solver -------------------------------------------------------------------------- */

typedef struct {
    uint64_t k0, k1;
    int64_t em;
    int32_t er;
    int8_t best;
    int8_t bound; /* EXACT, LOWER or UPPER */
    int8_t depth; /* the plies searched below the node; FULL_DEPTH: to the end of the game */
} Entry;

/* An entry as the table holds it. Two solvers may share one table, each on its own thread
 * (``Solver.share_table``), with no lock: a slot written by both at once can hold words of
 * both writes. The first key word is stored XORed with the data words, so a slot whose words
 * do not all come from one write fails the check on reading and is taken as a miss (the
 * lockless hashing of Hyatt and Mann); each word is read and written whole. */
typedef struct {
    uint64_t k0x; /* k0 ^ em ^ meta */
    uint64_t k1;  /* 0: an empty slot (a key's k1 always has its top bit set) */
    uint64_t em;
    uint64_t meta; /* er (32 bits), best, bound, depth (8 bits each) */
} Slot;

/* A position's key, two words: k0 = player 1's cards (36 bits), the marker's cell (6) and the
 * first 22 cells left; k1 = player 2's cards, the other 14 cells left and the top bit (bits
 * 50-62 stay free for the table's epoch). */
static inline uint64_t key0(uint64_t rem, int marker, uint64_t p1) {
    return p1 | ((uint64_t)marker << 36) | ((rem & 0x3FFFFF) << 42);
}
static inline uint64_t key1(uint64_t rem, uint64_t p2) {
    return p2 | ((rem >> 22) << 36) | (1ULL << 63);
}

/* Depth-limited search (the anytime search's iterations) values the nodes `depth` plies down
 * with a heuristic; a node with no more cards left than its depth is searched to the end, so
 * its depth becomes FULL_DEPTH and its value is exact. A table entry serves a search of at most
 * its own depth: exact searches use exact entries only. */
#define FULL_DEPTH 64
static inline int child_depth(int depth) { return depth == FULL_DEPTH ? FULL_DEPTH : depth - 1; }

enum { EXACT = 0, LOWER = 1, UPPER = 2 };

typedef struct {
    PyObject_HEAD
    uint64_t cellcard[36]; /* the card bit of a face-up cell, 0 for a face-down one */
    int objective;         /* 0: expected result, then margin; 1: expected margin, then result */
    int prune;             /* alpha-beta with Star1 chance pruning (0: plain expectimax) */
    Slot *table;
    size_t table_mask, table_count;
    int table_log2, table_max_log2;
    PyObject *table_owner; /* the Solver whose table this one shares (owned reference), or NULL */
    int table_sharers;     /* solvers sharing this one's table: it must not move */
    uint64_t nodes, terminals, scored, overwritten;
    uint64_t node_limit;
    double deadline; /* CLOCK_MONOTONIC seconds; 0: none */
    double weights[14]; /* the heuristic's: a then b of each feature */
    int aborted;
    int at_root;   /* set by search_depth for the next search() call: the root */
    int root_best; /* the root's best move among those fully searched so far (-1: none) */
    __int128 root_low[36], root_high[36]; /* proven bounds on the root moves searched (V) */
    uint64_t root_only; /* search_depth's root moves (a cell mask; 0: all) */
    __int128 root_alpha, root_beta; /* search_depth's window (V; default the widest) */
    PyObject *oracle;   /* a result-only Solver of the same deal whose table bounds er, or NULL */
    uint64_t table_tag; /* the table's epoch, as it stands in its keys (see table_take) */
} Solver;

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The hands with kings scored so far, for every solver and thread of the process (a hand's
 * score depends on nothing else): one word each, hand | tag | score << 40, read and
 * written whole, so a thread sees either an old entry or a new one, both right. One cache
 * instead of one per solver: the anytime search's four solvers and the next position's find
 * each other's scores, and it is zeroed once, not at every new solver. 2^22 words (32 MiB):
 * 2% faster proofs than 2^20 (crosskings_ab, 16-17 cards). */
#define CACHE_LOG2 22
#define EXACT_TAG (1ULL << 63) /* a key's tag: the hand's score */
#define BOUND_TAG (3ULL << 62) /* a key's tag: score_upper of the hand */
#define CACHE_KEY (ALL_CARDS | (3ULL << 62))
static uint64_t *HAND_CACHE;

/* The value cached for key (a hand and its tag), or -1; *slot: where to put it. */
static inline int cache_get(uint64_t key, size_t *slot) {
    *slot = (size_t)((key * 0x9E3779B97F4A7C15ULL) >> (64 - CACHE_LOG2));
    uint64_t entry = __atomic_load_n(&HAND_CACHE[*slot], __ATOMIC_RELAXED);
    return (entry & CACHE_KEY) == key ? (int)(entry >> 40 & 0xFF) : -1;
}

static inline void cache_put(size_t slot, uint64_t key, int value) {
    __atomic_store_n(&HAND_CACHE[slot], key | (uint64_t)value << 40, __ATOMIC_RELAXED);
}

/* score_upper, cached beside the exact scores under its own tag. */
static int cached_upper(uint64_t hand) {
    if (!(hand & KING_BITS)) return score_hand(hand, NULL);
    size_t slot;
    int value = cache_get(hand | BOUND_TAG, &slot);
    if (value < 0) cache_put(slot, hand | BOUND_TAG, value = score_upper(hand));
    return value;
}

static int cached_score(Solver *S, uint64_t hand) {
    if (!(hand & KING_BITS)) {
        S->scored++;
        return score_hand(hand, NULL);
    }
    size_t slot;
    int value = cache_get(hand | EXACT_TAG, &slot);
    if (value < 0) {
        S->scored++;
        cache_put(slot, hand | EXACT_TAG, value = score_hand(hand, NULL));
    }
    return value;
}

static inline size_t slot_of(uint64_t k0, uint64_t k1, size_t mask) {
    uint64_t h = k0 ^ (k1 * 0x9E3779B97F4A7C15ULL); /* then the splitmix64 finaliser */
    h ^= h >> 30;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 27;
    h *= 0x94D049BB133111EBULL;
    h ^= h >> 31;
    return (size_t)h & mask;
}

/* Tables of 2 MiB and more are mapped on their own, asking Linux for huge pages: the table is
   read before it is written, so with 4 KiB pages each page first maps the shared zero page and
   then faults again, flushing every core's TLB, on its first store (a third of a 1 s search's
   time went there); a huge page also spares the TLB misses of a table probed at random. */
#define HUGE_PAGE ((size_t)2 << 20)

static void *table_alloc(size_t bytes) {
#ifdef __linux__
    if (bytes >= HUGE_PAGE) {
        /* over-map by a huge page and trim, so that the table starts on a huge-page boundary */
        char *base = mmap(NULL, bytes + HUGE_PAGE, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (base == MAP_FAILED) return NULL;
        size_t head = (HUGE_PAGE - ((uintptr_t)base & (HUGE_PAGE - 1))) & (HUGE_PAGE - 1);
        if (head) munmap(base, head);
        if (HUGE_PAGE - head) munmap(base + head + bytes, HUGE_PAGE - head);
#ifdef MADV_HUGEPAGE
        madvise(base + head, bytes, MADV_HUGEPAGE);
#endif
        return base + head; /* anonymous mappings are zeroed */
    }
#endif
    return calloc(1, bytes);
}

static void table_free(void *table, size_t bytes) {
    if (!table) return;
#ifdef __linux__
    if (bytes >= HUGE_PAGE) {
        munmap(table, bytes);
        return;
    }
#endif
    free(table);
}

#define CACHE_BYTES (((size_t)1 << CACHE_LOG2) * sizeof(uint64_t))

/* Tables outlive their solvers in a small pool: a new solver (the next position's) takes one
 * back instead of having the kernel map and zero fresh memory (7% of a 1-s anytime search on a
 * new deal went to zeroing pages). A table is not cleared either: each entry's key holds the
 * table's epoch in its spare bits (50-62), a table taken back or cleared moves to its next
 * epoch, and entries of other epochs are free slots. A lookup may stop at the first slot not of
 * its epoch, as at an empty one: an entry is stored in the first such slot of its probe
 * sequence, and a slot of the epoch stays of it. */
#define EPOCH_SHIFT 50
#define EPOCH_MASK (0x1FFFULL << EPOCH_SHIFT)
#define EPOCH_LIMIT 0x1FFF
#define POOL_TABLES 8
#define POOL_BYTES ((size_t)512 << 20)

typedef struct {
    Slot *table;
    int log2;
    uint64_t tag; /* its last epoch's */
} Pooled;
static Pooled POOL[POOL_TABLES];
static char POOL_LOCK; /* tables are taken and given from the searches' threads */

static void pool_lock(void) {
    while (__atomic_test_and_set(&POOL_LOCK, __ATOMIC_ACQUIRE)) continue;
}
static void pool_unlock(void) { __atomic_clear(&POOL_LOCK, __ATOMIC_RELEASE); }

static size_t table_bytes(int log2) { return ((size_t)1 << log2) * sizeof(Slot); }

/* The tag of the epoch after `tag`'s for a table of 2**log2 slots: every slot then reads free
 * (after the last epoch, the table is zeroed and starts over). */
static uint64_t next_epoch(Slot *table, int log2, uint64_t tag) {
    uint64_t epoch = (tag >> EPOCH_SHIFT) + 1;
    if (epoch > EPOCH_LIMIT) {
        memset(table, 0, table_bytes(log2));
        epoch = 1;
    }
    return epoch << EPOCH_SHIFT;
}

/* A table of 2**log2 slots, none of them in its epoch (*tag): from the pool, else fresh. */
static Slot *table_take(int log2, uint64_t *tag) {
    Slot *table = NULL;
    uint64_t old = 0; /* a fresh table: zeroed, every slot free in epoch 1 */
    pool_lock();
    for (int i = 0; i < POOL_TABLES; i++) {
        if (POOL[i].table && POOL[i].log2 == log2) {
            table = POOL[i].table;
            old = POOL[i].tag;
            POOL[i].table = NULL;
            break;
        }
    }
    pool_unlock();
    if (!table) {
        table = table_alloc(table_bytes(log2));
        if (!table) return NULL;
    }
    *tag = next_epoch(table, log2, old);
    return table;
}

/* Puts a table no solver uses into the pool (or frees it when the pool is full). */
static void table_give(Slot *table, int log2, uint64_t tag) {
    size_t pooled = table_bytes(log2);
    int free_at = -1;
    pool_lock();
    for (int i = 0; i < POOL_TABLES; i++) {
        if (POOL[i].table)
            pooled += table_bytes(POOL[i].log2);
        else if (free_at < 0)
            free_at = i;
    }
    if (free_at >= 0 && pooled <= POOL_BYTES) {
        POOL[free_at] = (Pooled){table, log2, tag};
        table = NULL;
    }
    pool_unlock();
    if (table) table_free(table, table_bytes(log2));
}

static inline int in_epoch(uint64_t key1, uint64_t tag) {
    return key1 && (key1 & EPOCH_MASK) == tag;
}

static int table_resize(Solver *S, int log2) {
    uint64_t tag;
    Slot *fresh = table_take(log2, &tag);
    if (!fresh) return -1;
    size_t mask = ((size_t)1 << log2) - 1, count = 0;
    if (S->table) {
        for (size_t i = 0; i <= S->table_mask; i++) {
            Slot *e = &S->table[i];
            if (!in_epoch(e->k1, S->table_tag)) continue;
            uint64_t k1 = (e->k1 & ~EPOCH_MASK) | tag;
            size_t j = slot_of(e->k0x ^ e->em ^ e->meta, k1, mask);
            for (int probe = 0; probe < PROBE_LIMIT; probe++, j = (j + 1) & mask) {
                if (!in_epoch(fresh[j].k1, tag)) {
                    fresh[j] = *e;
                    fresh[j].k1 = k1;
                    count++;
                    break;
                }
            }
        }
        table_give(S->table, S->table_log2, S->table_tag);
    }
    S->table = fresh;
    S->table_mask = mask;
    S->table_log2 = log2;
    S->table_tag = tag;
    S->table_count = count;
    return 0;
}

static inline void table_prefetch(const Solver *S, uint64_t k0, uint64_t k1) {
    __builtin_prefetch(&S->table[slot_of(k0, k1 | S->table_tag, S->table_mask)]);
}

#define LOAD(word) __atomic_load_n(&(word), __ATOMIC_RELAXED)
#define STORE(word, value) __atomic_store_n(&(word), (value), __ATOMIC_RELAXED)

/* The entry of key (k0, k1), copied into *out (a shared table's slot may change after), or NULL. */
static Entry *table_find(const Solver *S, uint64_t k0, uint64_t k1, Entry *out) {
    k1 |= S->table_tag;
    size_t j = slot_of(k0, k1, S->table_mask);
    for (int probe = 0; probe < PROBE_LIMIT; probe++, j = (j + 1) & S->table_mask) {
        Slot *e = &S->table[j];
        uint64_t key1 = LOAD(e->k1);
        if (!in_epoch(key1, S->table_tag)) return NULL;
        if (key1 != k1) continue;
        uint64_t em = LOAD(e->em), meta = LOAD(e->meta);
        if ((LOAD(e->k0x) ^ em ^ meta) != k0) continue;
        out->k0 = k0;
        out->k1 = k1;
        out->em = (int64_t)em;
        out->er = (int32_t)(uint32_t)meta;
        out->best = (int8_t)(meta >> 32);
        out->bound = (int8_t)(meta >> 40);
        out->depth = (int8_t)(meta >> 48);
        return out;
    }
    return NULL;
}

static void table_store(Solver *S, uint64_t k0, uint64_t k1, int64_t er, int64_t em, int best,
                        int bound, int depth) {
    if (S->table_count * 2 > S->table_mask && S->table_log2 < S->table_max_log2 &&
        !S->table_owner && !S->table_sharers)
        table_resize(S, S->table_log2 + 1); /* on failure keep the old table */
    k1 |= S->table_tag;
    size_t home = slot_of(k0, k1, S->table_mask), j = home;
    Slot *target = &S->table[home];
    for (int probe = 0; probe < PROBE_LIMIT; probe++, j = (j + 1) & S->table_mask) {
        Slot *e = &S->table[j];
        uint64_t key1 = LOAD(e->k1);
        int free_slot = !in_epoch(key1, S->table_tag);
        if (free_slot || (key1 == k1 && (LOAD(e->k0x) ^ LOAD(e->em) ^ LOAD(e->meta)) == k0)) {
            if (free_slot) S->table_count++;
            target = e;
            break;
        }
        if (probe == PROBE_LIMIT - 1) S->overwritten++; /* full: replace the home slot */
    }
    uint64_t meta = (uint64_t)(uint32_t)er | (uint64_t)(uint8_t)best << 32 |
                    (uint64_t)(uint8_t)bound << 40 | (uint64_t)(uint8_t)depth << 48;
    STORE(target->k0x, k0 ^ (uint64_t)em ^ meta);
    STORE(target->k1, k1);
    STORE(target->em, (uint64_t)em);
    STORE(target->meta, meta);
}

/* A value is one number in an ordered group: the objective's first quantity times 2^40 (or
 * 2^32) plus the second. |em| <= 92 * 12! < 2^36 and 0 <= er <= 2 * 12! < 2^30, so the
 * packing is exact and its order is the lexicographic order; and since it is linear, sums
 * at chance nodes and alpha-beta windows work on it directly. */
typedef __int128 V;
#define V_INF (((V)1) << 100)

static inline V pack(const Solver *S, int64_t er, int64_t em) {
    if (S->objective == 2) return (V)er * ((V)1 << 40); /* the result alone: em is dropped */
    return S->objective ? (V)em * ((V)1 << 32) + er : (V)er * ((V)1 << 40) + em;
}

static inline void unpack(const Solver *S, V v, int64_t *er, int64_t *em) {
    if (S->objective == 1) {
        *em = (int64_t)((v + ((V)1 << 31)) >> 32);
        *er = (int64_t)(v - (V)*em * ((V)1 << 32));
    } else {
        *er = (int64_t)((v + ((V)1 << 39)) >> 40);
        *em = (int64_t)(v - (V)*er * ((V)1 << 40));
    }
}

static inline int64_t result_of(int diff) { return diff > 0 ? 2 : diff == 0 ? 1 : 0; }

/* Bounds on a node's value from bounds on the final difference: adding cards never lowers a
 * hand's score, and each player ends with their cards plus at most every card not yet taken. */
static void node_margins(Solver *S, uint64_t p1, uint64_t p2, int *lo, int *hi) {
    int s1 = cached_score(S, p1), s2 = cached_score(S, p2);
    /* The result-only search needs only the sign of the margins, and an upper bound on a hand
     * without the kings' search (score_upper) seldom changes it: 2-3% more nodes, 20% less
     * time on 15-17 cards. The other objectives keep the margin itself, and the estimate
     * scores these hands exactly anyway. */
    if (S->objective == 2) {
        *lo = s1 - cached_upper(ALL_CARDS & ~p1);
        *hi = cached_upper(ALL_CARDS & ~p2) - s2;
        return;
    }
    *lo = s1 - cached_score(S, ALL_CARDS & ~p1);
    *hi = cached_score(S, ALL_CARDS & ~p2) - s2;
}

static void node_bounds(Solver *S, uint64_t p1, uint64_t p2, int64_t scale, V *low, V *high) {
    int lo, hi;
    node_margins(S, p1, p2, &lo, &hi);
    *low = pack(S, result_of(lo) * scale, lo * scale);
    *high = pack(S, result_of(hi) * scale, hi * scale);
}

static Entry *table_find(const Solver *S, uint64_t k0, uint64_t k1, Entry *out);

/* Two-phase exact search (objective 0 only): the oracle, a result-only solver that has
 * already searched the same moves, knows bounds er_lo <= er <= er_hi on the expected result of
 * many nodes (an exact search's table entries, of any bound type). The expected result under
 * the full objective is the same number: both players maximise it first, so a player node's
 * er is its best child's under either objective and a chance node's the sum of its
 * children's. With the margin between lo_m and hi_m, V = pack(er, em) lies between
 * pack(er_lo, lo_m * scale) and pack(er_hi, hi_m * scale) (the packing is lexicographic).
 * Narrows [*low, *high] to that; returns 1 when the oracle knew the node. */
/* The oracle is asked about nodes with this many cards left or more: below, its lookups (a
 * memory access each) cost more time than the nodes they save (18 cards: 2% more nodes, about
 * 10% less time than asking at every node). */
#define ORACLE_MIN_LEFT 8
static int oracle_bounds(Solver *S, uint64_t k0, uint64_t k1, int64_t scale, int lo_m, int hi_m,
                         V *low, V *high, int *best) {
    Solver *O = (Solver *)S->oracle;
    Entry copy, *e = table_find(O, k0, k1, &copy);
    if (!e || e->depth != FULL_DEPTH) return 0;
    if (best) *best = e->best;
    int64_t er_lo = e->bound == UPPER ? 0 : e->er, er_hi = e->bound == LOWER ? 2 * scale : e->er;
    V l = pack(S, er_lo, lo_m * scale), h = pack(S, er_hi, hi_m * scale);
    if (l > *low) *low = l;
    if (h < *high) *high = h;
    return 1;
}

static V search(Solver *S, uint64_t rem, int marker, uint64_t p1, uint64_t p2, uint64_t visible,
                V alpha, V beta, int depth, int *best_cell);

/* Near the end of the game a subtree costs less than the memory accesses that would shorten it
 * (the table and the hand cache are probed at random and mostly miss the processor's caches),
 * so each aid to pruning starts at some number of cards left. Tuned on result-only proofs of
 * 16-17 cards, one thread (benchmarks/crosskings_ab.py): 3 times the nodes, 0.62 times the
 * time of using every aid at every node. Likewise a depth-limited search skips the enhanced
 * transposition cutoff one ply above its horizon and the table and bounds of chance children
 * on the horizon, where estimates are cheap: 0.87 times the time of the anytime search's
 * iterations on 16-20 cards. */
#define TABLE_MIN_LEFT 5          /* a node's transposition-table lookup and store */
#define ETC_MIN_LEFT 11           /* the enhanced transposition cutoff's lookups of its children */
#define SURE_MIN_LEFT 7           /* the result-only search's check for a sure win, draw or loss */
#define CHANCE_BOUNDS_MIN_LEFT 5  /* Star1's bounds on a chance node's children */
#define ORDER_MIN_LEFT 5          /* ordering the moves by what they add to the mover's score */

/* The estimate at the horizon of a depth-limited search, on the exact values' scale: the score
 * difference so far as the margin, and as the win chance a logistic function of features of
 * the position, each weighted by a + b / cards left (weights fitted on exact values: see
 * benchmarks/crosskings_fit.py). Clamped into the node's proven bounds, so that the pruning
 * bounds hold for estimates too. The features, player 1's minus player 2's:
 *   0 score so far;  1 what each could still reach with every card not yet taken;
 *   2 who moves (+1: player 1);  3 what one more king would add;  4 kings held;
 *   5 the most one more card (of those not yet taken) would add;
 *   6 what a greedy play-out to the end adds (each player takes the card in the marker's lines
 *     that raises their score most, counting what it denies the opponent at half; a face-down
 *     card adds nothing to the play-out's hand).
 * The costlier ones (3, 5, 6) are computed only when weighted (or for features()). */
#define FEATURES 7
static int greedy_gain(Solver *S, uint64_t rem, int marker, uint64_t p1, uint64_t p2) {
    int s[2] = {cached_score(S, p1), cached_score(S, p2)}, start = s[0] - s[1];
    uint64_t hand[2] = {p1, p2};
    int mover = popcount64(p1 | p2) & 1;
    for (uint64_t moves; (moves = LINES[marker] & rem); mover ^= 1) {
        int chosen = -1, best = -1, gain = 0;
        uint64_t taken = 0;
        for (; moves; moves &= moves - 1) {
            int cell = __builtin_ctzll(moves), key = 1, own = 0;
            uint64_t card = S->cellcard[cell];
            if (card) {
                own = cached_score(S, hand[mover] | card) - s[mover];
                key = 4 * own + 2 * (cached_score(S, hand[mover ^ 1] | card) - s[mover ^ 1]);
            }
            if (key > best) {
                best = key;
                chosen = cell;
                gain = own;
                taken = card;
            }
        }
        hand[mover] |= taken;
        s[mover] += gain;
        rem &= ~(1ULL << chosen);
        marker = chosen;
    }
    return s[0] - s[1] - start;
}

static void features(Solver *S, uint64_t rem, int marker, uint64_t p1, uint64_t p2, int all,
                     double *f) {
    int s1 = cached_score(S, p1), s2 = cached_score(S, p2);
    f[0] = s1 - s2;
    f[1] = (cached_score(S, ALL_CARDS & ~p2) - s1) - (cached_score(S, ALL_CARDS & ~p1) - s2);
    f[2] = popcount64(p1 | p2) & 1 ? -1.0 : 1.0;
    f[3] = f[5] = f[6] = 0;
    f[4] = popcount64(p1 & KING_BITS) - popcount64(p2 & KING_BITS);
    if (all || S->weights[3] != 0 || S->weights[FEATURES + 3] != 0) {
        uint64_t k1 = KING_BITS & ~p1, k2 = KING_BITS & ~p2;
        int g1 = k1 ? cached_score(S, p1 | (k1 & -k1)) - s1 : 0;
        int g2 = k2 ? cached_score(S, p2 | (k2 & -k2)) - s2 : 0;
        f[3] = g1 - g2;
    }
    if (all || S->weights[5] != 0 || S->weights[FEATURES + 5] != 0) {
        int g1 = 0, g2 = 0;
        for (uint64_t left = ALL_CARDS & ~(p1 | p2); left; left &= left - 1) {
            uint64_t card = left & -left;
            int a = cached_score(S, p1 | card) - s1, b = cached_score(S, p2 | card) - s2;
            if (a > g1) g1 = a;
            if (b > g2) g2 = b;
        }
        f[5] = g1 - g2;
    }
    if (all || S->weights[6] != 0 || S->weights[FEATURES + 6] != 0)
        f[6] = greedy_gain(S, rem, marker, p1, p2);
}

static V heuristic(Solver *S, uint64_t rem, int marker, uint64_t p1, uint64_t p2) {
    int64_t scale = FACT[popcount64(rem & FACEDOWN)];
    double f[FEATURES];
    features(S, rem, marker, p1, p2, 0, f);
    double x = 0, per_card = 1.0 / popcount64(rem);
    for (int i = 0; i < FEATURES; i++)
        x += (S->weights[i] + S->weights[FEATURES + i] * per_card) * f[i];
    double win = 1.0 / (1.0 + exp(-x));
    int64_t er = llround(2.0 * win * (double)scale), em = (int64_t)f[0] * scale;
    V low, high;
    node_bounds(S, p1, p2, scale, &low, &high);
    V v = pack(S, er, em);
    return v < low ? low : v > high ? high : v;
}
static V move_value(Solver *S, uint64_t rem, uint64_t p1, uint64_t p2, uint64_t visible, int cell,
                    V alpha, V beta, int depth);

/* Star2 probing at a chance node whose children are all player nodes: one move of each child
 * (the table's move, else the one that raises the child's mover's score most) is searched.
 * The value of a move is a lower bound on a maximising child's value and an upper bound on a
 * minimising child's; fail-soft search returns the move's exact value inside its window, a
 * lower bound above it and an upper bound below it, so a return above the window's low end
 * proves a lower bound and one below its high end an upper bound. The proven bound replaces
 * the child's in lows/highs when tighter. Returns 1 when some bound changed. */
static int star2_probe(Solver *S, uint64_t next, int cell, uint64_t p1, uint64_t p2,
                       uint64_t visible, int mover, const uint64_t *bits, V *lows, V *highs, int n,
                       V alpha, V beta, int depth) {
    int maxing = mover == 1; /* the child's mover: player 1 (index 0) maximises */
    if (maxing ? beta >= V_INF : alpha <= -V_INF) return 0;
    V sum_low = 0, sum_high = 0;
    for (int i = 0; i < n; i++) {
        sum_low += lows[i];
        sum_high += highs[i];
    }
    int changed = 0, left = popcount64(next);
    uint64_t moves = LINES[cell] & next;
    for (int i = 0; i < n; i++) {
        uint64_t x = bits[i], c1 = mover ? p1 : p1 | x, c2 = mover ? p2 | x : p2;
        Entry copy, *hit = left >= TABLE_MIN_LEFT
                               ? table_find(S, key0(next, cell, c1), key1(next, c2), &copy)
                               : NULL;
        int probe = -1;
        if (hit && hit->best >= 0 && (moves >> hit->best & 1)) {
            probe = hit->best;
        } else {
            uint64_t own = maxing ? c1 : c2;
            int base = cached_score(S, own), best_key = -1;
            for (uint64_t m = moves; m; m &= m - 1) {
                int c = __builtin_ctzll(m);
                uint64_t card = S->cellcard[c];
                int key = card ? 4 * (cached_score(S, own | card) - base) : 2;
                if (key > best_key) {
                    best_key = key;
                    probe = c;
                }
            }
        }
        /* the child's window: what the others' current bounds leave to it */
        V a = alpha - (sum_high - highs[i]), b = beta - (sum_low - lows[i]);
        if (maxing && a < lows[i]) a = lows[i];
        if (!maxing && b > highs[i]) b = highs[i];
        if (a >= b) continue;
        V v = move_value(S, next, c1, c2, visible, probe, a, b, depth);
        if (S->aborted) return changed;
        if (maxing && v > a && v > lows[i]) {
            sum_low += v - lows[i];
            lows[i] = v;
            changed = 1;
            if (sum_low >= beta) return 1;
        }
        if (!maxing && v < b && v < highs[i]) {
            sum_high += v - highs[i];
            highs[i] = v;
            changed = 1;
            if (sum_high <= alpha) return 1;
        }
    }
    return changed;
}

/* The value of taking `cell`, scaled by f! for the f face-down cells left before the move. */
static V move_value(Solver *S, uint64_t rem, uint64_t p1, uint64_t p2, uint64_t visible,
                    int cell, V alpha, V beta, int depth) {
    uint64_t next = rem & ~(1ULL << cell);
    depth = child_depth(depth); /* the depth of the nodes after the move */
    int mover = popcount64(p1 | p2) & 1;
    uint64_t card = S->cellcard[cell];
    if (card) {
        return search(S, next, cell, mover ? p1 : p1 | card, mover ? p2 | card : p2,
                      visible & ~card, alpha, beta, depth, NULL);
    }
    /* a chance node: the sum of its children (Star1 pruning with per-child bounds) */
    uint64_t pool = ALL_CARDS & ~(p1 | p2 | visible), bits[12];
    int n = 0;
    V low[13], high[13]; /* suffix sums of the children's bounds */
    int64_t scale = FACT[popcount64(next & FACEDOWN)];
    while (pool) {
        bits[n++] = pool & -pool;
        pool &= pool - 1;
    }
    V lows[12], highs[12];
    int left = popcount64(next), beyond = depth > 0; /* the children are above the horizon */
    int bounded = S->prune && beyond && left >= CHANCE_BOUNDS_MIN_LEFT;
    int tabled = S->prune && beyond && left >= TABLE_MIN_LEFT;
    if (tabled) { /* the lookups below miss the cache: overlap them */
        for (int i = 0; i < n; i++) {
            uint64_t x = bits[i], c1 = mover ? p1 : p1 | x, c2 = mover ? p2 | x : p2;
            table_prefetch(S, key0(next, cell, c1), key1(next, c2));
        }
    }
    for (int i = 0; i < n; i++) {
        lows[i] = -V_INF;
        highs[i] = V_INF;
        if (bounded) {
            uint64_t x = bits[i], c1 = mover ? p1 : p1 | x, c2 = mover ? p2 | x : p2;
            int lo_m, hi_m;
            node_margins(S, c1, c2, &lo_m, &hi_m);
            lows[i] = pack(S, result_of(lo_m) * scale, lo_m * scale);
            highs[i] = pack(S, result_of(hi_m) * scale, hi_m * scale);
            /* what the table already knows about the child narrows its bounds */
            uint64_t k0 = key0(next, cell, c1), k1 = key1(next, c2);
            if (S->oracle && depth == FULL_DEPTH && left >= ORACLE_MIN_LEFT)
                oracle_bounds(S, k0, k1, scale, lo_m, hi_m, &lows[i], &highs[i], NULL);
            Entry copy, *hit = tabled ? table_find(S, k0, k1, &copy) : NULL;
            if (hit && hit->depth >= depth) {
                V v = pack(S, hit->er, hit->em);
                if (hit->bound != UPPER && v > lows[i]) lows[i] = v;
                if (hit->bound != LOWER && v < highs[i]) highs[i] = v;
            }
        }
    }
    if (S->prune) { /* widest bounds first: the sums of the rest tighten fastest (~4% fewer nodes) */
        for (int i = 1; i < n; i++) {
            uint64_t b = bits[i];
            V l = lows[i], h = highs[i];
            int j = i;
            while (j > 0) {
                if (highs[j - 1] - lows[j - 1] >= h - l) break;
                bits[j] = bits[j - 1];
                lows[j] = lows[j - 1];
                highs[j] = highs[j - 1];
                j--;
            }
            bits[j] = b;
            lows[j] = l;
            highs[j] = h;
        }
    }
    low[n] = high[n] = 0;
    for (int i = n - 1; i >= 0; i--) {
        low[i] = low[i + 1] + lows[i];
        high[i] = high[i + 1] + highs[i];
    }
    if (S->prune) {
        if (low[0] >= beta) return low[0];
        if (high[0] <= alpha) return high[0];
        if (n > 1 && depth > 0 && LINES[cell] & next &&
            star2_probe(S, next, cell, p1, p2, visible, mover, bits, lows, highs, n, alpha, beta,
                        depth)) {
            if (S->aborted) return 0;
            low[n] = high[n] = 0;
            for (int i = n - 1; i >= 0; i--) {
                low[i] = low[i + 1] + lows[i];
                high[i] = high[i + 1] + highs[i];
            }
            if (low[0] >= beta) return low[0];
            if (high[0] <= alpha) return high[0];
        }
    }
    V sum = 0;
    for (int i = 0; i < n; i++) {
        uint64_t x = bits[i];
        V v = search(S, next, cell, mover ? p1 : p1 | x, mover ? p2 | x : p2, visible,
                     alpha - sum - high[i + 1], beta - sum - low[i + 1], depth, NULL);
        if (S->aborted) return 0;
        sum += v;
        if (S->prune) {
            if (sum + high[i + 1] <= alpha) return sum + high[i + 1];
            if (sum + low[i + 1] >= beta) return sum + low[i + 1];
        }
    }
    return sum;
}

static V search(Solver *S, uint64_t rem, int marker, uint64_t p1, uint64_t p2, uint64_t visible,
                V alpha, V beta, int depth, int *best_cell) {
    int root = S->at_root;
    S->at_root = 0;
    S->nodes++;
    if (S->node_limit && S->nodes > S->node_limit) S->aborted = 1;
    if (S->deadline > 0 && !(S->nodes & 0xFFF) && now_seconds() > S->deadline) S->aborted = 1;
    if (S->aborted) return 0;
    uint64_t moves = LINES[marker] & rem;
    /* a root restricted to some moves has another value: no table lookup or store for it */
    int restricted = root && S->root_only;
    if (restricted) moves &= S->root_only;
    if (!moves) {
        int64_t scale = FACT[popcount64(rem & FACEDOWN)];
        int diff = cached_score(S, p1) - cached_score(S, p2);
        S->terminals++;
        if (best_cell) *best_cell = -1;
        return pack(S, result_of(diff) * scale, diff * scale);
    }
    if (depth >= popcount64(rem)) depth = FULL_DEPTH;
    if (depth == 0) {
        if (best_cell) *best_cell = -1;
        return heuristic(S, rem, marker, p1, p2);
    }
    uint64_t k0 = key0(rem, marker, p1), k1 = key1(rem, p2);
    int left = popcount64(rem), tabled = !restricted && left >= TABLE_MIN_LEFT;
    Entry copy, *hit = tabled ? table_find(S, k0, k1, &copy) : NULL;
    int first = -1;
    if (hit && hit->depth >= depth) {
        V v = pack(S, hit->er, hit->em);
        if (hit->bound == EXACT || (hit->bound == LOWER && v >= beta) ||
            (hit->bound == UPPER && v <= alpha)) {
            if (best_cell) *best_cell = hit->best;
            return v;
        }
        if (hit->bound == LOWER && v > alpha) alpha = v;
        if (hit->bound == UPPER && v < beta) beta = v;
    }
    if (hit) first = hit->best;
    if (S->oracle && depth == FULL_DEPTH && !root && left >= ORACLE_MIN_LEFT) {
        int64_t scale = FACT[popcount64(rem & FACEDOWN)];
        V low = -V_INF, high = V_INF;
        int oracle_best = -1;
        if (oracle_bounds(S, k0, k1, scale, -MAX_DIFF, MAX_DIFF, &low, &high, &oracle_best)) {
            if (first < 0) first = oracle_best; /* a move best in expected result: try it first */
            if (high <= alpha || low >= beta) {
                if (best_cell) *best_cell = -1;
                return high <= alpha ? high : low;
            }
            if (low > alpha) alpha = low;
            if (high < beta) beta = high;
        }
    }
    /* The result-only search settles many nodes from node_bounds alone (a sure win, draw or
     * loss): 15-20% fewer nodes. With the margin kept the bounds seldom meet, and the check
     * costs more than it saves. Not at the root: each of its moves must be searched (root
     * bounds, best move). */
    if (S->prune && S->objective == 2 && depth == FULL_DEPTH && !root && left >= SURE_MIN_LEFT) {
        V low, high;
        node_bounds(S, p1, p2, FACT[popcount64(rem & FACEDOWN)], &low, &high);
        if (low == high || high <= alpha || low >= beta) {
            if (best_cell) *best_cell = -1;
            return high <= alpha ? high : low;
        }
        if (low > alpha) alpha = low;
        if (high < beta) beta = high;
    }
    V alpha0 = alpha, beta0 = beta;
    int mover = popcount64(p1 | p2) & 1, chosen = -1;
    /* enhanced transposition cutoff: a face-up child already known good enough */
    if (S->prune && left >= ETC_MIN_LEFT && depth >= 2) {
        for (uint64_t m = moves; m; m &= m - 1) { /* the lookups miss the cache: overlap them */
            int cell = __builtin_ctzll(m);
            uint64_t card = S->cellcard[cell];
            if (!card) continue;
            uint64_t next = rem & ~(1ULL << cell), c1 = mover ? p1 : p1 | card;
            uint64_t c2 = mover ? p2 | card : p2;
            table_prefetch(S, key0(next, cell, c1), key1(next, c2));
        }
        for (uint64_t m = moves; m; m &= m - 1) {
            int cell = __builtin_ctzll(m);
            uint64_t card = S->cellcard[cell];
            if (!card) continue;
            uint64_t next = rem & ~(1ULL << cell), c1 = mover ? p1 : p1 | card;
            uint64_t c2 = mover ? p2 | card : p2;
            Entry child, *e = table_find(S, key0(next, cell, c1), key1(next, c2), &child);
            if (!e || e->depth < child_depth(depth)) continue;
            V v = pack(S, e->er, e->em);
            if ((mover == 0 && e->bound != UPPER && v >= beta) ||
                (mover == 1 && e->bound != LOWER && v <= alpha)) {
                int64_t er, em;
                unpack(S, v, &er, &em);
                table_store(S, k0, k1, er, em, cell, mover == 0 ? LOWER : UPPER, depth);
                if (best_cell) *best_cell = cell;
                return v;
            }
        }
    }
    V best = mover ? V_INF : -V_INF;
    /* move ordering (only speed depends on it): the table's move, then the face-up cards that
     * raise the mover's score most, face-down cards counted as a small gain */
    int order[36], keys[36], count = 0;
    uint64_t own = mover ? p2 : p1;
    int ordered = S->prune && left >= ORDER_MIN_LEFT;
    int base = ordered ? cached_score(S, own) : 0;
    while (moves) {
        int cell = __builtin_ctzll(moves), key = 0;
        moves &= moves - 1;
        if (ordered) {
            uint64_t card = S->cellcard[cell];
            key = cell == first ? 1000 : card ? 4 * (cached_score(S, own | card) - base) : 2;
        }
        int j = count++;
        while (j > 0 && keys[j - 1] < key) {
            order[j] = order[j - 1];
            keys[j] = keys[j - 1];
            j--;
        }
        order[j] = cell;
        keys[j] = key;
    }
    for (int i = 0; i < count; i++) {
        int cell = order[i];
        V before_alpha = alpha, before_beta = beta;
        V v = move_value(S, rem, p1, p2, visible, cell, alpha, beta, depth);
        if (S->aborted) return 0;
        if (root) { /* fail-soft: above the window's low end a lower bound, below its top an upper */
            if (v > before_alpha) S->root_low[cell] = v;
            if (v < before_beta) S->root_high[cell] = v;
        }
        if (mover == 0 ? v > best : v < best) {
            best = v;
            chosen = cell;
        }
        if (root) S->root_best = chosen;
        if (mover == 0 && best > alpha) alpha = best;
        if (mover == 1 && best < beta) beta = best;
        if (S->prune && alpha >= beta) break;
    }
    int bound = !S->prune ? EXACT : best <= alpha0 ? UPPER : best >= beta0 ? LOWER : EXACT;
    int64_t er, em;
    unpack(S, best, &er, &em);
    if (tabled) table_store(S, k0, k1, er, em, chosen, bound, depth);
    if (best_cell) *best_cell = chosen;
    return best;
}

static V exact(Solver *S, uint64_t rem, int marker, uint64_t p1, uint64_t p2, uint64_t visible,
               int *best_cell) {
    return search(S, rem, marker, p1, p2, visible, -V_INF, V_INF, FULL_DEPTH, best_cell);
}

/* The exact value and the first move in cell order that reaches it: among equally good moves
 * the choice is then independent of search order, table contents and threads. */
static V canonical(Solver *S, uint64_t rem, int marker, uint64_t p1, uint64_t p2,
                   uint64_t visible, int *best_cell) {
    int found = -1;
    V best = exact(S, rem, marker, p1, p2, visible, &found);
    uint64_t moves = LINES[marker] & rem;
    while (moves && !S->aborted) {
        int cell = __builtin_ctzll(moves);
        moves &= moves - 1;
        if (cell == found ||
            move_value(S, rem, p1, p2, visible, cell, best - 1, best + 1, FULL_DEPTH) == best) {
            found = cell;
            break;
        }
    }
    *best_cell = found;
    return best;
}

/* Adds `weight` (= f! at this node) to the final differences reached under the solver's
 * policy, after taking `cell` (or, with cell < 0, the policy's own move). */
static void walk(Solver *S, uint64_t rem, int marker, uint64_t p1, uint64_t p2, uint64_t visible,
                 int cell, int64_t weight, int64_t *histogram) {
    if (S->aborted) return;
    if (cell < 0) {
        if (!(LINES[marker] & rem)) {
            int diff = cached_score(S, p1) - cached_score(S, p2);
            histogram[diff + MAX_DIFF] += weight;
            return;
        }
        canonical(S, rem, marker, p1, p2, visible, &cell);
        if (S->aborted) return;
    }
    uint64_t next = rem & ~(1ULL << cell);
    int mover = popcount64(p1 | p2) & 1;
    uint64_t card = S->cellcard[cell];
    if (card) {
        walk(S, next, cell, mover ? p1 : p1 | card, mover ? p2 | card : p2, visible & ~card, -1,
             weight, histogram);
        return;
    }
    uint64_t pool = ALL_CARDS & ~(p1 | p2 | visible);
    int64_t share = weight / popcount64(pool);
    while (pool) {
        uint64_t x = pool & -pool;
        pool &= pool - 1;
        walk(S, next, cell, mover ? p1 : p1 | x, mover ? p2 | x : p2, visible, -1, share, histogram);
    }
}

/* ---- Python bindings --------------------------------------------------------------------- */

typedef struct {
    uint64_t rem, p1, p2, visible;
    int marker;
} Position;

static int parse_position(Solver *S, PyObject *args, Position *pos, int *cell) {
    unsigned long long rem, p1, p2;
    int marker;
    if (cell) {
        if (!PyArg_ParseTuple(args, "KiKKi", &rem, &marker, &p1, &p2, cell)) return -1;
    } else if (!PyArg_ParseTuple(args, "KiKK", &rem, &marker, &p1, &p2)) {
        return -1;
    }
    if (marker < 0 || marker > 35 || rem >> 36 || p1 >> 36 || p2 >> 36 || (p1 & p2)) {
        PyErr_SetString(PyExc_ValueError, "not a Cross Kings position");
        return -1;
    }
    pos->rem = rem;
    pos->p1 = p1;
    pos->p2 = p2;
    pos->marker = marker;
    pos->visible = 0;
    for (int c = 0; c < 36; c++)
        if ((rem >> c) & 1) pos->visible |= S->cellcard[c];
    uint64_t pool = ALL_CARDS & ~(p1 | p2 | pos->visible);
    if ((pos->visible & (p1 | p2)) || popcount64(pool) != popcount64(rem & FACEDOWN)) {
        PyErr_SetString(PyExc_ValueError,
                        "the hands and the cells left do not match the face-down cards");
        return -1;
    }
    if (cell && (*cell < 0 || *cell > 35 || !((LINES[marker] & rem) >> *cell & 1))) {
        PyErr_SetString(PyExc_ValueError, "not a legal move in this position");
        return -1;
    }
    return 0;
}

/* d[key] = value, taking over both references (either may be NULL from a failed build). */
static int dict_put(PyObject *d, PyObject *key, PyObject *value) {
    int ok = key && value && PyDict_SetItem(d, key, value) == 0;
    Py_XDECREF(key);
    Py_XDECREF(value);
    return ok ? 0 : -1;
}

static PyObject *aborted_or(Solver *S, PyObject *result) {
    if (S->aborted) {
        Py_XDECREF(result);
        Py_RETURN_NONE;
    }
    return result;
}

static PyObject *Solver_evaluate(Solver *S, PyObject *args) {
    Position pos;
    unsigned long long only = 0;
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    PyObject *head = PyTuple_GetSlice(args, 0, nargs > 4 ? 4 : nargs);
    if (!head) return NULL;
    int bad = parse_position(S, head, &pos, NULL) < 0;
    Py_DECREF(head);
    if (bad) return NULL;
    if (nargs > 4) {
        only = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(args, 4));
        if (PyErr_Occurred()) return NULL;
    }
    S->aborted = 0;
    uint64_t moves = LINES[pos.marker] & pos.rem;
    if (only) moves &= only;
    int n = popcount64(moves), i = 0;
    int cells[36];
    struct {
        int64_t er, em;
    } values[36];
    Py_BEGIN_ALLOW_THREADS
    while (moves && !S->aborted) {
        int cell = __builtin_ctzll(moves);
        moves &= moves - 1;
        cells[i] = cell;
        V v = move_value(S, pos.rem, pos.p1, pos.p2, pos.visible, cell, -V_INF, V_INF, FULL_DEPTH);
        unpack(S, v, &values[i].er, &values[i].em);
        i++;
    }
    Py_END_ALLOW_THREADS
    if (S->aborted) Py_RETURN_NONE;
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (i = 0; i < n; i++) {
        PyObject *item = Py_BuildValue("(iLL)", cells[i], (long long)values[i].er,
                                       (long long)values[i].em);
        if (!item) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

static PyObject *Solver_value(Solver *S, PyObject *args) {
    Position pos;
    if (parse_position(S, args, &pos, NULL) < 0) return NULL;
    S->aborted = 0;
    V v;
    int64_t er, em;
    int best = -1;
    Py_BEGIN_ALLOW_THREADS
    v = canonical(S, pos.rem, pos.marker, pos.p1, pos.p2, pos.visible, &best);
    Py_END_ALLOW_THREADS
    unpack(S, v, &er, &em);
    return aborted_or(S, Py_BuildValue("(LLi)", (long long)er, (long long)em, best));
}

static PyObject *Solver_search_depth(Solver *S, PyObject *args) {
    Position pos;
    int depth;
    PyObject *head = PyTuple_GetSlice(args, 0, 4);
    if (!head) return NULL;
    int bad = parse_position(S, head, &pos, NULL) < 0;
    Py_DECREF(head);
    if (bad) return NULL;
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    if ((nargs != 5 && nargs != 6) ||
        (depth = (int)PyLong_AsLong(PyTuple_GET_ITEM(args, 4))) < 1 || depth > FULL_DEPTH) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "depth must be 1..64");
        return NULL;
    }
    unsigned long long only = 0;
    if (nargs == 6) {
        only = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(args, 5));
        if (PyErr_Occurred()) return NULL;
    }
    if (!(LINES[pos.marker] & pos.rem)) {
        PyErr_SetString(PyExc_ValueError, "the game is over");
        return NULL;
    }
    if (only && !(LINES[pos.marker] & pos.rem & only)) {
        PyErr_SetString(PyExc_ValueError, "only: no legal move in the mask");
        return NULL;
    }
    S->root_only = only;
    S->aborted = 0;
    S->at_root = 1;
    S->root_best = -1;
    for (int c = 0; c < 36; c++) {
        S->root_low[c] = -V_INF;
        S->root_high[c] = V_INF;
    }
    V v;
    int64_t er, em;
    int best = -1;
    Py_BEGIN_ALLOW_THREADS
    v = search(S, pos.rem, pos.marker, pos.p1, pos.p2, pos.visible, S->root_alpha, S->root_beta,
               depth, &best);
    Py_END_ALLOW_THREADS
    unpack(S, v, &er, &em);
    return aborted_or(S, Py_BuildValue("(LLi)", (long long)er, (long long)em, best));
}

/* Drops this solver's table: frees its own, or stops sharing another's. */
static void table_release(Solver *S) {
    if (S->table_owner) {
        Solver *O = (Solver *)S->table_owner;
        O->table_sharers--;
        O->table_count += S->table_count; /* the slots this solver filled in the owner's table */
        Py_CLEAR(S->table_owner);
    } else if (S->table) {
        table_give(S->table, S->table_log2, S->table_tag);
    }
    S->table = NULL;
    S->table_count = 0;
}

static PyTypeObject SolverType;

/* Another solver reads this one's table from its own thread: the table must not move, so it
 * grows now to 2**log2 slots (its largest for log2 <= 0), before any search runs beside it,
 * and keeps that size while pinned. */
static int pin_table(Solver *O, int log2) {
    if (log2 <= 0 || log2 > O->table_max_log2) log2 = O->table_max_log2;
    if (!O->table_sharers && O->table_log2 < log2 && table_resize(O, log2) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    O->table_sharers++;
    return 0;
}

static int same_deal(const Solver *S, const Solver *O) {
    if (memcmp(O->cellcard, S->cellcard, sizeof S->cellcard)) {
        PyErr_SetString(PyExc_ValueError, "the two solvers are not of the same deal");
        return 0;
    }
    return 1;
}

static PyObject *Solver_share_table(Solver *S, PyObject *args) {
    PyObject *arg;
    int log2 = 0;
    if (!PyArg_ParseTuple(args, "O|i", &arg, &log2)) return NULL;
    if (arg == Py_None) {
        if (!S->table_owner) Py_RETURN_NONE;
        table_release(S);
        if (table_resize(S, S->table_max_log2 < 16 ? S->table_max_log2 : 16) < 0)
            return PyErr_NoMemory();
        Py_RETURN_NONE;
    }
    if (!PyObject_TypeCheck(arg, &SolverType)) {
        PyErr_SetString(PyExc_TypeError, "share_table needs a Solver or None");
        return NULL;
    }
    Solver *O = (Solver *)arg;
    if (O == S || O->table_owner || S->table_sharers) {
        PyErr_SetString(PyExc_ValueError, "a solver shares the table of one that owns its own");
        return NULL;
    }
    if (O->objective != S->objective || O->prune != S->prune) {
        PyErr_SetString(PyExc_ValueError, "solvers sharing a table need the same objective");
        return NULL;
    }
    if (!same_deal(S, O) || pin_table(O, log2) < 0) return NULL;
    table_release(S);
    S->table = O->table;
    S->table_mask = O->table_mask;
    S->table_log2 = O->table_log2;
    S->table_tag = O->table_tag;
    S->table_owner = Py_NewRef(arg);
    Py_RETURN_NONE;
}

static PyObject *Solver_set_window(Solver *S, PyObject *args) {
    PyObject *lo, *hi;
    if (!PyArg_ParseTuple(args, "OO", &lo, &hi)) return NULL;
    S->root_alpha = -V_INF;
    S->root_beta = V_INF;
    if (lo != Py_None) S->root_alpha = pack(S, PyLong_AsLongLong(lo), 0);
    if (hi != Py_None) S->root_beta = pack(S, PyLong_AsLongLong(hi), 0);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

static PyObject *Solver_partial_best(Solver *S, PyObject *Py_UNUSED(ignored)) {
    return PyLong_FromLong(S->root_best);
}

/* Proven bounds on the doubled expected result of each root move the last search_depth
 * finished, from player 1's side: {cell: (low or None, high or None)}. Exact only in an
 * exact search (a depth-limited one bounds its estimate). */
static PyObject *Solver_root_bounds(Solver *S, PyObject *Py_UNUSED(ignored)) {
    PyObject *d = PyDict_New();
    if (!d) return NULL;
    for (int c = 0; c < 36; c++) {
        if (S->root_low[c] == -V_INF && S->root_high[c] == V_INF) continue;
        int64_t lo, hi, em;
        unpack(S, S->root_low[c], &lo, &em);
        unpack(S, S->root_high[c], &hi, &em);
        PyObject *item = Py_BuildValue(
            "(NN)", S->root_low[c] == -V_INF ? Py_NewRef(Py_None) : PyLong_FromLongLong(lo),
            S->root_high[c] == V_INF ? Py_NewRef(Py_None) : PyLong_FromLongLong(hi));
        if (dict_put(d, PyLong_FromLong(c), item) < 0) {
            Py_DECREF(d);
            return NULL;
        }
    }
    return d;
}

static PyObject *Solver_set_heuristic(Solver *S, PyObject *arg) {
    double w[2 * FEATURES];
    PyObject *seq = PySequence_Fast(arg, "weights must be a sequence of 14 numbers");
    if (!seq) return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != 2 * FEATURES) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "weights must be a sequence of 14 numbers");
        return NULL;
    }
    for (int i = 0; i < 2 * FEATURES; i++) {
        w[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
        if (PyErr_Occurred()) {
            Py_DECREF(seq);
            return NULL;
        }
    }
    Py_DECREF(seq);
    memcpy(S->weights, w, sizeof w);
    Py_RETURN_NONE;
}

static PyObject *Solver_features(Solver *S, PyObject *args) {
    Position pos;
    if (parse_position(S, args, &pos, NULL) < 0) return NULL;
    double f[FEATURES];
    features(S, pos.rem, pos.marker, pos.p1, pos.p2, 1, f);
    PyObject *list = PyList_New(FEATURES);
    if (!list) return NULL;
    for (int i = 0; i < FEATURES; i++) {
        PyObject *x = PyFloat_FromDouble(f[i]);
        if (!x) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, x);
    }
    return list;
}

static PyObject *Solver_set_oracle(Solver *S, PyObject *arg) {
    if (arg != Py_None) {
        Solver *O = (Solver *)arg;
        if (!PyObject_TypeCheck(arg, &SolverType) || O->objective != 2 || S->objective != 0 ||
            O == S || memcmp(O->cellcard, S->cellcard, sizeof S->cellcard)) {
            PyErr_SetString(PyExc_ValueError, "the oracle must be a result-only Solver of the "
                                              "same deal, for a Solver of objective 0");
            return NULL;
        }
    }
    Py_XSETREF(S->oracle, arg == Py_None ? NULL : Py_NewRef(arg));
    Py_RETURN_NONE;
}

static PyObject *Solver_distribution(Solver *S, PyObject *args) {
    Position pos;
    int cell;
    if (parse_position(S, args, &pos, &cell) < 0) return NULL;
    S->aborted = 0;
    int64_t histogram[2 * MAX_DIFF + 1];
    memset(histogram, 0, sizeof histogram);
    int64_t weight = FACT[popcount64(pos.rem & FACEDOWN)];
    Py_BEGIN_ALLOW_THREADS
    walk(S, pos.rem, pos.marker, pos.p1, pos.p2, pos.visible, cell, weight, histogram);
    Py_END_ALLOW_THREADS
    if (S->aborted) Py_RETURN_NONE;
    PyObject *dict = PyDict_New();
    if (!dict) return NULL;
    for (int d = 0; d <= 2 * MAX_DIFF; d++) {
        if (!histogram[d]) continue;
        if (dict_put(dict, PyLong_FromLong(d - MAX_DIFF), PyLong_FromLongLong(histogram[d])) < 0) {
            Py_DECREF(dict);
            return NULL;
        }
    }
    return dict;
}

static PyObject *Solver_set_node_limit(Solver *S, PyObject *args) {
    unsigned long long limit;
    if (!PyArg_ParseTuple(args, "K", &limit)) return NULL;
    S->node_limit = limit ? S->nodes + limit : 0;
    Py_RETURN_NONE;
}

static PyObject *Solver_set_deadline(Solver *S, PyObject *args) {
    double seconds;
    if (!PyArg_ParseTuple(args, "d", &seconds)) return NULL;
    S->deadline = seconds > 0 ? now_seconds() + seconds : 0;
    Py_RETURN_NONE;
}

static PyObject *Solver_stats(Solver *S, PyObject *Py_UNUSED(ignored)) {
    return Py_BuildValue("{sKsKsKsKsnsn}", "nodes", (unsigned long long)S->nodes, "terminals",
                         (unsigned long long)S->terminals, "hands_scored",
                         (unsigned long long)S->scored, "overwritten",
                         (unsigned long long)S->overwritten, "table_entries",
                         (Py_ssize_t)S->table_count, "table_size",
                         (Py_ssize_t)(S->table_mask + 1));
}

static PyObject *Solver_clear(Solver *S, PyObject *Py_UNUSED(ignored)) {
    if (S->table_owner || S->table_sharers) {
        PyErr_SetString(PyExc_ValueError, "a shared table cannot be cleared (stop sharing first)");
        return NULL;
    }
    S->table_tag = next_epoch(S->table, S->table_log2, S->table_tag);
    S->table_count = 0;
    Py_RETURN_NONE;
}

static int Solver_init(Solver *S, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"cells", "objective", "table_log2", "prune", NULL};
    PyObject *cells;
    int objective = 0, max_log2 = 23, prune = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|iip", kwlist, &cells, &objective, &max_log2,
                                     &prune))
        return -1;
    S->prune = prune;
    PyObject *seq = PySequence_Fast(cells, "cells must be a sequence of 36 card numbers");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != 36 || objective < 0 || objective > 2 || max_log2 < 10 ||
        max_log2 > 30) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError,
                        "Solver(cells: 36 card numbers or -1, objective 0, 1 or 2, table_log2 10..30)");
        return -1;
    }
    uint64_t seen = 0;
    for (int c = 0; c < 36; c++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, c));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        int facedown = (FACEDOWN >> c) & 1;
        if ((facedown && v != -1) || (!facedown && (v < 0 || v > 35 || (seen >> v & 1)))) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_ValueError, "cell %d: bad card number %ld", c, v);
            return -1;
        }
        S->cellcard[c] = facedown ? 0 : 1ULL << v;
        if (!facedown) seen |= 1ULL << v;
    }
    Py_DECREF(seq);
    if (S->table_sharers) {
        PyErr_SetString(PyExc_ValueError, "another solver shares this one's table");
        return -1;
    }
    S->objective = objective;
    S->table_max_log2 = max_log2;
    table_release(S);
    if (table_resize(S, max_log2 < 16 ? max_log2 : 16) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    S->nodes = S->terminals = S->scored = S->overwritten = 0;
    S->node_limit = 0;
    S->deadline = 0;
    S->aborted = 0;
    S->at_root = 0;
    S->root_best = -1;
    S->root_alpha = -V_INF;
    S->root_beta = V_INF;
    for (int c = 0; c < 36; c++) {
        S->root_low[c] = -V_INF;
        S->root_high[c] = V_INF;
    }
    static const double DEFAULT_WEIGHTS[2 * FEATURES] = {0.8, 0.4, 1.6, 0, 0, 0, 0,
                                                          -1.1, -1.3, 0.9, 0, 0, 0, 0};
    memcpy(S->weights, DEFAULT_WEIGHTS, sizeof DEFAULT_WEIGHTS);
    return 0;
}

static void Solver_dealloc(Solver *S) {
    Py_CLEAR(S->oracle);
    table_release(S);
    Py_TYPE(S)->tp_free((PyObject *)S);
}

static PyMethodDef Solver_methods[] = {
    {"set_window", (PyCFunction)Solver_set_window, METH_VARARGS, "set_window(lo, hi)"},
    {"share_table", (PyCFunction)Solver_share_table, METH_VARARGS,
     "share_table(solver or None, log2=0): search with that solver's table (the same deal and "
     "objective; both may search at once, on two threads), or again with an own table. A shared "
     "table cannot grow: it first grows to 2**log2 slots (0: the owner's largest)"},
    {"evaluate", (PyCFunction)Solver_evaluate, METH_VARARGS,
     "evaluate(cells_left, marker, p1, p2[, only]) -> [(cell, er, em)] scaled by f!, or None "
     "if stopped; `only` is a mask of the moves to evaluate"},
    {"value", (PyCFunction)Solver_value, METH_VARARGS,
     "value(cells_left, marker, p1, p2) -> (er, em, best_cell), or None if stopped"},
    {"search_depth", (PyCFunction)Solver_search_depth, METH_VARARGS,
     "search_depth(cells_left, marker, p1, p2, depth, only=0) -> (er, em, best_cell) of a search "
     "`depth` plies deep with estimates beyond (exact when depth >= cards left), or None if "
     "stopped; `only`: a mask of the root moves to search (0: all)"},
    {"partial_best", (PyCFunction)Solver_partial_best, METH_NOARGS,
     "partial_best() -> the root's best move among those the last search_depth searched in "
     "full before it stopped (the first is the previous iteration's best), or -1"},
    {"root_bounds", (PyCFunction)Solver_root_bounds, METH_NOARGS,
     "root_bounds() -> {cell: (low, high)}: bounds (None: none) on the doubled expected result "
     "of each root move the last search_depth finished, from player 1's side"},
    {"set_heuristic", (PyCFunction)Solver_set_heuristic, METH_O,
     "set_heuristic(weights): the horizon estimate's 14 weights (a of the 7 features, then b)"},
    {"features", (PyCFunction)Solver_features, METH_VARARGS,
     "features(cells_left, marker, p1, p2) -> the horizon estimate's 7 features of a position"},
    {"set_oracle", (PyCFunction)Solver_set_oracle, METH_O,
     "set_oracle(solver or None): a result-only Solver (objective 2) of the same deal whose "
     "transposition table, filled by searching the same moves first, bounds the expected result "
     "of the nodes of this Solver's exact searches (objective 0 only): a two-phase search"},
    {"distribution", (PyCFunction)Solver_distribution, METH_VARARGS,
     "distribution(cells_left, marker, p1, p2, cell) -> {difference: count}, counts sum to f!"},
    {"set_node_limit", (PyCFunction)Solver_set_node_limit, METH_VARARGS,
     "set_node_limit(n): stop after n more nodes (0: no limit)"},
    {"set_deadline", (PyCFunction)Solver_set_deadline, METH_VARARGS,
     "set_deadline(seconds): stop searches that run past this many seconds from now (0: never)"},
    {"stats", (PyCFunction)Solver_stats, METH_NOARGS, "counters and table size"},
    {"clear", (PyCFunction)Solver_clear, METH_NOARGS, "empty the transposition table"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject SolverType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cardscore.crosskings._c_solver.Solver",
    .tp_basicsize = sizeof(Solver),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Exact expectimax solver for one deal (face-up cards fixed, face-down unknown).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Solver_init,
    .tp_dealloc = (destructor)Solver_dealloc,
    .tp_methods = Solver_methods,
};

/* A hand mask from Python (a 36-bit int); -1 with an exception set when it is not one. */
static int hand_of(PyObject *arg, uint64_t *hand) {
    unsigned long long mask = PyLong_AsUnsignedLongLong(arg);
    if (mask == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    if (mask >> 36) {
        PyErr_SetString(PyExc_ValueError, "a hand is a 36-bit mask");
        return -1;
    }
    *hand = mask;
    return 0;
}

static PyObject *py_score(PyObject *self, PyObject *arg) {
    uint64_t hand, assigned;
    if (hand_of(arg, &hand) < 0) return NULL;
    int value = score_hand(hand, &assigned);
    return Py_BuildValue("(iK)", value, (unsigned long long)assigned);
}

static PyObject *py_score_bound(PyObject *self, PyObject *arg) {
    uint64_t hand;
    if (hand_of(arg, &hand) < 0) return NULL;
    return PyLong_FromLong(score_upper(hand));
}

static PyObject *py_score_buffer(PyObject *self, PyObject *arg) {
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) return NULL;
    Py_ssize_t n = view.len / 8;
    const uint64_t *hands = view.buf;
    long long total = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) total += score_hand(hands[i] & ALL_CARDS, NULL);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    return PyLong_FromLongLong(total);
}

static PyMethodDef module_methods[] = {
    {"score", py_score, METH_O, "score(hand_mask) -> (points, mask of the cards kings stand for)"},
    {"score_bound", py_score_bound, METH_O,
     "score_bound(hand_mask) -> an upper bound on the hand's points, without the kings' search "
     "(what the result-only solver's node bounds use)"},
    {"score_buffer", py_score_buffer, METH_O,
     "score_buffer(uint64 buffer) -> total points of every hand in it (for benchmarks)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_c_solver",
                                    "Cross Kings hand scorer and exact solver.", -1,
                                    module_methods};

PyMODINIT_FUNC PyInit__c_solver(void) {
    init_tables();
    if (!HAND_CACHE && !(HAND_CACHE = table_alloc(CACHE_BYTES))) return PyErr_NoMemory();
    if (PyType_Ready(&SolverType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&SolverType);
    if (PyModule_AddObject(m, "Solver", (PyObject *)&SolverType) < 0) {
        Py_DECREF(&SolverType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
