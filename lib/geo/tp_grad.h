/*
 * tp_grad.h - the gradient of a height grid at a cell, by Horn's 3x3
 * weights, with the edge rules of gdaldem -compute_edges: tview's hillshade
 * and tbiome's slope read the ground the same way.
 *
 * Window z holds the 3x3 heights around a cell, north row first, west to
 * east (the cell is z[4]):
 *   dz/dx = fx ((z2 + 2 z5 + z8) - (z0 + 2 z3 + z6))   east
 *   dz/dy = fy ((z0 + 2 z1 + z2) - (z6 + 2 z7 + z8))   north
 * with fx = zfactor / (8 ewres), fy = zfactor / (8 nsres).
 *
 * Edges and holes: above the first row the missing row is 2 row0 - row1
 * (below the last likewise), with columns clamped; west of column 0 in the
 * other rows the missing column is 2 c0 - c1 (east likewise); a NaN
 * neighbour counts as the centre value. A grid one cell high or wide is
 * flat across that direction. On a plane every cell but the grid's four
 * corners gets its exact gradient (in a corner the missing row's columns
 * are clamped, which halves the east-west part, as in gdaldem).
 *
 * Zevenbergen and Thorne (1987) fit a polynomial through the nine heights;
 * its gradient uses the four edge neighbours only:
 *   dz/dx = fx (z5 - z3),  dz/dy = fy (z1 - z7)
 * with fx = zfactor / (2 ewres), fy = zfactor / (2 nsres). Its second
 * derivatives give the curvatures (tp_grad_curvature).
 *
 * From a gradient (dx east, dy north, rise over run) as gdaldem computes
 * them: slope = atan(sqrt(dx^2 + dy^2)) in degrees; aspect, the direction
 * the ground faces (downhill), in degrees clockwise from north, -1 where
 * dx = dy = 0; hillshade (gdaldem's formula) with the sun at azimuth az
 * (clockwise from north) and altitude alt:
 *   c = (sin alt - cos alt (dx sin az + dy cos az)) / sqrt(1 + dx^2 + dy^2)
 * which is the cosine of the angle between the ground's normal and the
 * sun, and a grey 1 + 254 c rounded (1 where c <= 0).
 */
#ifndef TP_GRAD_H
#define TP_GRAD_H

#include <math.h>
#include <stdint.h>

/* The window of cell x of row mid, from the rows north (up) and south
 * (down) of it, NULL where the grid ends. mid[x] must not be NaN. */
void	tp_grad_window(const float *up, const float *mid, const float *down,
	    int64_t width, int64_t x, double z[9]);

/* Horn's gradient of window z: *dx east, *dy north, in the units of fx. */
static inline void
tp_grad_horn(const double z[9], double fx, double fy, double *dx, double *dy)
{
	*dx = fx * ((z[2] + 2 * z[5] + z[8]) - (z[0] + 2 * z[3] + z[6]));
	*dy = fy * ((z[0] + 2 * z[1] + z[2]) - (z[6] + 2 * z[7] + z[8]));
}

/* Zevenbergen and Thorne's gradient of window z: *dx east, *dy north. */
static inline void
tp_grad_zt(const double z[9], double fx, double fy, double *dx, double *dy)
{
	*dx = fx * (z[5] - z[3]);
	*dy = fy * (z[1] - z[7]);
}

#define TP_GRAD_DEG	(180 / 3.14159265358979323846)	/* as gdaldem */
#define TP_GRAD_RAD	(3.14159265358979323846 / 180)

/*
 * atan(x) for |x| <= tan(pi/8): x + x^3 P(x^2), P of degree 10 fitted to
 * (atan x - x) / x^3 at Chebyshev nodes for this file, within 0.72 ulp of
 * the true arctangent (20 million random points against atanl).
 * Straight-line code, so loops over cells vectorise; libm's atan would be
 * a call per cell. The float outputs equal those of libm's atan but where
 * a value lies within an ulp of double of a float's rounding boundary.
 */
static inline double
tp_grad_atan_small(double x)
{
	/* Estrin's scheme: the terms pair up in short chains instead of
	 * Horner's one chain of ten multiply-adds, whose latency, not the
	 * arithmetic, bounded tslope (a fifth less time per cell). */
	double t = x * x, t2 = t * t, t4 = t2 * t2, t8 = t4 * t4;
	double q0 = -0.33333333333333359 + 0.20000000000007107 * t;
	double q1 = -0.14285714286109405 + 0.11111111098196996 * t;
	double q2 = -0.090909072056740398 + 0.076922332889190079 * t;
	double q3 = -0.066651105179700826 + 0.058626737589788938 * t;
	double q4 = -0.051064074022482905 + 0.039774977627148954 * t;
	double r0 = q0 + q1 * t2, r1 = q2 + q3 * t2;
	double r2 = q4 - 0.019780570773684749 * t2;
	double p = (r0 + r1 * t4) + r2 * t8;

	return x + x * t * p;
}

/* atan(a) for a >= 0 (+inf included): beyond tan(3 pi/8) as pi/2 +
 * atan(-1/a), beyond tan(pi/8) as pi/4 + atan((a - 1) / (a + 1)). Every
 * candidate is computed and one selected, without branches. */
static inline double
tp_grad_atan(double a)
{
	int big = a > 2.4142135623730951, mid = a > 0.41421356237309503;
	double am = a - 1, ap = a + 1;
	double num = big ? -1.0 : mid ? am : a;
	double den = big ? a : mid ? ap : 1.0;
	double base = big ? 1.5707963267948966 : mid ? 0.78539816339744831 : 0;

	return base + tp_grad_atan_small(num / den);
}

/* atan2(y, x) but for x = y = 0 (NaN), from tp_grad_atan: the smaller
 * of |x|, |y| over the larger, then turned into its quadrant. */
static inline double
tp_grad_atan2(double y, double x)
{
	double ax = fabs(x), ay = fabs(y), r;
	int swap = ay > ax;

	r = tp_grad_atan((swap ? ax : ay) / (swap ? ay : ax));
	r = swap ? 1.5707963267948966 - r : r;
	r = x < 0 ? 3.1415926535897931 - r : r;
	return y < 0 ? -r : r;
}

/*
 * The slope in float. tslope's slope band is the one output whose cost is
 * all arithmetic (an arctangent and a square root a cell), and float does
 * it eight cells to a vector instead of four. Exact enough: Horn's sums
 * below take differences of neighbouring heights first, and each float
 * difference is correctly rounded, so the gradient's error is relative to
 * the height differences, not to the heights (integer heights, as in Int16
 * DEMs, give an exact sum); the arctangent is within 1 ulp of float.
 */

/* Horn's gradient of the float window z in float:
 *   dz/dx = fx (((z2 - z0) + 2 (z5 - z3)) + (z8 - z6))
 *   dz/dy = fy (((z0 - z6) + 2 (z1 - z7)) + (z2 - z8)) */
static inline void
tp_grad_horn_f(const float z[9], float fx, float fy, float *dx, float *dy)
{
	*dx = fx * (((z[2] - z[0]) + 2 * (z[5] - z[3])) + (z[8] - z[6]));
	*dy = fy * (((z[0] - z[6]) + 2 * (z[1] - z[7])) + (z[2] - z[8]));
}

/* Zevenbergen and Thorne's gradient of the float window z in float. */
static inline void
tp_grad_zt_f(const float z[9], float fx, float fy, float *dx, float *dy)
{
	*dx = fx * (z[5] - z[3]);
	*dy = fy * (z[1] - z[7]);
}

/* The float gradient of window z (from tp_grad_window: floats, so exact
 * in float), Zevenbergen-Thorne's when zt, else Horn's; where the float
 * sums overflow (heights differing by more than 1e38) the double gradient
 * rounded to float, so a valid cell never gets a NaN slope. */
void	tp_grad_float(int zt, const double z[9], double fx, double fy,
	    float *dx, float *dy);

/* atan(a) in float for a >= 0 (+inf included), reduced as tp_grad_atan;
 * on |x| <= tan(pi/8) x + x^3 P(x^2), P of degree 3 fitted for this file
 * (near-minimax relative error at Chebyshev nodes), within 0.87 ulp of
 * float there. */
static inline float
tp_grad_atanf(float a)
{
	int big = a > 2.41421366f, mid = a > 0.414213568f;
	float num = big ? -1.0f : mid ? a - 1 : a;
	float den = big ? a : mid ? a + 1 : 1.0f;
	float base = big ? 1.57079637f : mid ? 0.785398185f : 0.0f;
	float x = num / den, t = x * x;
	float p = -0.333329558f + t * (0.199779257f + t * (-0.13879846f +
	    t * 0.0806029812f));

	return base + (x + x * t * p);
}

/* Slope in degrees, in float, of gradient (dx, dy). */
static inline float
tp_grad_slope_f(float dx, float dy)
{
	return tp_grad_atanf(sqrtf(dx * dx + dy * dy)) * 57.2957802f;
}

/* Slope in degrees of gradient (dx, dy). Only the tests call it: the reference,
 * in double, for the slope module's float and vector rows. */
static inline double
tp_grad_slope(double dx, double dy)
{
	return tp_grad_atan(sqrt(dx * dx + dy * dy)) * TP_GRAD_DEG;
}

/* Aspect in degrees clockwise from north, 0 <= a < 360, of the downhill
 * direction (-dx, -dy) of gradient (dx, dy); -1 when dx = dy = 0. The
 * mathematical angle in degrees is turned into an azimuth in float, as gdaldem
 * does, so the two agree to the last bit. Only the tests call it: the
 * reference, in double, for tp_grad_aspect_f and the slope module's vector
 * rows. */
static inline float
tp_grad_aspect(double dx, double dy)
{
	float a = (float)(tp_grad_atan2(-dy, -dx) / TP_GRAD_RAD);

	a = a > 90.0f ? 450.0f - a : 90.0f - a;
	a = a == 360.0f ? 0.0f : a;
	return dx == 0 && dy == 0 ? -1.0f : a;
}

/* tp_grad_aspect in float. The quadrant is turned in degrees, where 90,
 * 180 and 450 are exact, rather than in radians, where float's pi is off
 * by a third of an ulp: the azimuth is within 2 ulp of float. */
static inline float
tp_grad_aspect_f(float dx, float dy)
{
	float x = -dx, y = -dy, ax = fabsf(x), ay = fabsf(y), a;
	int swap = ay > ax;

	a = tp_grad_atanf((swap ? ax : ay) / (swap ? ay : ax)) * 57.2957802f;
	a = swap ? 90.0f - a : a;
	a = x < 0 ? 180.0f - a : a;
	a = y < 0 ? -a : a;		/* the angle from east, -180 .. 180 */
	a = a > 90.0f ? 450.0f - a : 90.0f - a;
	a = a == 360.0f ? 0.0f : a;
	return dx == 0 && dy == 0 ? -1.0f : a;
}

/* The sun for tp_grad_shade, from its azimuth and altitude in degrees. */
typedef struct tp_grad_sun {
	double	sin_alt;	/* sin altitude */
	double	kx, ky;		/* cos alt sin az, cos alt cos az */
} tp_grad_sun;

void	tp_grad_sun_init(tp_grad_sun *s, double azimuth, double altitude);

/* The cosine c of the angle between the sun and the normal of the ground
 * of gradient (dx, dy); negative where the ground faces away. */
static inline double
tp_grad_cos_sun(const tp_grad_sun *s, double dx, double dy)
{
	return (s->sin_alt - (dx * s->kx + dy * s->ky)) / sqrt(1 + dx * dx +
	    dy * dy);
}

/* gdaldem hillshade's grey of gradient (dx, dy): 1 + 254 c rounded half
 * up, 1 where c <= 0 (0 is left for nodata). */
static inline double
tp_grad_shade(const tp_grad_sun *s, double dx, double dy)
{
	double c = tp_grad_cos_sun(s, dx, dy);

	return c <= 0 ? 1 : floor(1 + 254 * c + 0.5);
}

/*
 * Zevenbergen and Thorne's profile and plan curvature of window z (heights
 * times zscale, in metres; cells ewres by nsres metres). With the
 * polynomial's coefficients
 *   D = ((z3 + z5) / 2 - z4) / ewres^2     E = ((z1 + z7) / 2 - z4) / nsres^2
 *   F = (z2 + z6 - z0 - z8) / (4 ewres nsres)
 *   G = (z5 - z3) / (2 ewres)              H = (z1 - z7) / (2 nsres)
 * profile = -2 (D G^2 + E H^2 + F G H) / (G^2 + H^2)
 * plan    =  2 (D H^2 + E G^2 - F G H) / (G^2 + H^2)
 * in 1/metres; both 0 where G = H = 0 (a flat spot has no direction).
 * Profile is the curvature along the slope, positive where the ground is
 * convex downhill (flow speeds up); plan is the curvature across it, of
 * the contour, negative on spurs (flow spreads) and positive in hollows.
 */
static inline void
tp_grad_curvature(const double z[9], double ewres, double nsres,
    double zscale, double *profile, double *plan)
{
	double D, E, F, G, H, g2, pro, pla;

	D = zscale * ((z[3] + z[5]) / 2 - z[4]) / (ewres * ewres);
	E = zscale * ((z[1] + z[7]) / 2 - z[4]) / (nsres * nsres);
	F = zscale * (z[2] + z[6] - z[0] - z[8]) / (4 * ewres * nsres);
	G = zscale * (z[5] - z[3]) / (2 * ewres);
	H = zscale * (z[1] - z[7]) / (2 * nsres);
	g2 = G * G + H * H;
	pro = -2 * (D * G * G + E * H * H + F * G * H) / g2;
	pla = 2 * (D * H * H + E * G * G - F * G * H) / g2;
	*profile = g2 == 0 ? 0 : pro;	/* both computed: no branch */
	*plan = g2 == 0 ? 0 : pla;
}

#endif
