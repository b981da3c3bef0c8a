/* terode - droplet hydraulic erosion (after Lague), deterministic on any
 * thread count, optionally followed by thermal (talus) erosion. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "erode/tp_cl.h"
#include "erode/tp_erode.h"
#include "erode/tp_eroderun.h"
#include "stream/tp_stream.h"

static const char usage[] =
    "usage: terode [-q] [-b NAME] [-n N] [-S SEED] [-r R] [--lifetime N]\n"
    "              [-z Z|auto] [--sediment] [--masks] [--thermal N] [--talus S]\n"
    "              [--sea LEVEL | --no-sea] [--sea-floor] [--stats] [-j N]\n"
    "              [--device cpu|gpu|auto] [--batch-sync] [--cl-device N]\n"
    "              [model options] < in > out\n"
    "       terode --list-devices\n";

static const char help[] =
    "Erode a heightfield with water droplets (Lague's model, with its faults\n"
    "fixed); the same bytes on any thread count. The sea, every cell below\n"
    "the header's SEALEVEL (tisland --sea), is left alone: droplets stop\n"
    "there and their load leaves the map.\n"
    "  -b, --band NAME       band to erode (default: height)\n"
    "  -n, --droplets N      droplets to run (default: one per cell)\n"
    "  -S, --seed N          seed of the spawn positions (default: 0)\n"
    "  -r, --radius R        erosion brush radius in cells, 1..16 (default: 3)\n"
    "      --inertia F       share of the old direction kept, 0..1 (default: 0.05)\n"
    "      --capacity F      sediment capacity factor (default: 8, or the\n"
    "                        reference's 4 with --no-keep-mass)\n"
    "      --min-capacity F  least capacity, model units (default: 0.01)\n"
    "      --erode F         share of free capacity eroded, 0..1 (default: 0.3)\n"
    "      --deposit F       share of excess deposited, 0..1 (default: 0.3)\n"
    "      --evaporation F   share of water lost per step, 0..1 (default: 0.01)\n"
    "      --gravity F       speed gained per unit of drop (default: 4)\n"
    "      --lifetime N      steps a droplet lives, 1..10000 (default: 30)\n"
    "      --water F         initial water (default: 1)\n"
    "      --speed F         initial speed (default: 1)\n"
    "  -z, --zscale Z|auto   height of one model unit; auto: the input's\n"
    "                        range (default: 1, for heights in [0,1])\n"
    "      --keep-mass       a droplet that ends lays its load back along its\n"
    "                        path, also at the grid's edge (default)\n"
    "      --no-keep-mass    the load of a droplet that ends vanishes, as in\n"
    "                        Lague's\n"
    "      --sediment        add deposited minus eroded to a 'sediment' band\n"
    "      --masks           set bands 'wear', 'deposit' and 'flow' (droplet\n"
    "                        water through each cell); on the CPU only\n"
    "      --sea LEVEL       the sea level, instead of the header's SEALEVEL;\n"
    "                        recorded as SEALEVEL in the output\n"
    "      --no-sea          ignore the header's SEALEVEL: no cell is sea\n"
    "      --sea-floor       erode the sea floor too, as on land\n"
    "      --thermal N       thermal erosion passes afterwards (default: 0)\n"
    "      --talus S         stable drop per cell, model units (default: 0.01)\n"
    "      --batch N         droplets per round, 0 = automatic (default: 0)\n"
    "  -j, --threads N       threads, 0 = all processors (default: 0)\n"
    "      --device D        cpu: on the processors (default); gpu: batch-\n"
    "                        synchronous, through OpenCL; auto: gpu when an\n"
    "                        OpenCL GPU is present, else cpu\n"
    "      --batch-sync      on the CPU, the batch-synchronous model of gpu:\n"
    "                        the same bytes as --device gpu\n"
    "      --cl-device N     OpenCL device N of --list-devices (default: the\n"
    "                        first GPU, else the first device)\n"
    "      --list-devices    print the OpenCL platforms and devices, and exit\n"
    "      --stats           print a summary line on stderr\n"
    "  -q, --quiet           no progress bar, no summary, no warning\n"
    "  -h, --help            this help\n"
    "      --version         print the version\n";

enum {
	OPT_INERTIA = 256, OPT_CAPACITY, OPT_MINCAP, OPT_ERODE, OPT_DEPOSIT,
	OPT_EVAP, OPT_GRAVITY, OPT_LIFETIME, OPT_WATER, OPT_SPEED,
	OPT_KEEP, OPT_NOKEEP, OPT_SEDIMENT, OPT_SEA, OPT_NO_SEA, OPT_SEA_FLOOR,
	OPT_THERMAL, OPT_TALUS, OPT_BATCH, OPT_STATS, OPT_VERSION,
	OPT_DEVICE, OPT_BATCH_SYNC, OPT_CL_DEVICE, OPT_LIST_DEVICES, OPT_MASKS
};

/* Old spellings, still taken with a warning until they go. */
static const cli_old old[] = { { "-s", 'S' }, { NULL, 0 } };

/* In the order of TP_ERODERUN_CPU, _GPU and _AUTO. */
static const char *const devices[] = { "cpu", "gpu", "auto", NULL };

static const struct option longopts[] = {
	{ "band", required_argument, NULL, 'b' },
	{ "droplets", required_argument, NULL, 'n' },
	{ "seed", required_argument, NULL, 'S' },
	{ "radius", required_argument, NULL, 'r' },
	{ "inertia", required_argument, NULL, OPT_INERTIA },
	{ "capacity", required_argument, NULL, OPT_CAPACITY },
	{ "min-capacity", required_argument, NULL, OPT_MINCAP },
	{ "erode", required_argument, NULL, OPT_ERODE },
	{ "deposit", required_argument, NULL, OPT_DEPOSIT },
	{ "evaporation", required_argument, NULL, OPT_EVAP },
	{ "gravity", required_argument, NULL, OPT_GRAVITY },
	{ "lifetime", required_argument, NULL, OPT_LIFETIME },
	{ "water", required_argument, NULL, OPT_WATER },
	{ "speed", required_argument, NULL, OPT_SPEED },
	{ "zscale", required_argument, NULL, 'z' },
	{ "keep-mass", no_argument, NULL, OPT_KEEP },
	{ "no-keep-mass", no_argument, NULL, OPT_NOKEEP },
	{ "sediment", no_argument, NULL, OPT_SEDIMENT },
	{ "masks", no_argument, NULL, OPT_MASKS },
	{ "sea", required_argument, NULL, OPT_SEA },
	{ "no-sea", no_argument, NULL, OPT_NO_SEA },
	{ "sea-floor", no_argument, NULL, OPT_SEA_FLOOR },
	{ "thermal", required_argument, NULL, OPT_THERMAL },
	{ "talus", required_argument, NULL, OPT_TALUS },
	{ "batch", required_argument, NULL, OPT_BATCH },
	{ "threads", required_argument, NULL, 'j' },
	{ "stats", no_argument, NULL, OPT_STATS },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "device", required_argument, NULL, OPT_DEVICE },
	{ "batch-sync", no_argument, NULL, OPT_BATCH_SYNC },
	{ "cl-device", required_argument, NULL, OPT_CL_DEVICE },
	{ "list-devices", no_argument, NULL, OPT_LIST_DEVICES },
	{ NULL, 0, NULL, 0 }
};

struct args {
	tp_erode_opts o;
	const char *band;
	int	droplets_set, zauto, zset, cap_set, sediment, masks, thermal,
		stats;
	int	quiet;
	int	sea_floor;
	double	talus;
	cli_sea	sea;
	int	device, device_set, batch_sync, cl_device, list_devices;
};

/* The current option's value as a number in [lo, hi], or exit 2. */
static double
dbl(const char *opt, double lo, double hi)
{
	return cli_double(opt, optarg, lo, hi);
}

static int64_t
num(const char *opt, int64_t lo, int64_t hi)
{
	return cli_int(opt, optarg, lo, hi);
}

static void
parse(struct args *a, int argc, char **argv)
{
	tp_erode_opts *o = &a->o;
	int ch;

	memset(a, 0, sizeof *a);
	tp_erode_defaults(o);
	a->band = "height";
	a->talus = 0.01;
	a->cl_device = -1;
	while ((ch = cli_getopt_old(argc, argv, "S:b:hj:n:qr:z:", longopts,
	    old)) != -1) {
		switch (ch) {
		case 'b': a->band = optarg; break;
		case 'h': cli_help(help);
		case 'j': o->threads = cli_threads(optarg); break;
		case 'n':
			o->droplets = num("--droplets", 0, INT64_C(1000000000000));
			a->droplets_set = 1;
			break;
		case 'q': a->quiet = 1; break;
		case 'r': o->radius = dbl("--radius", 1, TP_ERODE_MAX_RADIUS); break;
		case 'S': o->seed = (uint64_t)num("--seed", 0, INT64_MAX); break;
		case OPT_INERTIA: o->inertia = dbl("--inertia", 0, 1); break;
		case OPT_CAPACITY:
			o->capacity = dbl("--capacity", 0, 1e6);
			a->cap_set = 1;
			break;
		case OPT_MINCAP:
			o->min_capacity = dbl("--min-capacity", 0, 1e6);
			break;
		case OPT_ERODE: o->erode = dbl("--erode", 0, 1); break;
		case OPT_DEPOSIT: o->deposit = dbl("--deposit", 0, 1); break;
		case OPT_EVAP: o->evaporation = dbl("--evaporation", 0, 1); break;
		case OPT_GRAVITY: o->gravity = dbl("--gravity", 0, 1e6); break;
		case OPT_LIFETIME:
			o->lifetime = (int)num("--lifetime", 1,
			    TP_ERODE_MAX_LIFETIME);
			break;
		case OPT_WATER: o->water = dbl("--water", 1e-9, 1e6); break;
		case OPT_SPEED: o->speed = dbl("--speed", 0, 1e6); break;
		case 'z':
			a->zset = 1;
			if (strcmp(optarg, "auto") == 0)
				a->zauto = 1;
			else
				o->zscale = dbl("--zscale", 1e-30, 1e30);
			break;
		case OPT_KEEP: o->keep_mass = 1; break;
		case OPT_NOKEEP: o->keep_mass = 0; break;
		case OPT_SEDIMENT: a->sediment = 1; break;
		case OPT_MASKS: a->masks = 1; break;
		case OPT_SEA:
			cli_sea_option(&a->sea, optarg);
			break;
		case OPT_NO_SEA: cli_sea_option(&a->sea, NULL); break;
		case OPT_SEA_FLOOR: a->sea_floor = 1; break;
		case OPT_THERMAL: a->thermal = (int)num("--thermal", 0, 100000); break;
		case OPT_TALUS: a->talus = dbl("--talus", 0, 1e6); break;
		case OPT_BATCH: o->batch = num("--batch", 0, 1 << 24); break;
		case OPT_STATS: a->stats = 1; break;
		case OPT_VERSION: cli_version();
		case OPT_DEVICE:
			a->device = cli_choice("--device", optarg, devices);
			a->device_set = 1;
			break;
		case OPT_BATCH_SYNC: a->batch_sync = 1; break;
		case OPT_CL_DEVICE:
			a->cl_device = (int)num("--cl-device", 0, 1000);
			break;
		case OPT_LIST_DEVICES: a->list_devices = 1; break;
		default: cli_bad_option();
		}
	}
	if (optind < argc)
		cli_usage("unexpected argument '%s'", argv[optind]);
	if (!a->cap_set)
		o->capacity = tp_erode_capacity(o->keep_mass);
	if (a->cl_device >= 0 && a->device == TP_ERODERUN_CPU) {
		if (a->device_set)
			cli_usage("--cl-device: OpenCL runs with --device gpu "
			    "or auto, not cpu");
		a->device = TP_ERODERUN_GPU;
	}
}

static void
summary(const tp_erode_stats *st)
{
	cli_note("%lld droplets, %lld left the grid; eroded %.9g, "
	    "deposited %.9g, lost %.9g", (long long)st->droplets,
	    (long long)st->left, st->eroded, st->deposited, st->lost);
}

/* The model's constants are tuned for heights in [0, 1] (zscale 1): on
 * heights in metres the same droplets cut a million times less deep, or
 * not at all. Say so once, without changing what is done: --zscale auto
 * would make the result depend on the range of each tile. */
static void
zscale_warning(const tp_grid *g, int band)
{
	double lo, hi;

	if (!tp_erode_extent(tp_grid_band(g, band), g->h.width, g->h.height,
	    tp_grid_stride(g), &lo, &hi) || (lo >= 0 && hi <= 1))
		return;
	cli_note("warning: heights span [%g, %g], not [0, 1]: "
	    "give --zscale auto (or the relief as --zscale Z)", lo, hi);
}

/* --list-devices: one line a device, and what it lacks for the kernel. */
static void
list_devices(void)
{
	tp_cl_device *d;
	tp_err e;
	int n, i;

	if (tp_cl_devices(&d, &n, &e) < 0)
		cli_fail(&e);
	for (i = 0; i < n; i++) {
		printf("%d: %s: %s (%s, %s, %.0f MiB)\n", d[i].index,
		    d[i].platform, d[i].name, d[i].gpu ? "GPU" : "not a GPU",
		    d[i].version, (double)d[i].mem / 1048576);
		if (d[i].missing[0] != '\0')
			printf("   lacks for terode:%s\n", d[i].missing);
	}
	free(d);
	exit(0);
}

/* The device's lines of --stats. */
static void
device_stats(const tp_eroderun_result *r)
{
	if (r->gpu)
		cli_note("OpenCL device %d: %s (%s)", r->d.index, r->d.name,
		    r->d.platform);
	if (r->batched)
		cli_note("batch-synchronous: %.9g put back where "
		    "batches took cells below the lowest land", r->raised);
}

int
main(int argc, char **argv)
{
	static const char *const added[] = { "wear", "deposit", "flow",
	    "sediment" };
	struct args a;
	tp_eroderun_opts ro;
	tp_eroderun_result res;
	tp_grid g;
	cli_progress p;
	tp_err e;
	double sea;
	int band, idx[4] = { 0, 0, 0, -1 }, i;

	cli_init(argc, argv, usage);
	parse(&a, argc, argv);
	if (a.list_devices)
		list_devices();
	for (i = a.masks ? 0 : 3; i < (a.sediment ? 4 : 3); i++)
		if (strcmp(a.band, added[i]) == 0)
			cli_usage("the eroded band cannot also be band '%s'",
			    added[i]);
	i = a.masks ? 0 : 3;
	band = cli_read_grid(&g, a.band, added + i, (a.sediment ? 4 : 3) - i,
	    idx + i);
	/* --sea-floor erodes the sea all the same; the level is recorded */
	sea = cli_sea_level(&a.sea, &g.h, 1);
	a.o.sea_level = a.sea_floor ? -INFINITY : sea;
	if (!a.zset && !a.quiet)
		zscale_warning(&g, band);
	cli_progress_init(&p, "erode", a.quiet);
	p.unit = "droplets";
	a.o.progress = cli_progress_cb;
	a.o.pctx = &p;
	ro = (tp_eroderun_opts){ a.device, a.batch_sync, a.cl_device,
	    !a.droplets_set, a.zauto, a.thermal, a.talus, a.masks,
	    { idx[0], idx[1], idx[2] } };
	if (tp_eroderun(&g, band, a.sediment ? idx[3] : -1, &a.o, &ro, &res,
	    &e) < 0)
		cli_fail(&e);
	cli_progress_done(&p);
	if (a.stats)
		device_stats(&res);
	if (a.stats || (!a.quiet && isatty(STDERR_FILENO)))
		summary(&res.st);
	cli_write_grid(&g, argc, argv);
	tp_grid_free(&g);
	return 0;
}
