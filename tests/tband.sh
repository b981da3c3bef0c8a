#!/bin/bash
# tband: keep, drop, reorder and rename bands.
. "$(dirname "$0")/common.sh"

# 2 x 2, bands a b c; row 0 is a: 1 2, b: 3 4, c: 5 6; row 1 a: 7 8 ...
echo 1 2 3 4 5 6 7 8 9 10 11 12 | mkstream 2 2 "a b c" "CELLSIZE 30" \
    "ORIGIN 500000 4649776" "CRS EPSG:32633" "FOO bar" > "$T/in.tp"
vals() { values "$1" | tr '\n' ' '; }

run_prog tband --keep c,a < "$T/in.tp" > "$T/k.tp"
assert_eq "keep reorders" "$(header "$T/k.tp" BANDS)" "c a"
assert_eq "keep values" "$(vals "$T/k.tp")" "5 6 1 2 11 12 7 8 "
assert_eq "history" "$(header "$T/k.tp" HISTORY)" "tband --keep c,a"
assert_eq "other keys" "$(header "$T/k.tp" FOO) $(header "$T/k.tp" CRS) $(header "$T/k.tp" ORIGIN)" \
    "bar EPSG:32633 500000 4649776"

run_prog tband -d b < "$T/in.tp" > "$T/d.tp"
assert_eq "drop" "$(header "$T/d.tp" BANDS) / $(vals "$T/d.tp")" "a c / 1 2 5 6 7 8 11 12 "

run_prog tband --rename a=height,c=moisture < "$T/in.tp" > "$T/r.tp"
assert_eq "rename" "$(header "$T/r.tp" BANDS)" "height b moisture"
assert_same "rename keeps the body" <(body "$T/in.tp") <(body "$T/r.tp")

run_prog tband -r a=b,b=a < "$T/in.tp" > "$T/s.tp"
assert_eq "swap names" "$(header "$T/s.tp" BANDS)" "b a c"

# keep, then drop, then rename (on the names left); options add up
run_prog tband -k c,b -k a -d b -r c=x < "$T/in.tp" > "$T/o.tp"
assert_eq "order of operations" "$(header "$T/o.tp" BANDS) / $(vals "$T/o.tp")" \
    "x a / 5 6 1 2 11 12 7 8 "

# keeping everything copies the body byte for byte
run_prog tband < "$T/in.tp" > "$T/id.tp"
assert_same "identity body" <(body "$T/in.tp") <(body "$T/id.tp")
run_prog tband -k a,b,c < "$T/in.tp" > "$T/id2.tp"
assert_same "keep all" "$T/id.tp" <(sed 's/^HISTORY tband --keep a,b,c$/HISTORY tband/' "$T/id2.tp")

# a larger stream (rows over a MiB in batches), through both paths
py 'write(np.arange(700 * 300 * 2, dtype="<f4").reshape(300, 2, 700), "p q")' > "$T/big.tp"
run_prog tband -k q < "$T/big.tp" > "$T/bq.tp"
assert_eq "big keep" "$(py '
v = grid(sys.argv[1]); q = floats(sys.argv[2]).reshape(300, 700)
print((v[:, 1, :] == q).all())' "$T/big.tp" "$T/bq.tp")" True
run_prog tband < "$T/big.tp" > "$T/bi.tp"
assert_same "big identity" <(body "$T/big.tp") <(body "$T/bi.tp")

# misuse: the lists themselves are wrong
expect_exit 2 "bad name" run_prog tband --keep Height < "$T/in.tp"
expect_exit 2 "empty name" run_prog tband --keep a,,b < "$T/in.tp"
expect_err 2 "given twice" "keep twice" run_prog tband --keep a,a < "$T/in.tp"
expect_err 2 "OLD=NEW" "rename syntax" run_prog tband --rename a < "$T/in.tp"
expect_exit 2 "rename to bad name" run_prog tband --rename a=B < "$T/in.tp"
expect_exit 2 "unknown option" run_prog tband --frob < "$T/in.tp"
expect_exit 2 "argument" run_prog tband a < "$T/in.tp"

# runtime: the stream does not have what was asked
expect_err 1 "no band 'x' in the stream (bands: a b c)" "unknown band" \
    run_prog tband --keep a,x < "$T/in.tp"
expect_err 1 "no band 'z'" "unknown drop" run_prog tband --drop z < "$T/in.tp"
expect_err 1 "no band 'b' to rename" "rename dropped" \
    run_prog tband -d b -r b=q < "$T/in.tp"
expect_err 1 "two bands named 'b'" "rename clash" run_prog tband -r a=b < "$T/in.tp"
expect_err 1 "the bands to drop (--drop) leave no band" "drop all" run_prog tband -d a,b,c < "$T/in.tp"

# truncated and trailing garbage, on the copying path and the reordering one
head -c -4 "$T/in.tp" > "$T/trunc.tp"
expect_err 1 "truncated stream.*row 1" "truncated identity" run_prog tband < "$T/trunc.tp"
expect_err 1 "truncated stream" "truncated keep" run_prog tband -k b < "$T/trunc.tp"
head -c -1000 "$T/big.tp" > "$T/btrunc.tp"
expect_err 1 "truncated stream.*row 299" "truncated big" run_prog tband < "$T/btrunc.tp"
{ cat "$T/in.tp"; printf 'junk'; } > "$T/trail.tp"
expect_err 1 "trailing data" "trailing identity" run_prog tband < "$T/trail.tp"
expect_err 1 "trailing data" "trailing keep" run_prog tband -k a < "$T/trail.tp"

# pipeline: rename then a stage that looks bands up by name
run_prog tband -k c -r c=height < "$T/in.tp" | run_prog tinfo --json --no-hist > "$T/p.json"
assert_eq "pipeline" "$("$PY" -c '
import json, sys; b = json.load(open(sys.argv[1]))["bands"]
print([(x["name"], x["min"], x["max"]) for x in b])' "$T/p.json")" "[('height', 5, 12)]"
finish
