/*
 * ctest.c: the C half's own unit test, with no Vulkan device and no Go:
 * the ground floor's handle map (hmap.c), the action facts tested on the
 * CPU (facts.h, inline), the pre-pass job packing (prepass_pack.c) and
 * the breadcrumbs' marks and their reading (crumbs_marks.c), each a table
 * of cases with exact values. layer/ctest_test.go compiles it
 * with those files alone and runs it; with CTEST_WRONG=1 in the
 * environment every expected value is off by one, so that each table must
 * report failures (the test's proof that it can fail).
 *
 * Output: one line per failed check, then "ctest: <checks> checks, <n>
 * failed" and per table "table <name>: <n> failed"; exit status 1 when any
 * check failed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crumbs_marks.h"
#include "facts.h"
#include "hmap.h"
#include "prepass_pack.h"

static uint64_t g_wrong; /* CTEST_WRONG: added to every expected value */
static unsigned g_checks, g_failed, g_table_failed;

static void expect(const char *table, const char *what, uint64_t got, uint64_t want)
{
    g_checks++;
    want += g_wrong;
    if (got == want)
        return;
    g_failed++;
    g_table_failed++;
    printf("FAIL %s: %s: got %llu, want %llu\n", table, what, (unsigned long long)got, (unsigned long long)want);
}

static void end_table(const char *table)
{
    printf("table %s: %u failed\n", table, g_table_failed);
    g_table_failed = 0;
}

/* ---- hmap --------------------------------------------------------------------- */

enum { PUT, GET, DEL, LEN, CAP };

typedef struct hmap_case {
    const char *what;
    int op;
    uint64_t key;
    uintptr_t val;  /* PUT: the value */
    uint64_t want;  /* PUT: its return; GET, DEL: the value (0: NULL); LEN, CAP: the count */
} hmap_case;

static const hmap_case hmap_cases[] = {
    {"get from an empty map", GET, 0x1000, 0, 0},
    {"del from an empty map", DEL, 0x1000, 0, 0},
    {"cap of an empty map", CAP, 0, 0, 0},
    {"put key 0 is refused", PUT, 0, 7, 0},
    {"put", PUT, 0x1000, 11, 1},
    {"cap after the first put", CAP, 0, 0, 64},
    {"get", GET, 0x1000, 0, 11},
    {"get key 0", GET, 0, 0, 0},
    {"replace", PUT, 0x1000, 12, 1},
    {"len after a replace", LEN, 0, 0, 1},
    {"get the replaced value", GET, 0x1000, 0, 12},
    {"put a second key", PUT, 0x2000, 21, 1},
    {"len", LEN, 0, 0, 2},
    {"del", DEL, 0x1000, 0, 12},
    {"get a deleted key", GET, 0x1000, 0, 0},
    {"del a deleted key", DEL, 0x1000, 0, 0},
    {"the other key stays", GET, 0x2000, 0, 21},
    {"len after del", LEN, 0, 0, 1},
};

/* hmap_bulk puts n keys (handles: multiples of 16), deletes every third,
 * and checks every key; a wrong backward shift loses keys of a cluster. */
static void hmap_bulk(const char *table, uint32_t n, uint64_t want_cap)
{
    hmap m = {0};
    char what[96];
    for (uint32_t i = 1; i <= n; i++)
        hmap_put(&m, (uint64_t)i * 16, (void *)(uintptr_t)i);
    snprintf(what, sizeof what, "%u keys: cap", n);
    expect(table, what, m.cap, want_cap);
    uint32_t deleted = 0;
    for (uint32_t i = 3; i <= n; i += 3, deleted++)
        hmap_del(&m, (uint64_t)i * 16);
    snprintf(what, sizeof what, "%u keys, every third deleted: len", n);
    expect(table, what, m.len, n - deleted);
    uint32_t wrong = 0;
    for (uint32_t i = 1; i <= n; i++) {
        uintptr_t v = (uintptr_t)hmap_get(&m, (uint64_t)i * 16);
        wrong += v != (i % 3 ? i : 0);
    }
    snprintf(what, sizeof what, "%u keys, every third deleted: keys found wrong", n);
    expect(table, what, wrong, 0);
    hmap_free(&m);
    snprintf(what, sizeof what, "%u keys: cap after free", n);
    expect(table, what, m.cap, 0);
}

static void test_hmap(void)
{
    const char *t = "hmap";
    hmap m = {0};
    for (size_t i = 0; i < sizeof hmap_cases / sizeof *hmap_cases; i++) {
        const hmap_case *c = &hmap_cases[i];
        uint64_t got = 0;
        switch (c->op) {
        case PUT: got = (uint64_t)hmap_put(&m, c->key, (void *)c->val); break;
        case GET: got = (uintptr_t)hmap_get(&m, c->key); break;
        case DEL: got = (uintptr_t)hmap_del(&m, c->key); break;
        case LEN: got = m.len; break;
        case CAP: got = m.cap; break;
        }
        expect(t, c->what, got, c->want);
    }
    hmap_free(&m);
    hmap_bulk(t, 32, 64);  /* at 50% load: no grow yet */
    hmap_bulk(t, 33, 128); /* one more grows it */
    hmap_bulk(t, 1000, 2048);
    end_table(t);
}

/* ---- facts -------------------------------------------------------------------- */

#define MAX UINT64_MAX
#define WG(k) (GPUAVDBG_PARAM_WG_X + (k))
#define PC(w) (GPUAVDBG_PARAM_PC + (w))

typedef struct fact_case {
    const char *what;
    gpuavdbg_fact fact;
    gpuavdbg_action_params ap;
    uint64_t want; /* gpuavdbg_fact_end */
} fact_case;

/* The pushed words of every case: word 2 is 7, word 5 is 1 << 30, word 6
 * was never pushed. */
static const uint32_t fact_pc[GPUAVDBG_PC_WORDS] = {[2] = 7, [5] = 1u << 30, [6] = 99};
static const uint64_t fact_pc_known = (1ull << 2) | (1ull << 5);

static const fact_case fact_cases[] = {
    {"no terms: the constant bound", {.bound = 10}, {0}, 10},
    {"a zero coefficient is no term", {.bound = 10, .terms = {{WG(0), 0}}}, {0}, 10},
    {"workgroup x of a direct dispatch", {.bound = 10, .terms = {{WG(0), 4}}}, {.known = 1, .wg_max = {3, 0, 0}}, 22},
    {"workgroup z", {.bound = 1, .terms = {{WG(2), 2}}}, {.known = 1, .wg_max = {0, 0, 5}}, 11},
    {"workgroups of a draw: not known", {.bound = 10, .terms = {{WG(0), 4}}}, {0}, MAX},
    {"a pushed word", {.bound = 10, .terms = {{PC(2), 2}}}, {0}, 24},
    {"a word never pushed", {.bound = 10, .terms = {{PC(6), 2}}}, {0}, MAX},
    {"a word past the push-constant words", {.bound = 10, .terms = {{PC(GPUAVDBG_PC_WORDS), 1}}}, {0}, MAX},
    {"grid and push", {.bound = 3, .terms = {{WG(1), 8}, {PC(2), 1}}}, {.known = 1, .wg_max = {0, 2, 0}}, 26},
    {"a coefficient of 2^31", {.bound = 0, .terms = {{PC(2), 1u << 31}}}, {0}, MAX},
    {"a parameter of 2^31", {.bound = 0, .terms = {{WG(0), 1}}}, {.known = 1, .wg_max = {1ull << 31, 0, 0}}, MAX},
    {"a bound reaching 2^31", {.bound = 1u << 30, .terms = {{PC(5), 1}}}, {0}, MAX},
    {"a bound just below 2^31", {.bound = (1u << 30) - 1, .terms = {{PC(5), 1}}}, {0}, (1ull << 31) - 1},
};

typedef struct fail_case {
    const char *what;
    uint32_t floors[3];
    gpuavdbg_action_params ap;
    int64_t want;  /* the failing index, or -1 */
    uint64_t need; /* its bound, when one fails */
} fail_case;

/* Facts 0..2 of fail_facts; the action facts are facts 2, 0 (act). */
static const gpuavdbg_fact fail_facts[] = {
    {.bound = 4, .terms = {{WG(0), 1}}},
    {.bound = 1000},
    {.bound = 0, .terms = {{PC(2), 10}}},
};
static const uint32_t fail_act[] = {2, 0};

static const fail_case fail_cases[] = {
    {"both hold", {70, 10}, {.known = 1, .wg_max = {6}}, -1, 0},
    {"the first fails", {69, 10}, {.known = 1, .wg_max = {6}}, 0, 70},
    {"the second fails", {70, 9}, {.known = 1, .wg_max = {6}}, 1, 10},
    {"an empty grid runs nothing", {0, 0}, {.known = 1, .empty = 1}, -1, 0},
    {"not a dispatch: the grid is unknown", {1000, 1000}, {0}, 1, MAX},
};

static void test_facts(void)
{
    const char *t = "facts";
    for (size_t i = 0; i < sizeof fact_cases / sizeof *fact_cases; i++) {
        const fact_case *c = &fact_cases[i];
        expect(t, c->what, gpuavdbg_fact_end(&c->fact, &c->ap, fact_pc, fact_pc_known), c->want);
    }
    for (size_t i = 0; i < sizeof fail_cases / sizeof *fail_cases; i++) {
        const fail_case *c = &fail_cases[i];
        uint64_t need = 0;
        int k = gpuavdbg_action_facts_fail(fail_facts, fail_act, 2, c->floors, &c->ap, fact_pc, fact_pc_known, &need);
        char what[96];
        snprintf(what, sizeof what, "%s: index + 1", c->what);
        expect(t, what, (uint64_t)(k + 1), (uint64_t)(c->want + 1));
        snprintf(what, sizeof what, "%s: need", c->what);
        expect(t, what, need, c->need);
    }
    end_table(t);
}

/* ---- pre-pass packing ------------------------------------------------------------------ */

#define CAP 4000u /* words of the pre-pass buffer in these cases */
#define JOB(i) (GPUAVDBG_PREPASS_JOB_WORD + (i) * GPUAVDBG_PREPASS_JOB_WORDS)
#define BUF_A ((VkBuffer)(uintptr_t)0xA0)
#define BUF_B ((VkBuffer)(uintptr_t)0xB0)
#define COUNT_BUF ((VkBuffer)(uintptr_t)0xC0)
#define DRAW GPUAVDBG_PREPASS_KIND_DRAW
#define COUNT GPUAVDBG_PREPASS_FLAG_COUNT

typedef struct pack_case {
    const char *what;
    pp_job job;
    uint32_t cap;      /* the buffer's words (CAP unless smaller) */
    int want;          /* GPUAVDBG_PACK_* */
    uint32_t src;      /* PACK_OK: where its commands' copy lands */
    uint64_t need;     /* PACK_FULL: the words the buffer would need */
    uint32_t data_low; /* afterwards */
    uint32_t ncopies;  /* afterwards */
} pack_case;

/* One recording, in order: an app walking an indirect buffer with single
 * draws (the copy window doubles: 16, 32, 64 bytes), a count draw (never
 * windowed: its commands and its count word), a draw in another buffer,
 * then a buffer too small for the next job. */
static const pack_case pack_cases[] = {
    {"the first draw: its command, 4 words",
     {.action = 0, .kind = DRAW, .buf = BUF_A, .offset = 0, .size = 4096, .n = 1, .stride = 16, .cmd_size = 16,
      .max_draw = 1, .fit = 256},
     CAP, GPUAVDBG_PACK_OK, CAP - 4, 0, CAP - 4, 1},
    {"the next draw reads on: a window of 32 bytes",
     {.action = 1, .kind = DRAW, .buf = BUF_A, .offset = 16, .size = 4096, .n = 1, .stride = 16, .cmd_size = 16,
      .max_draw = 1, .fit = 255},
     CAP, GPUAVDBG_PACK_OK, CAP - 12, 0, CAP - 12, 2},
    {"a draw inside the window shares its copy",
     {.action = 2, .kind = DRAW, .buf = BUF_A, .offset = 32, .size = 4096, .n = 1, .stride = 16, .cmd_size = 16,
      .max_draw = 1, .fit = 254},
     CAP, GPUAVDBG_PACK_OK, CAP - 8, 0, CAP - 12, 2},
    {"past the window: one twice as large, 64 bytes",
     {.action = 3, .kind = DRAW, .buf = BUF_A, .offset = 48, .size = 4096, .n = 1, .stride = 16, .cmd_size = 16,
      .max_draw = 1, .fit = 253},
     CAP, GPUAVDBG_PACK_OK, CAP - 28, 0, CAP - 28, 3},
    {"a count draw: 2 commands 20 bytes apart (36 bytes, 9 words) and the count word",
     {.action = 4, .kind = DRAW | COUNT, .buf = BUF_A, .offset = 100, .size = 4096, .n = 2, .stride = 20,
      .cmd_size = 16, .count_buf = COUNT_BUF, .count_offset = 8, .max_draw = 2, .fit = 199},
     CAP, GPUAVDBG_PACK_OK, CAP - 38, 0, CAP - 38, 5},
    {"another buffer: no window to read on from",
     {.action = 5, .kind = DRAW, .buf = BUF_B, .offset = 64, .size = 128, .n = 1, .stride = 16, .cmd_size = 16,
      .max_draw = 1, .fit = 4},
     CAP, GPUAVDBG_PACK_OK, CAP - 42, 0, CAP - 42, 6},
};

/* The job words the first case writes (gpuav/prepass.go's layout). */
static const struct {
    uint32_t word, want;
} first_job_words[] = {
    {GPUAVDBG_PREPASS_JOB_ACTION, 0},      {GPUAVDBG_PREPASS_JOB_KIND, DRAW},
    {GPUAVDBG_PREPASS_JOB_SRC, CAP - 4},   {GPUAVDBG_PREPASS_JOB_COUNT, 1},
    {GPUAVDBG_PREPASS_JOB_STRIDE, 4},      {GPUAVDBG_PREPASS_JOB_COUNT_SRC, 0},
    {GPUAVDBG_PREPASS_JOB_MAX_DRAW, 1},    {GPUAVDBG_PREPASS_JOB_FIT, 256},
    {GPUAVDBG_PREPASS_JOB_BUF_SIZE, 4096}, {GPUAVDBG_PREPASS_JOB_OFFSET, 0},
    {GPUAVDBG_PREPASS_JOB_STRIDE_BYTES, 16},
};

static void test_pack(void)
{
    const char *t = "prepass_pack";
    uint32_t *w = calloc(CAP, 4);
    uint32_t limits[GPUAVDBG_PREPASS_LIMIT_WORDS];
    for (uint32_t i = 0; i < GPUAVDBG_PREPASS_LIMIT_WORDS; i++)
        limits[i] = 100 + i;
    pp_pack p = {0};
    char what[160];
    for (size_t i = 0; i < sizeof pack_cases / sizeof *pack_cases; i++) {
        const pack_case *c = &pack_cases[i];
        uint32_t src = 0;
        uint64_t need = 0;
        int r = gpuavdbg_pack_job(&p, w, c->cap, limits, &c->job, &src, &need);
        snprintf(what, sizeof what, "%s: result", c->what);
        expect(t, what, (uint64_t)r, (uint64_t)c->want);
        snprintf(what, sizeof what, "%s: src", c->what);
        expect(t, what, src, c->src);
        snprintf(what, sizeof what, "%s: data_low", c->what);
        expect(t, what, p.data_low, c->data_low);
        snprintf(what, sizeof what, "%s: copies", c->what);
        expect(t, what, p.ncopies, c->ncopies);
        snprintf(what, sizeof what, "%s: its job's src word", c->what);
        expect(t, what, w[JOB(i) + GPUAVDBG_PREPASS_JOB_SRC], c->src);
    }
    expect(t, "jobs packed", p.njobs, 6);
    expect(t, "limits block: first word", w[0], 100);
    expect(t, "limits block: last word", w[GPUAVDBG_PREPASS_LIMIT_WORDS - 1], 100 + GPUAVDBG_PREPASS_LIMIT_WORDS - 1);
    for (size_t i = 0; i < sizeof first_job_words / sizeof *first_job_words; i++) {
        snprintf(what, sizeof what, "first job: word %u", first_job_words[i].word);
        expect(t, what, w[JOB(0) + first_job_words[i].word], first_job_words[i].want);
    }
    expect(t, "count draw: count src word", w[JOB(4) + GPUAVDBG_PREPASS_JOB_COUNT_SRC], CAP - 29);
    /* The copies: (source, bytes from, bytes, to word). */
    static const struct {
        uintptr_t src;
        uint64_t offset, size;
        uint32_t dst;
    } copies[] = {{0xA0, 0, 16, CAP - 4}, {0xA0, 16, 32, CAP - 12}, {0xA0, 48, 64, CAP - 28},
                  {0xA0, 100, 36, CAP - 38}, {0xC0, 8, 4, CAP - 29}, {0xB0, 64, 16, CAP - 42}};
    for (size_t i = 0; i < sizeof copies / sizeof *copies && i < p.ncopies; i++) {
        snprintf(what, sizeof what, "copy %zu: source", i);
        expect(t, what, (uintptr_t)p.copies[i].src, copies[i].src);
        snprintf(what, sizeof what, "copy %zu: offset", i);
        expect(t, what, p.copies[i].offset, copies[i].offset);
        snprintf(what, sizeof what, "copy %zu: size", i);
        expect(t, what, p.copies[i].size, copies[i].size);
        snprintf(what, sizeof what, "copy %zu: to word", i);
        expect(t, what, p.copies[i].dst_word, copies[i].dst);
    }
    /* Full: a buffer with room for the jobs area and 6 jobs only. */
    pp_pack q = {0};
    uint32_t small = JOB(1) + 4; /* one job and its 4 words */
    pp_job j = pack_cases[0].job;
    uint32_t src = 0;
    uint64_t need = 0;
    expect(t, "small buffer: the first job fits", (uint64_t)gpuavdbg_pack_job(&q, w, small, limits, &j, &src, &need),
           GPUAVDBG_PACK_OK);
    expect(t, "small buffer: its src", src, small - 4);
    j.buf = BUF_B;
    need = 0;
    expect(t, "small buffer: the second is full", (uint64_t)gpuavdbg_pack_job(&q, w, small, limits, &j, &src, &need),
           GPUAVDBG_PACK_FULL);
    expect(t, "small buffer: the words it needs", need, JOB(2) + 4 + 4);
    expect(t, "small buffer: jobs", q.njobs, 1);
    /* A reset forgets the jobs and keeps the copies' array. */
    pp_copy *kept = p.copies;
    gpuavdbg_pack_reset(&p);
    expect(t, "reset: jobs", p.njobs, 0);
    expect(t, "reset: copies", p.ncopies, 0);
    expect(t, "reset: the array is kept", p.copies == kept, 1);
    expect(t, "reset: limits written again", p.started, 0);
    free(p.copies);
    free(q.copies);
    free(w);
    end_table(t);
}

/* ---- breadcrumbs ------------------------------------------------------------------- */

#define PASS GPUAVDBG_CRUMB_PASS

/* Recordings: events in order, and the marks they plan ((word, value):
 * W0, W1). An action is its marks before and after, while the hook asks
 * (as crumbs.h's inline test does). */
enum { EV_BEGIN, EV_BEGIN_CONTINUE, EV_ACTION, EV_PASS, EV_PASS_SUSPEND, EV_PASS_RESUME, EV_PASS_RESUME_SUSPEND,
       EV_PASS_END, EV_END };
#define W0(v) (((uint64_t)0 << 32) | (uint32_t)(v))
#define W1(v) (((uint64_t)1 << 32) | (uint32_t)(v))

typedef struct crumb_ev {
    int op;
    uint32_t n; /* EV_ACTION: the action; the others: the actions so far */
} crumb_ev;

typedef struct marks_case {
    const char *what;
    uint32_t granularity;
    int secondary;
    crumb_ev ev[12];
    uint32_t nev;
    uint64_t marks[12];
    uint32_t nmarks;
} marks_case;

#define A GPUAVDBG_CRUMBS_ACTIONS
#define P GPUAVDBG_CRUMBS_PASSES

static const marks_case marks_cases[] = {
    {"actions: two dispatches, a pass of two draws, a dispatch", A, 0,
     {{EV_BEGIN, 0}, {EV_ACTION, 0}, {EV_ACTION, 1}, {EV_PASS, 2}, {EV_PASS_END, 4}, {EV_ACTION, 4}, {EV_END, 5}}, 7,
     {W0(1), W1(1), W0(2), W1(2), W0(3 | PASS), W1(4), W0(5), W1(5)}, 8},
    {"passes: the same: a region, the pass, a region", P, 0,
     {{EV_BEGIN, 0}, {EV_ACTION, 0}, {EV_ACTION, 1}, {EV_PASS, 2}, {EV_PASS_END, 4}, {EV_ACTION, 4}, {EV_END, 5}}, 7,
     {W0(1 | PASS), W1(2), W0(3 | PASS), W1(4), W0(5 | PASS), W1(5)}, 6},
    {"passes: 1000 dispatches are one region, two marks", P, 0,
     {{EV_BEGIN, 0}, {EV_ACTION, 0}, {EV_ACTION, 1}, {EV_ACTION, 998}, {EV_ACTION, 999}, {EV_END, 1000}}, 6,
     {W0(1 | PASS), W1(1000)}, 2},
    {"passes: only render passes: no mark outside them", P, 0,
     {{EV_BEGIN, 0}, {EV_PASS, 0}, {EV_PASS_END, 3}, {EV_PASS, 3}, {EV_PASS_END, 5}, {EV_END, 5}}, 6,
     {W0(1 | PASS), W1(3), W0(4 | PASS), W1(5)}, 4},
    {"passes: no action at all: no mark", P, 0, {{EV_BEGIN, 0}, {EV_END, 0}}, 2, {0}, 0},
    {"passes: a secondary that continues a render pass: no mark", P, 1,
     {{EV_BEGIN_CONTINUE, 0}, {EV_ACTION, 0}, {EV_PASS_END, 1}, {EV_END, 1}}, 4, {0}, 0},
    {"actions: a secondary that continues a render pass: no mark", A, 1,
     {{EV_BEGIN_CONTINUE, 0}, {EV_ACTION, 0}, {EV_END, 1}}, 3, {0}, 0},
    {"passes: a pass suspended at the end: nothing after its begin", P, 0,
     {{EV_BEGIN, 0}, {EV_ACTION, 0}, {EV_PASS_SUSPEND, 1}, {EV_PASS_END, 2}, {EV_END, 2}}, 5,
     {W0(1 | PASS), W1(1), W0(2 | PASS)}, 3},
    {"actions: a pass suspended at the end: nothing after its begin", A, 0,
     {{EV_BEGIN, 0}, {EV_ACTION, 0}, {EV_PASS_SUSPEND, 1}, {EV_PASS_END, 2}, {EV_END, 2}}, 5,
     {W0(1), W1(1), W0(2 | PASS)}, 3},
    {"passes: a pass resumed at the begin: nothing before its end", P, 0,
     {{EV_BEGIN, 0}, {EV_PASS_RESUME, 0}, {EV_PASS_END, 1}, {EV_ACTION, 1}, {EV_END, 2}}, 5,
     {W1(1), W0(2 | PASS), W1(2)}, 3},
    {"actions: a pass resumed at the begin: nothing before its end", A, 0,
     {{EV_BEGIN, 0}, {EV_PASS_RESUME, 0}, {EV_PASS_END, 1}, {EV_ACTION, 1}, {EV_END, 2}}, 5,
     {W1(1), W0(2), W1(2)}, 3},
    {"passes: resumed and suspended again: no mark", P, 0,
     {{EV_BEGIN, 0}, {EV_PASS_RESUME_SUSPEND, 0}, {EV_PASS_END, 2}, {EV_END, 2}}, 4, {0}, 0},
    {"passes: suspended and resumed in one command buffer: one pass", P, 0,
     {{EV_BEGIN, 0}, {EV_PASS_SUSPEND, 0}, {EV_PASS_END, 1}, {EV_PASS_RESUME, 1}, {EV_PASS_END, 2}, {EV_END, 2}}, 6,
     {W0(1 | PASS), W1(2)}, 2},
};

/* Reading the words of a recording of n actions: its events (as above),
 * then the words the GPU wrote. */
typedef struct read_case {
    const char *what;
    uint32_t granularity;
    crumb_ev ev[12];
    uint32_t nev, n;
    uint32_t begun, ended;
    uint32_t known, completed, from, to, region;
} read_case;

/* Three dispatches (one marked), a pass of #3-#998, a dispatch: 1000
 * actions. */
#define RP_1000 {{EV_BEGIN, 0}, {EV_ACTION, 0}, {EV_PASS, 3}, {EV_PASS_END, 999}, {EV_ACTION, 999}, {EV_END, 1000}}, 6, 1000
#define THREE {{EV_BEGIN, 0}, {EV_ACTION, 0}}, 2, 3

static const read_case read_cases[] = {
    {"actions: nothing written", A, THREE, 0, 0, 1, 0, 0, 0, 0},
    {"actions: #1 running", A, THREE, 2, 1, 1, 1, 1, 2, 0},
    {"actions: #1 and #2 begun, #0 completed", A, THREE, 3, 1, 1, 1, 1, 3, 0},
    {"actions: every action completed", A, THREE, 3, 3, 1, 3, 3, 3, 0},
    {"actions: words past the actions", A, THREE, 10, 7, 1, 3, 3, 3, 0},
    {"actions: the pass of #3-#998 running", A, RP_1000, 4 | PASS, 3, 1, 3, 3, 999, 1},
    {"actions: an empty pass at #3, then one of #3-#998", A,
     {{EV_BEGIN, 0}, {EV_PASS, 3}, {EV_PASS_END, 3}, {EV_PASS, 3}, {EV_PASS_END, 999}, {EV_END, 1000}}, 6, 1000,
     4 | PASS, 3, 1, 3, 3, 999, 1},
    {"passes: one of #0-#2 running", P, RP_1000, 1 | PASS, 0, 1, 0, 0, 3, 1},
    {"passes: one of the pass's #3-#998 running", P, RP_1000, 4 | PASS, 3, 1, 3, 3, 999, 1},
    {"passes: the last region, of #999", P, RP_1000, 1000 | PASS, 999, 1, 999, 999, 1000, 1},
    {"passes: every action completed", P, RP_1000, 1000 | PASS, 1000, 1, 1000, 1000, 1000, 0},
    {"passes: the region still open (no end recorded)", P, THREE, 1 | PASS, 0, 1, 0, 0, 3, 1},
    {"passes: no mark planned: unknown", P, {{EV_BEGIN, 0}, {EV_END, 0}}, 2, 0, 0, 0, 0, 0, 0, 0, 0},
    {"passes: inside a resumed pass, nothing written: unknown", P,
     {{EV_BEGIN, 0}, {EV_PASS_RESUME, 0}, {EV_PASS_END, 2}, {EV_ACTION, 2}, {EV_END, 3}}, 5, 3, 0, 0, 0, 0, 0, 0, 0},
    {"passes: after the resumed pass", P,
     {{EV_BEGIN, 0}, {EV_PASS_RESUME, 0}, {EV_PASS_END, 2}, {EV_ACTION, 2}, {EV_END, 3}}, 5, 3, 3 | PASS, 2, 1, 2, 2,
     3, 1},
    {"word 0 is the bit alone", A, THREE, PASS, 1, 1, 1, 1, 1, 0},
    {"a region past the actions", P, THREE, 50 | PASS, 0, 1, 0, 3, 3, 0},
};

typedef struct granularity_case {
    const char *what;
    uint32_t setting;
    int cpu;
    uint32_t want;
} granularity_case;

static const granularity_case granularity_cases[] = {
    {"auto on a CPU device", GPUAVDBG_CRUMBS_AUTO, 1, A},
    {"auto on a GPU (with or without VK_AMD_buffer_marker)", GPUAVDBG_CRUMBS_AUTO, 0, P},
    {"actions on a GPU", A, 0, A},
    {"passes on a CPU device", P, 1, P},
    {"an unknown setting is auto", 7, 0, P},
};

/* record plays the events into k, the marks planned into out (at most
 * max; *n counts them all). */
static void record(crumb_rec *k, uint32_t granularity, int secondary, const crumb_ev *ev, uint32_t nev, uint64_t *out,
                   uint32_t max, uint32_t *n)
{
    *n = 0;
    for (uint32_t i = 0; i < nev; i++) {
        crumb_marks m[2] = {{0}, {0}};
        switch (ev[i].op) {
        case EV_BEGIN:
        case EV_BEGIN_CONTINUE:
            gpuavdbg_crumbs_rec_begin(k, granularity, ev[i].op == EV_BEGIN_CONTINUE);
            break;
        case EV_ACTION:
            if (k->hook)
                m[0] = gpuavdbg_crumbs_rec_action(k, ev[i].n, 0);
            if (k->hook)
                m[1] = gpuavdbg_crumbs_rec_action(k, ev[i].n, 1);
            break;
        case EV_PASS:
            m[0] = gpuavdbg_crumbs_rec_pass_begin(k, ev[i].n, 0);
            break;
        case EV_PASS_SUSPEND:
            m[0] = gpuavdbg_crumbs_rec_pass_begin(k, ev[i].n, VK_RENDERING_SUSPENDING_BIT);
            break;
        case EV_PASS_RESUME:
            m[0] = gpuavdbg_crumbs_rec_pass_begin(k, ev[i].n, VK_RENDERING_RESUMING_BIT);
            break;
        case EV_PASS_RESUME_SUSPEND:
            m[0] = gpuavdbg_crumbs_rec_pass_begin(k, ev[i].n, VK_RENDERING_RESUMING_BIT | VK_RENDERING_SUSPENDING_BIT);
            break;
        case EV_PASS_END:
            m[0] = gpuavdbg_crumbs_rec_pass_end(k, ev[i].n, secondary);
            break;
        case EV_END:
            m[0] = gpuavdbg_crumbs_rec_end(k, ev[i].n);
            break;
        }
        for (int j = 0; j < 2; j++)
            for (uint32_t w = 0; w < m[j].n; w++, (*n)++)
                if (*n < max)
                    out[*n] = ((uint64_t)m[j].word[w] << 32) | m[j].value[w];
    }
}

static void test_crumbs(void)
{
    const char *t = "crumbs";
    char what[200];
    for (size_t i = 0; i < sizeof marks_cases / sizeof *marks_cases; i++) {
        const marks_case *c = &marks_cases[i];
        crumb_rec k = {0};
        uint64_t got[16] = {0};
        uint32_t n = 0;
        record(&k, c->granularity, c->secondary, c->ev, c->nev, got, 16, &n);
        snprintf(what, sizeof what, "%s: marks", c->what);
        expect(t, what, n, c->nmarks);
        for (uint32_t j = 0; j < c->nmarks && j < 16; j++) {
            snprintf(what, sizeof what, "%s: mark %u (word << 32 | value)", c->what, j);
            expect(t, what, got[j], c->marks[j]);
        }
        gpuavdbg_crumbs_rec_free(&k);
    }
    for (size_t i = 0; i < sizeof read_cases / sizeof *read_cases; i++) {
        const read_case *c = &read_cases[i];
        crumb_rec k = {0};
        uint64_t marks[16];
        uint32_t nmarks;
        record(&k, c->granularity, 0, c->ev, c->nev, marks, 16, &nmarks);
        uint32_t completed = 99, from = 99, to = 99;
        int region = 99;
        int known = gpuavdbg_crumbs_read(&k, c->begun, c->ended, c->n, &completed, &from, &to, &region);
        snprintf(what, sizeof what, "%s: known", c->what);
        expect(t, what, (uint64_t)known, c->known);
        snprintf(what, sizeof what, "%s: completed", c->what);
        expect(t, what, completed, c->completed);
        snprintf(what, sizeof what, "%s: running from", c->what);
        expect(t, what, from, c->from);
        snprintf(what, sizeof what, "%s: running to", c->what);
        expect(t, what, to, c->to);
        snprintf(what, sizeof what, "%s: region", c->what);
        expect(t, what, (uint64_t)region, c->region);
        gpuavdbg_crumbs_rec_free(&k);
    }
    for (size_t i = 0; i < sizeof granularity_cases / sizeof *granularity_cases; i++) {
        const granularity_case *c = &granularity_cases[i];
        expect(t, c->what, gpuavdbg_crumbs_granularity(c->setting, c->cpu), c->want);
    }
    end_table(t);
}

int main(void)
{
    const char *e = getenv("CTEST_WRONG");
    g_wrong = e && *e && strcmp(e, "0") != 0;
    test_hmap();
    test_facts();
    test_pack();
    test_crumbs();
    printf("ctest: %u checks, %u failed\n", g_checks, g_failed);
    return g_failed ? 1 : 0;
}
