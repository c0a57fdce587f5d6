/*
 * crumbs_marks.c: where a command buffer's breadcrumbs go and what they say
 * (crumbs_marks.h). Pure C: crumbs.c writes the marks.
 */
#include <stdlib.h>

#include "crumbs_marks.h"

static void add(crumb_marks *m, crumb_rec *k, uint32_t word, uint32_t value)
{
    m->word[m->n] = word;
    m->value[m->n] = value;
    m->n++;
    k->used = 1;
}

static int region_open(const crumb_rec *k)
{
    return k->nregions > 0 && k->regions[k->nregions - 1].end == GPUAVDBG_CRUMB_OPEN;
}

/* region_begin starts a region at action first: word 0 = first + 1 with
 * GPUAVDBG_CRUMB_PASS. */
static void region_begin(crumb_rec *k, crumb_marks *m, uint32_t first)
{
    if (k->nregions == k->cap_regions) {
        uint32_t ncap = k->cap_regions ? k->cap_regions * 2 : 8;
        crumb_region *g = realloc(k->regions, ncap * sizeof *g);
        if (!g)
            return;
        k->regions = g;
        k->cap_regions = ncap;
    }
    k->regions[k->nregions++] = (crumb_region){first, GPUAVDBG_CRUMB_OPEN};
    add(m, k, 0, (first + 1) | GPUAVDBG_CRUMB_PASS);
}

/* region_end ends the open region, if any, at nactions, with word 1 =
 * nactions when one was open or always (a render pass's end). */
static void region_end(crumb_rec *k, crumb_marks *m, uint32_t nactions, int always)
{
    int open = region_open(k);
    if (open)
        k->regions[k->nregions - 1].end = nactions;
    if (open || always)
        add(m, k, 1, nactions);
}

void gpuavdbg_crumbs_rec_begin(crumb_rec *k, uint32_t granularity, int continues_pass)
{
    k->granularity = granularity;
    k->in_pass = continues_pass;
    k->hook = !continues_pass;
    k->suspending = 0;
    k->unmarked = 0;
    k->used = 0;
    k->nregions = 0;
}

crumb_marks gpuavdbg_crumbs_rec_action(crumb_rec *k, uint32_t action, int after)
{
    crumb_marks m = {0};
    if (k->granularity == GPUAVDBG_CRUMBS_PASSES) {
        /* The first action of a region: it starts here. */
        if (!after)
            region_begin(k, &m, action);
        k->hook = 0;
    } else {
        add(&m, k, after ? 1 : 0, action + 1);
    }
    return m;
}

crumb_marks gpuavdbg_crumbs_rec_pass_begin(crumb_rec *k, uint32_t nactions, VkRenderingFlags flags)
{
    crumb_marks m = {0};
    if (k->in_pass)
        return m;
    k->in_pass = 1;
    k->hook = 0;
    k->suspending = (flags & VK_RENDERING_SUSPENDING_BIT) != 0;
    if (flags & VK_RENDERING_RESUMING_BIT) {
        /* No command may come between a suspended render pass and its
         * resumption: the pass goes on in the region still open (it was
         * suspended in this command buffer), or began in an earlier one,
         * and this one has no mark until after it. */
        if (!region_open(k) && !k->used)
            k->unmarked = 1;
        return m;
    }
    if (k->granularity == GPUAVDBG_CRUMBS_PASSES)
        region_end(k, &m, nactions, 0); /* the actions before the pass */
    region_begin(k, &m, nactions);
    return m;
}

crumb_marks gpuavdbg_crumbs_rec_pass_end(crumb_rec *k, uint32_t nactions, int secondary)
{
    crumb_marks m = {0};
    if (!k->in_pass || (secondary && k->nregions == 0 && !k->unmarked))
        return m; /* no pass of ours (a secondary inside its primary's) */
    k->in_pass = 0;
    k->hook = 1; /* the next action outside a pass: its marks, or a region's */
    if (!k->suspending) /* else it goes on in a later render pass: nothing between */
        region_end(k, &m, nactions, 1);
    return m;
}

crumb_marks gpuavdbg_crumbs_rec_end(crumb_rec *k, uint32_t nactions)
{
    crumb_marks m = {0};
    /* The last region's end, when one is open and is not a render pass
     * that goes on in a later command buffer (suspended). */
    if (!k->in_pass && !k->suspending && k->granularity == GPUAVDBG_CRUMBS_PASSES)
        region_end(k, &m, nactions, 0);
    return m;
}

void gpuavdbg_crumbs_rec_free(crumb_rec *k)
{
    free(k->regions);
    k->regions = NULL;
    k->nregions = k->cap_regions = 0;
}

int gpuavdbg_crumbs_read(const crumb_rec *k, uint32_t begun, uint32_t ended, uint32_t n, uint32_t *completed,
                         uint32_t *run_from, uint32_t *run_to, int *region)
{
    *completed = *run_from = *run_to = 0;
    *region = 0;
    if (!k->used || (k->unmarked && begun == 0 && ended == 0))
        return 0;
    uint32_t done = ended < n ? ended : n;
    uint32_t from = done, to = done;
    if (begun & GPUAVDBG_CRUMB_PASS) {
        /* Inside the region that began at action first: its actions not
         * yet marked complete are running. Regions that begin at the same
         * action are empty but the last: the last one is it. */
        uint32_t first = (begun & ~GPUAVDBG_CRUMB_PASS) - 1, end = n;
        for (uint32_t i = k->nregions; i-- > 0;)
            if (k->regions[i].first == first) {
                end = k->regions[i].end == GPUAVDBG_CRUMB_OPEN || k->regions[i].end > n ? n : k->regions[i].end;
                break;
            }
        if (first != UINT32_MAX) { /* else word 0 is not a region's: nothing known begun */
            from = first > done ? first : done;
            from = from < n ? from : n;
            to = end > from ? end : from;
            *region = to > from;
        }
    } else if (begun > done) {
        /* Action begun - 1 has begun and not completed: it and any before
         * it not completed are running (the queue may overlap them). */
        to = begun < n ? begun : n;
    }
    *completed = done;
    *run_from = from;
    *run_to = to;
    return 1;
}
