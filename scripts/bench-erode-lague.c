/*
 * bench-erode-lague.c - the reference droplet model for scripts/bench-erode.sh:
 * Sebastian Lague's hydraulic erosion (Hydraulic-Erosion, Erosion.cs, MIT)
 * written afresh from its description, with its defaults and its faults left
 * in, so the bench can set terode's figures beside the reference's on the
 * same terrain and droplet count:
 *   - speed = sqrt(speed^2 + dh * gravity): it falls going downhill and
 *     becomes NaN once the root goes negative (max(NaN, min) then picks
 *     the minimum capacity, as Mathf.Max does);
 *   - the brush is centred on the node at the top left of the droplet's cell,
 *     cut at the borders and renormalised; it erodes no cell below 0;
 *   - deposits go to the four corners of the droplet's cell;
 *   - the load of a droplet that dies vanishes.
 * Spawn positions are whole nodes in [0, size-1), drawn with Mulberry32
 * (the reference uses .NET's Random, which cannot be reproduced here).
 *
 * Usage: bench-erode-lague WIDTH HEIGHT DROPLETS SEED < in.f32 > out.f32
 * (raw little-endian float32 planes, row by row). Sequential, as the
 * reference is.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define RADIUS		3
#define INERTIA		0.05f
#define CAPACITY	4.0f
#define MIN_CAPACITY	0.01f
#define ERODE		0.3f
#define DEPOSIT		0.3f
#define EVAPORATE	0.01f
#define GRAVITY		4.0f
#define LIFETIME	30
#define WATER		1.0f
#define SPEED		1.0f

static int bx[4 * RADIUS * RADIUS + 4 * RADIUS + 1];
static int by[4 * RADIUS * RADIUS + 4 * RADIUS + 1];
static float bw[4 * RADIUS * RADIUS + 4 * RADIUS + 1];
static int nbrush;

static uint32_t
mulberry32(uint32_t *s)
{
	uint32_t t = (*s += 0x6D2B79F5u);

	t = (t ^ (t >> 15)) * (t | 1);
	t ^= t + (t ^ (t >> 7)) * (t | 61);
	return t ^ (t >> 14);
}

/* The offsets and weights 1 - d / r of the points with d^2 < r^2. */
static void
brush_init(void)
{
	int x, y;

	for (y = -RADIUS; y <= RADIUS; y++)
		for (x = -RADIUS; x <= RADIUS; x++)
			if (x * x + y * y < RADIUS * RADIUS) {
				bx[nbrush] = x;
				by[nbrush] = y;
				bw[nbrush++] = 1 - sqrtf((float)(x * x + y * y)) /
				    RADIUS;
			}
}

static float
height_grad(const float *m, int w, float px, float py, float *gx, float *gy)
{
	int cx = (int)px, cy = (int)py;
	float x = px - (float)cx, y = py - (float)cy;
	const float *p = m + (size_t)cy * (size_t)w + (size_t)cx;
	float nw = p[0], ne = p[1], sw = p[w], se = p[w + 1];

	*gx = (ne - nw) * (1 - y) + (se - sw) * y;
	*gy = (sw - nw) * (1 - x) + (se - ne) * x;
	return nw * (1 - x) * (1 - y) + ne * x * (1 - y) + sw * (1 - x) * y +
	    se * x * y;
}

/* Erode amt through the brush at node (cx, cy), cut at the borders. */
static float
erode(float *m, int w, int h, int cx, int cy, float amt)
{
	float sum = 0, got = 0;
	int i;

	for (i = 0; i < nbrush; i++) {
		int x = cx + bx[i], y = cy + by[i];
		if (x >= 0 && x < w && y >= 0 && y < h)
			sum += bw[i];
	}
	for (i = 0; i < nbrush; i++) {
		int x = cx + bx[i], y = cy + by[i];
		float *c, want, d;
		if (x < 0 || x >= w || y < 0 || y >= h)
			continue;
		c = m + (size_t)y * (size_t)w + (size_t)x;
		want = amt * (bw[i] / sum);
		d = *c < want ? *c : want;
		*c -= d;
		got += d;
	}
	return got;
}

static void
droplet(float *m, int w, int h, float px, float py)
{
	float dx = 0, dy = 0, speed = SPEED, water = WATER, sed = 0;
	int life;

	for (life = 0; life < LIFETIME; life++) {
		int cx = (int)px, cy = (int)py;
		float ox = px - (float)cx, oy = py - (float)cy;
		float gx, gy, ngx, ngy, hh, nh, dh, cap, len;
		float *p = m + (size_t)cy * (size_t)w + (size_t)cx;

		hh = height_grad(m, w, px, py, &gx, &gy);
		dx = dx * INERTIA - gx * (1 - INERTIA);
		dy = dy * INERTIA - gy * (1 - INERTIA);
		len = sqrtf(dx * dx + dy * dy);
		if (len != 0) {
			dx /= len;
			dy /= len;
		}
		px += dx;
		py += dy;
		if ((dx == 0 && dy == 0) || px < 0 || px >= w - 1 || py < 0 ||
		    py >= h - 1)
			break;
		nh = height_grad(m, w, px, py, &ngx, &ngy);
		dh = nh - hh;
		cap = -dh * speed * water * CAPACITY;
		cap = cap > MIN_CAPACITY ? cap : MIN_CAPACITY;
		if (sed > cap || dh > 0) {
			float amt = dh > 0 ? (dh < sed ? dh : sed) :
			    (sed - cap) * DEPOSIT;
			sed -= amt;
			p[0] += amt * (1 - ox) * (1 - oy);
			p[1] += amt * ox * (1 - oy);
			p[w] += amt * (1 - ox) * oy;
			p[w + 1] += amt * ox * oy;
		} else {
			float amt = (cap - sed) * ERODE;
			amt = amt < -dh ? amt : -dh;
			sed += erode(m, w, h, cx, cy, amt);
		}
		speed = sqrtf(speed * speed + dh * GRAVITY);
		water *= 1 - EVAPORATE;
	}
}

int
main(int argc, char **argv)
{
	int w, h;
	long long n, i;
	uint32_t s;
	size_t cells;
	float *m;

	if (argc != 5 || (w = atoi(argv[1])) < 2 || (h = atoi(argv[2])) < 2 ||
	    (n = atoll(argv[3])) < 0) {
		fprintf(stderr, "usage: bench-erode-lague WIDTH HEIGHT DROPLETS "
		    "SEED < in.f32 > out.f32\n");
		return 2;
	}
	s = (uint32_t)strtoul(argv[4], NULL, 10);
	cells = (size_t)w * (size_t)h;
	if ((m = malloc(cells * sizeof *m)) == NULL ||
	    fread(m, sizeof *m, cells, stdin) != cells) {
		fprintf(stderr, "bench-erode-lague: cannot read the heights\n");
		return 1;
	}
	brush_init();
	for (i = 0; i < n; i++) {
		float px = (float)(mulberry32(&s) % (uint32_t)(w - 1));
		float py = (float)(mulberry32(&s) % (uint32_t)(h - 1));
		droplet(m, w, h, px, py);
	}
	if (fwrite(m, sizeof *m, cells, stdout) != cells) {
		fprintf(stderr, "bench-erode-lague: cannot write the heights\n");
		return 1;
	}
	free(m);
	return 0;
}
