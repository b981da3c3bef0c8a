#!/bin/bash
# terode --device gpu (OpenCL; pocl's CPU device where there is no GPU)
# against --device cpu --batch-sync: the same bytes on several inputs and
# option sets, on every run and thread count; the batch-synchronous model
# against the sequential one; device selection and its messages.
. "$(dirname "$0")/common.sh"

# 64 x 48 hills in [0,1], the same with a hole of NaN cells, and in
# "metres" (x 1024).
py - "$T" <<'EOF2'
t = sys.argv[1]
y, x = np.mgrid[0:48, 0:64].astype(np.float64)
z = 0.5 + 0.2 * np.sin(x * 0.11) * np.cos(y * 0.07) + 0.1 * np.sin((x + 2 * y) * 0.23)
z = (z - z.min()) / (z.max() - z.min())
write(z, "height", ["CELLSIZE 30"], "%s/hills.tp" % t)
write(z * 1024, "height", ["CELLSIZE 30"], "%s/metres.tp" % t)
h = z.copy(); h[20:26, 30:37] = np.nan; h[0, :] = np.nan
write(h, "height", ["CELLSIZE 30"], "%s/holes.tp" % t)
EOF2
tnoise -q -s 160x128 -S 9 > "$T/noise.tp"

GPU="--device gpu --cl-device 0"

# same_as_cpu DESC INPUT OPTIONS...: the OpenCL body equals the CPU
# batch-synchronous body, and the output changed.
same_as_cpu() {
	local d=$1 in=$2; shift 2
	ok "$d: cpu" run_prog terode -q "$@" --device cpu --batch-sync < "$in"
	body "$T/.out" > "$T/c.body"
	ok "$d: gpu" run_prog terode -q "$@" $GPU < "$in"
	body "$T/.out" > "$T/g.body"
	assert_same "$d: OpenCL = --batch-sync" "$T/c.body" "$T/g.body"
	body "$in" > "$T/in.body"
	cmp -s "$T/in.body" "$T/c.body"; assert_eq "$d: eroded" $? 1
}
same_as_cpu "defaults" "$T/hills.tp" -n 6000
same_as_cpu "radius 1" "$T/hills.tp" -n 6000 -r 1 -s 3
same_as_cpu "radius 6, inertia 0.5" "$T/noise.tp" -n 8000 -r 6 --inertia 0.5
same_as_cpu "no keep-mass" "$T/hills.tp" -n 6000 --no-keep-mass --lifetime 10
same_as_cpu "sea level" "$T/hills.tp" -n 6000 --sea 0.35
same_as_cpu "NaN cells" "$T/holes.tp" -n 6000 --batch 1000
same_as_cpu "metres, zscale auto" "$T/metres.tp" -n 6000 --zscale auto
same_as_cpu "sediment band (strided plane)" "$T/hills.tp" -n 6000 --sediment
same_as_cpu "thermal after" "$T/noise.tp" -n 4000 --thermal 2

# Two OpenCL runs, and the CPU path on 1 and 2 threads: one set of bytes.
ok "gpu run 1" run_prog terode -q -n 8000 -S 11 $GPU < "$T/noise.tp"; body "$T/.out" > "$T/g1"
ok "gpu run 2" run_prog terode -q -n 8000 -S 11 $GPU < "$T/noise.tp"; body "$T/.out" > "$T/g2"
assert_same "two OpenCL runs" "$T/g1" "$T/g2"
ok "cpu -j 1" run_prog terode -q -n 8000 -S 11 --batch-sync -j 1 < "$T/noise.tp"; body "$T/.out" > "$T/c1"
ok "cpu -j 2" run_prog terode -q -n 8000 -S 11 --batch-sync -j 2 < "$T/noise.tp"; body "$T/.out" > "$T/c2"
assert_same "-j 1 and -j 2" "$T/c1" "$T/c2"
assert_same "-j 1 and OpenCL" "$T/c1" "$T/g1"

# The NaN cells stay NaN, the rest finite and not below the lowest input.
ok "holes" run_prog terode -q -n 6000 $GPU < "$T/holes.tp"
py '
a, b = floats(sys.argv[1]), floats(sys.argv[2])
n = np.isnan(a)
sys.exit(0 if (np.isnan(b) == n).all() and (b[~n] >= np.nanmin(a)).all() else 1)' \
    "$T/holes.tp" "$T/.out"
assert_eq "NaN cells kept, floor kept" $? 0

# --stats: the device line, and the grid lost what the summary says left it.
ok "stats" run_prog terode -n 6000 --stats $GPU < "$T/hills.tp"
grep -q '^terode: OpenCL device 0: ' "$T/.err"; assert_eq "device named" $? 0
lost=$(sed -n 's/.*lost \([0-9.e+-]*\)$/\1/p' "$T/.err")
eroded=$(sed -n 's/.*eroded \([0-9.e+-]*\),.*/\1/p' "$T/.err")
deposited=$(sed -n 's/.*deposited \([0-9.e+-]*\),.*/\1/p' "$T/.err")
assert_near "eroded = deposited + lost" "$eroded" \
    "$(awk -v a="$deposited" -v b="$lost" 'BEGIN { printf "%.9g", a + b }')" 1e-4
change=$(py 'print(floats(sys.argv[2]).astype(np.float64).sum() - floats(sys.argv[1]).astype(np.float64).sum())' \
    "$T/hills.tp" "$T/.out")
raised=$(sed -n 's/^terode: batch-synchronous: \([0-9.e+-]*\) put back where batches took cells below the lowest land$/\1/p' "$T/.err")
assert_near "grid lost what left it, less what the floor put back" "$change" \
    "$(awk -v a="$lost" -v b="$raised" 'BEGIN { printf "%.9g", b - a }')" 1e-4

# Batch-synchronous against sequential on the noise terrain, one droplet a
# cell, the default batch (320 here): the change maps correlate above 0.9
# and the volumes eroded stay within 5% (measured: 2.0% apart, correlation
# 0.995; a model that differs, keep-mass at the end point alone, was 36%
# apart, 0.92, at capacity 4).
ok "sequential" run_prog terode -q < "$T/noise.tp"; cp "$T/.out" "$T/seq.tp"
ok "batch-sync" run_prog terode -q --batch-sync < "$T/noise.tp"; cp "$T/.out" "$T/bat.tp"
py '
z0 = floats(sys.argv[1]).astype(np.float64)
ds = floats(sys.argv[2]) - z0
db = floats(sys.argv[3]) - z0
vs, vb = -ds[ds < 0].sum(), -db[db < 0].sum()
r = np.corrcoef(ds, db)[0, 1]
print("batch-sync vs sequential: volume eroded %.4f vs %.4f, mean |dh| %.6f vs %.6f, correlation %.4f"
      % (vb, vs, np.abs(db).mean(), np.abs(ds).mean(), r))
sys.exit(0 if r > 0.9 and abs(vb / vs - 1) < 0.05 else 1)' \
    "$T/noise.tp" "$T/seq.tp" "$T/bat.tp"
assert_eq "close to the sequential model" $? 0

# Device selection: --list-devices numbers them; auto without a GPU is the
# plain CPU path; without a runtime gpu names the packages and auto still
# runs on the CPU.
ok "list" run_prog terode --list-devices
grep -q '^0: .*: .* (.*, .* MiB)$' "$T/.out"; assert_eq "device 0 listed" $? 0
ok "default" run_prog terode -q -n 3000 < "$T/hills.tp"; body "$T/.out" > "$T/d.body"
mkdir -p "$T/novendors"
OCL_ICD_VENDORS=$T/novendors ok "auto, no runtime" run_prog terode -q -n 3000 --device auto < "$T/hills.tp"
body "$T/.out" > "$T/a.body"
assert_same "auto without a runtime is the CPU path" "$T/d.body" "$T/a.body"
if ! grep -q '(GPU,' <(terode --list-devices); then
	ok "auto, no GPU" run_prog terode -q -n 3000 --device auto < "$T/hills.tp"
	body "$T/.out" > "$T/a.body"
	assert_same "auto without a GPU is the CPU path" "$T/d.body" "$T/a.body"
fi
OCL_ICD_VENDORS=$T/novendors expect_exit 1 "gpu, no runtime" run_prog terode -q --device gpu < "$T/hills.tp"
assert_eq "no runtime message" "$(cat "$T/.err")" "terode: no OpenCL runtime: install pocl-opencl-icd (OpenCL on the CPU) or the GPU vendor's ICD (such as nvidia-opencl-icd)"
OCL_ICD_VENDORS=$T/novendors expect_exit 1 "list, no runtime" run_prog terode --list-devices
grep -q '^terode: no OpenCL runtime: install pocl-opencl-icd' "$T/.err"; assert_eq "list: no runtime message" $? 0

# Misuse and refusals.
expect_exit 2 "bad device" run_prog terode --device tpu < "$T/hills.tp"
assert_eq "bad device message" "$(head -n 1 "$T/.err")" "terode: --device: 'tpu' is not one of cpu, gpu, auto"
expect_exit 2 "cl-device with cpu" run_prog terode --device cpu --cl-device 0 < "$T/hills.tp"
assert_eq "cl-device with cpu message" "$(head -n 1 "$T/.err")" "terode: --cl-device: OpenCL runs with --device gpu or auto, not cpu"
expect_exit 1 "no such device" run_prog terode -q --cl-device 99 < "$T/hills.tp"
grep -q '^terode: OpenCL device 99 does not exist: there [a-z]* [0-9]* (0 \.\. [0-9]*)$' "$T/.err"
assert_eq "no such device message" $? 0
# Heights spanning 2^34 with zscale 1: 30 steps x 2^34 x 1e6 = 5.15e17
# units could pass (2^63 - 1) / (2 x 64) = 7.21e16 units a droplet
# (batches of 64 on this small grid).
py 'write(floats(sys.argv[1]).reshape(48, 64).astype(np.float64) * 2**34, "height", [], sys.argv[2])' \
    "$T/hills.tp" "$T/huge.tp"
expect_exit 1 "fixed-point overflow refused" run_prog terode -q --batch-sync < "$T/huge.tp"
grep -q '^terode: fixed-point range: a droplet could take 5.15e+17 units (lifetime 30 x height range 1.71798692e+10 x 1000000 units each), more than the 7.21e+16 a batch of 64 allows without overflow; use a smaller batch or a larger zscale$' "$T/.err"
assert_eq "overflow message" $? 0
expect_exit 1 "fixed-point overflow refused (gpu)" run_prog terode -q $GPU < "$T/huge.tp"
grep -q '^terode: fixed-point range: ' "$T/.err"; assert_eq "overflow message (gpu)" $? 0
cmp -s /dev/null "$T/.out"; assert_eq "nothing written on refusal" $? 0

finish
