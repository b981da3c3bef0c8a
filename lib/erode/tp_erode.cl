/*
 * tp_erode.cl - the batch-synchronous droplet erosion as OpenCL kernels.
 * The library builds it from two strings, lib/tp_droplet.h first (the
 * droplet, shared with the CPU path) and this file, embedded at build
 * time; it needs cl_khr_int64_base_atomics and is built with
 * -cl-fp32-correctly-rounded-divide-sqrt.
 */
#pragma OPENCL FP_CONTRACT OFF

/* Droplets first .. first + n - 1 of the batch over the snapshot z (sums:
 * tp_droplet_brush_sums); their totals go to tally (eroded, deposited, lost,
 * left, bad). */
__kernel void
tp_erode_drops(__global const float *z, __global long *delta,
    __global long *tally, __constant float *sums, struct tp_droplet_params p,
    long first, long n)
{
	long i = (long)get_global_id(0);
	struct tp_droplet_tally t = { 0, 0, 0, 0, 0 };

	if (i >= n)
		return;
	tp_droplet_run(&p, z, sums, delta, first + i, &t);
	if (t.eroded != 0)
		atom_add(&tally[0], t.eroded);
	if (t.deposited != 0)
		atom_add(&tally[1], t.deposited);
	if (t.lost != 0)
		atom_add(&tally[2], t.lost);
	if (t.left != 0)
		atom_add(&tally[3], t.left);
	if (t.bad != 0)
		atom_add(&tally[4], t.bad);
}

/* The batch's end: the deltas into the heights, and cleared; what the
 * floor puts back goes to tally[5]. */
__kernel void
tp_erode_apply(__global float *z, __global long *delta,
    __global long *tally, struct tp_droplet_params p, long ncells)
{
	long i = (long)get_global_id(0);
	long d, raised;

	if (i >= ncells)
		return;
	d = delta[i];
	if (d != 0) {
		z[i] = tp_droplet_apply(&p, z[i], d, &raised);
		delta[i] = 0;
		if (raised != 0)
			atom_add(&tally[5], raised);
	}
}
