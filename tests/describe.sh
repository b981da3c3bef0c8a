#!/bin/bash
# describe: PROGRAM --describe for every program in bin/. It is JSON; it
# lists exactly the options --help lists, each with its help; every choice
# value it gives appears in that option's help or the usage; and the
# program takes every option it lists with a plausible value of its type
# (and each of a choice's values), never answering "unrecognized option",
# "requires an argument" or "is not one of".
. "$(dirname "$0")/common.sh"

progs=$(cd "$TP_BIN" && ls t* | sort)
n=0
for p in $progs; do
	n=$((n + 1))
	ok "$p --describe" run_prog "$p" --describe
	cp "$T/.out" "$T/$p.json"
	run_prog "$p" --help > "$T/$p.help" 2>&1
done
assert_eq "programs described" "$(ls "$T"/*.json | wc -l)" "$n"
[ "$n" -ge 23 ] && pass || fail "only $n programs in $TP_BIN"

# The JSON against the help: one line per problem.
"$PY" - "$T" $progs > "$T/problems" <<'PY'
import json, re, sys
d, progs = sys.argv[1], sys.argv[2:]
line = re.compile(r"^(?:  -[A-Za-z0-9], |      )--([a-z0-9-]+)", re.M)
for p in progs:
    try:
        j = json.load(open(f"{d}/{p}.json"))
    except ValueError as e:
        print(f"{p}: --describe is no JSON: {e}")
        continue
    text = open(f"{d}/{p}.help").read()
    usage = "\n".join(j["usage"])
    inhelp = set(line.findall(text)) - {"progress"}
    described = {o["name"] for o in j["options"]}
    for o in sorted(inhelp - described):
        print(f"{p}: --{o} in --help, not in --describe")
    for o in sorted(described - inhelp):
        print(f"{p}: --{o} in --describe, not in --help")
    if j["program"] != p or not j["purpose"] or j["io"] not in (
            "source", "filter", "sink"):
        print(f"{p}: program, purpose or io wrong: {j['program']!r}")
    for o in j["options"]:
        if not o["help"]:
            print(f"{p}: --{o['name']} has no help")
        for v in o.get("values", []):
            if not re.search(r"(?<![\w-])" + re.escape(v) + r"(?![\w-])",
                             o["help"] + "\n" + o["argument"] + "\n" + usage):
                print(f"{p}: --{o['name']} value {v} not in its help")
        if o["type"] == "choice" and not o.get("values"):
            print(f"{p}: --{o['name']} is a choice of no values")
PY
if [ -s "$T/problems" ]; then fail "$(cat "$T/problems")"; else pass; fi

# Each option with a plausible value: "KIND PROG WORDS" lines, one run
# each; only a choice's value must be one of its values (--only x is not).
: > "$T/in.tp"
echo x > "$T/file"
"$PY" - "$T" $progs > "$T/runs" <<'PY'
import json, sys
d, progs = sys.argv[1], sys.argv[2:]
plain = {"integer": "1", "number": "1", "pair": "1,1", "band": "height",
         "text": "x", "file_in": f"{d}/file", "file_out": f"{d}/out.x"}
for p in progs:
    for o in json.load(open(f"{d}/{p}.json"))["options"]:
        if o["name"] in ("help", "version", "describe"):
            continue
        flag = "--" + o["name"]
        if o["type"] == "flag":
            print("-", p, flag)
        elif o["type"] == "choice":
            for v in o["values"]:
                print("choice", p, (flag + "=" + v) if o["optional"]
                      else (flag + " " + v))
        elif o["optional"]:
            print("-", p, flag + "=" + plain[o["type"]])
        else:
            print("-", p, flag, plain[o["type"]])
        if o["short"] and o["type"] != "choice":
            w = "" if o["type"] == "flag" else " " + plain[o["type"]]
            print("-", p, "-" + o["short"] + w)
PY
bad=""
while read -r kind p words; do
	refused="unrecognized option|requires an argument|doesn't allow an argument|invalid option"
	[ "$kind" = choice ] && refused="$refused|is not one of"
	# shellcheck disable=SC2086
	(cd "$T" && timeout 20 "$TP_BIN/$p" $words out.x < "$T/in.tp" \
	    > "$T/run.out" 2> "$T/run.err")
	if grep -qE "$refused" "$T/run.err"; then
		bad="$bad
$p $words: $(head -c 200 "$T/run.err")"
	fi
done < "$T/runs"
if [ -z "$bad" ]; then pass; else fail "options refused:$bad"; fi
assert_eq "option runs" "$(wc -l < "$T/runs" | awk '$1 > 300 { print "many" }')" many

# --describe is a common option: no program's HISTORY or output sees it.
expect_err 2 "unrecognized option" "tnoise --describex" run_prog tnoise --describex
finish
