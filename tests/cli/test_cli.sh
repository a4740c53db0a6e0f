#!/bin/sh
# The clhls command line: `boards` lists the default board, `build --no-model
# --dump-after=schedule` prints the scheduled IR and the cache entry, a bad kernel
# exits 1 with its diagnostic, an unknown pass name is refused, and a bad invocation
# prints the usage. Every command's --help; the exit statuses 0 (built), 1 (the user's
# error: usage, board, file, source, option) and 2 (a tool failed: no Verilator); -D
# and -I written into the build options as a host program writes them; relative -I
# directories of --options, and the headers' contents in the cache key; the steps as
# plain lines when stderr is no terminal, one line for a cache hit, nothing at all in
# the runtime's --result mode; Ctrl-C during a build leaves nothing behind;
# `clhls cache` list, size and clean, which removes only
# entries (never files that are not the cache's, nor a running build's directory) and
# does not count listing as a use. A changed template include file makes a new cache
# entry.
set -u
clhls=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); kernel=$2
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tmp=$(cd "$tmp" && pwd -P)
# run STATUS COMMAND...: runs COMMAND (stdout in $tmp/out, stderr in $tmp/err) and
# fails unless it exits with STATUS.
run() {
    want=$1; shift
    "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    [ "$got" -eq "$want" ] || fail "$* exited $got, expected $want: $(cat "$tmp/out" "$tmp/err")"
}
# A kernel source no earlier run has built (its cache key is new).
fresh_kernel() {
    printf '/* %s */\n__kernel void %s(__global int *a)\n{\n    a[get_global_id(0)] += 1;\n}\n' \
        "$$ $(date +%s%N)" "$2" > "$1"
}

out=$("$clhls" boards) || fail "clhls boards exited $?"
echo "$out" | grep -q "^sim_dc .*(default)$" || fail "boards: $out"
# Out of memory while listing the boards: a message and status 2, nothing else.
out=$(CLHLS_FAIL_ALLOC_AFTER=0 "$clhls" boards 2>&1)
[ $? -eq 2 ] || fail "boards out of memory: status"
echo "$out" | grep -q "^clhls: out of memory listing the boards$" || fail "boards out of memory: $out"
out=$("$clhls" build "$kernel" --no-model --dump-after=schedule 2>&1) || fail "build: $out"
echo "$out" | grep -q "^kernel vadd (3 args, 3 load-store units" || fail "dump: $out"
echo "$out" | grep -q "entry: " || fail "no cache entry: $out"
printf '__kernel void k(__global int *a, __local int *t)\n{\n    async_work_group_copy(t, a, 2, 0);\n}\n' > "$tmp/async.cl"
run 1 "$clhls" build "$tmp/async.cl" --no-model
grep -q "^async.cl:3:5: error: OpenCL builtin 'async_work_group_copy' is not supported yet" "$tmp/err" ||
    fail "bad kernel: $(cat "$tmp/err")"
out=$("$clhls" build "$kernel" --no-model --dump-after=nosuchpass 2>&1) && fail "unknown pass accepted"
echo "$out" | grep -q "no such pass (passes: lower cfg widen ifconvert common memorder banks nodes pipeline narrow schedule)" || fail "pass: $out"

# --help: the usage with every option on stdout, nothing on stderr, status 0.
for cmd in build compile link boards regmap cache; do
    run 0 "$clhls" $cmd --help
    grep -q "^usage: clhls $cmd" "$tmp/out" || fail "$cmd --help: $(cat "$tmp/out")"
    [ -s "$tmp/err" ] && fail "$cmd --help wrote to stderr: $(cat "$tmp/err")"
done
run 0 "$clhls" build --help
for opt in --board -D -I --options -o --no-model --dump-after= --source-name --result \
           --scratch --help; do
    grep -q -- " $opt" "$tmp/out" || fail "build --help does not list $opt"
done
run 0 "$clhls" cache --help
for opt in list size --bytes clean --older-than --all --dry-run; do
    grep -q -- " $opt" "$tmp/out" || fail "cache --help does not list $opt"
done
run 0 "$clhls" --help
grep -q "^usage: clhls COMMAND" "$tmp/out" || fail "--help: $(cat "$tmp/out")"

# Bad usage: the usage on stderr, nothing on stdout, status 1.
for bad in "frobnicate" "" "build" "build $kernel --frobnicate" "build $kernel -o" \
           "build $kernel --no-model -o $tmp/x.clbin" "compile $kernel" "link" \
           "boards extra" "regmap" "regmap --html" "cache frobnicate" \
           "cache clean --all --older-than 3" "cache size --all"; do
    run 1 "$clhls" $bad
    grep -q "^usage: clhls" "$tmp/err" || fail "clhls $bad: no usage on stderr: $(cat "$tmp/err")"
    [ -s "$tmp/out" ] && fail "clhls $bad wrote to stdout: $(cat "$tmp/out")"
done

# The user's errors: status 1 with a message.
run 1 "$clhls" build "$kernel" --no-model --board nosuchboard
grep -q "unknown board 'nosuchboard'" "$tmp/err" || fail "board: $(cat "$tmp/err")"
run 1 "$clhls" build "$tmp/nosuchfile.cl" --no-model
grep -q "cannot read $tmp/nosuchfile.cl" "$tmp/err" || fail "file: $(cat "$tmp/err")"
run 1 "$clhls" build "$kernel" --no-model --options "-frobnicate"
grep -q "unknown build option '-frobnicate'" "$tmp/err" || fail "option: $(cat "$tmp/err")"
run 1 "$clhls" build "$kernel" --no-model -I "$tmp/nosuchdir"
grep -q "no such directory" "$tmp/err" || fail "-I: $(cat "$tmp/err")"
run 1 "$clhls" cache clean --older-than soon
# A tool failure: status 2 (and 1, "not built", in the runtime's --result mode).
fresh_kernel "$tmp/tool.cl" tool
run 2 env CLHLS_VERILATOR=/bin/false "$clhls" build "$tmp/tool.cl"
grep -q "building the simulation model failed" "$tmp/err" || fail "tool: $(cat "$tmp/err")"
grep -q "^clhls: Verilator failed in" "$tmp/err" || fail "failed step: $(cat "$tmp/err")"
run 1 env CLHLS_VERILATOR=/bin/false "$clhls" build "$tmp/tool.cl" --source-name "<source>" \
    --result "$tmp/tool.json"
grep -q '"status":-4' "$tmp/tool.json" || fail "tool result: $(cat "$tmp/tool.json")"

# -D and -I: build options as a host program writes them (-I made absolute).
mkdir "$tmp/inc"
printf '#define OFFSET 5\n' > "$tmp/inc/offset.h"
printf '#include "offset.h"\n__kernel void di(__global int *a)\n{\n    a[get_global_id(0)] += SCALE + OFFSET;\n}\n' > "$tmp/di.cl"
(cd "$tmp" && run 1 "$clhls" build di.cl --no-model) || exit 1
grep -q "^di.cl:1:10: fatal error: 'offset.h' file not found" "$tmp/err" ||
    fail "no -I: $(cat "$tmp/err")"
(cd "$tmp" && run 0 "$clhls" build di.cl --no-model -D SCALE=2 -I inc) || exit 1
entry=$(sed -n 's/^  entry: //p' "$tmp/out")
grep -q "\"options\":.*\"-D SCALE=2 -I $tmp/inc\"" "$entry/metadata.json" ||
    fail "-D -I options: $(grep options "$entry/metadata.json")"
run 0 "$clhls" build "$tmp/di.cl" --no-model --options "-D SCALE=2 -I $tmp/inc" # as it is
(cd "$tmp" && run 0 "$clhls" build di.cl --no-model -DSCALE=2 --options "-cl-mad-enable" -Iinc) || exit 1
entry=$(sed -n 's/^  entry: //p' "$tmp/out")
grep -q "\"options\":.*\"-DSCALE=2 -cl-mad-enable -I$tmp/inc\"" "$entry/metadata.json" ||
    fail "glued -D -I options: $(grep options "$entry/metadata.json")"
# Relative -I directories of --options too, against the working directory; the headers'
# contents are part of the build: edited, a new entry; edited back, the first (a hit),
# found by the list of the headers its key's last build read.
(cd "$tmp" && run 0 "$clhls" build di.cl --no-model --options "-DSCALE=3 -I inc") || exit 1
grep -q "(cache hit)" "$tmp/out" && fail "relative -I: a hit before any build"
first=$(sed -n 's/^  entry: //p' "$tmp/out")
grep -qF -- "\"-DSCALE=3 -I $tmp/inc\"" "$first/metadata.json" ||
    fail "relative -I in --options: $(grep options "$first/metadata.json")"
printf '#define OFFSET 6\n' > "$tmp/inc/offset.h"
(cd "$tmp" && run 0 "$clhls" build di.cl --no-model --options "-DSCALE=3 -I inc") || exit 1
grep -q "(cache hit)" "$tmp/out" && fail "an edited header: the build of its old contents"
second=$(sed -n 's/^  entry: //p' "$tmp/out")
[ "$second" != "$first" ] || fail "an edited header: the same entry"
printf '#define OFFSET 5\n' > "$tmp/inc/offset.h"
(cd "$tmp" && run 0 "$clhls" build di.cl --no-model --options "-DSCALE=3 -I inc") || exit 1
grep -q "(cache hit)" "$tmp/out" || fail "a header edited back: no hit: $(cat "$tmp/out")"
[ "$(sed -n 's/^  entry: //p' "$tmp/out")" = "$first" ] || fail "a header edited back: another entry"
grep -lqx "$tmp/inc/offset.h" "$CLHLS_CACHE_DIR"/inc-* || fail "no list of the headers read"

# Steps: plain lines off a terminal, one line for a cache hit, nothing with --result.
fresh_kernel "$tmp/steps.cl" steps
run 0 "$clhls" build "$tmp/steps.cl" --no-model
for line in "front end (clang) ..." "front end (clang) done in" "hardware passes ..." \
            "hardware passes done in" "Verilog and metadata ..." "Verilog and metadata done in"; do
    grep -q "^clhls: $line" "$tmp/err" || fail "no step '$line': $(cat "$tmp/err")"
done
[ "$(tr -d '\r\033' < "$tmp/err" | wc -c)" -eq "$(wc -c < "$tmp/err")" ] ||
    fail "control characters off a terminal"
run 0 "$clhls" build "$tmp/steps.cl" --no-model
[ "$(cat "$tmp/err")" = "clhls: cache hit: built before, nothing to do" ] ||
    fail "cache hit: $(cat "$tmp/err")"
grep -q "(cache hit)" "$tmp/out" || fail "cache hit: $(cat "$tmp/out")"
fresh_kernel "$tmp/quiet.cl" quiet
run 0 "$clhls" build "$tmp/quiet.cl" --no-model --source-name "<source>" --result "$tmp/quiet.json"
[ -s "$tmp/out" ] || [ -s "$tmp/err" ] && fail "--result printed: $(cat "$tmp/out" "$tmp/err")"
grep -q '"status":0' "$tmp/quiet.json" || fail "--result: $(cat "$tmp/quiet.json")"
# The runtime's clCompileProgram and clLinkProgram invocations (host-runtime/program.c,
# compiler.c): accepted, silent, status 0.
mkdir "$tmp/job"
run 0 "$clhls" compile "$tmp/quiet.cl" -o "$tmp/job/object.bc" --board sim_dc --source-name "<source>" \
    --options "-I $tmp/inc" --result "$tmp/job/compile.json" --scratch "$tmp/job"
run 0 "$clhls" link "$tmp/job/object.bc" --board sim_dc --options "-cl-fast-relaxed-math" --library \
    -o "$tmp/job/library.bc" --result "$tmp/job/library.json" --scratch "$tmp/job"
run 0 "$clhls" link "$tmp/job/library.bc" --board sim_dc --options "" --no-model \
    --result "$tmp/job/link.json" --scratch "$tmp/job"
[ -s "$tmp/out" ] || [ -s "$tmp/err" ] && fail "--result printed: $(cat "$tmp/out" "$tmp/err")"
for r in compile library link; do
    grep -q '"status":0' "$tmp/job/$r.json" || fail "$r: $(cat "$tmp/job/$r.json")"
done

# Ctrl-C in the middle of a build (the C++ compiler, here a sleeping script, and clhls
# in one process group, as at a terminal): the step fails, clhls says so and dies of
# SIGINT, and nothing is left in the cache.
printf '#!/bin/sh\nexec sleep 30\n' > "$tmp/slow-cxx"
chmod +x "$tmp/slow-cxx"
fresh_kernel "$tmp/stop.cl" stop
CLHLS_CACHE_DIR="$tmp/stop-cache" CLHLS_CXX="$tmp/slow-cxx" python3 - "$clhls" "$tmp/stop.cl" <<'PY' ||
import os, signal, subprocess, sys, time
p = subprocess.Popen([sys.argv[1], "build", sys.argv[2]], stdout=subprocess.DEVNULL,
                     stderr=subprocess.PIPE, start_new_session=True)
seen = b""
for line in p.stderr:
    seen += line
    if line.endswith(b" ...\n") and b"Verilator runtime" in line:
        break
time.sleep(1) # the C++ compilers started
os.killpg(p.pid, signal.SIGINT)
seen += p.stderr.read()
p.wait(timeout=20)
assert p.returncode == -signal.SIGINT, (p.returncode, seen)
assert b"clhls: Verilator runtime (once) failed in" in seen, seen
assert seen.endswith(b"clhls: interrupted\n"), seen
left = [n for n in os.listdir(os.environ["CLHLS_CACHE_DIR"]) if n != "verilated-runtime"]
assert not left, left
PY
    fail "Ctrl-C"

# clhls cache, in a cache of its own with things that are not the cache's.
export CLHLS_CACHE_DIR="$tmp/cache"
fresh_kernel "$tmp/old.cl" oldkernel
fresh_kernel "$tmp/new.cl" newkernel
run 0 "$clhls" build "$tmp/old.cl" --no-model
old=$(sed -n 's/^  entry: //p' "$tmp/out")
run 0 "$clhls" build "$tmp/new.cl" --no-model
new=$(sed -n 's/^  entry: //p' "$tmp/out")
mkdir "$tmp/outside" "$CLHLS_CACHE_DIR/keep" "$CLHLS_CACHE_DIR/verilated-runtime" \
      "$CLHLS_CACHE_DIR/tmp-running" "$CLHLS_CACHE_DIR/tmp-interrupted"
for f in outside/file cache/keep/file cache/notes.txt cache/verilated-runtime/lib.a \
         cache/tmp-running/file cache/tmp-interrupted/file; do
    echo data > "$tmp/$f"
done
ln -s "$tmp/outside" "$CLHLS_CACHE_DIR/0123456789abcdef0123456789abcdef"
touch -d "3 days ago" "$CLHLS_CACHE_DIR/tmp-interrupted/file" "$CLHLS_CACHE_DIR/tmp-interrupted"
run 0 "$clhls" cache list
grep -q "^2 entries, .* in $CLHLS_CACHE_DIR$" "$tmp/out" || fail "list: $(cat "$tmp/out")"
grep -q "^$(basename "$old") *sim_dc .* oldkernel (no model)$" "$tmp/out" || fail "list: $(cat "$tmp/out")"
grep -q "^$(basename "$new") *sim_dc .* newkernel (no model)$" "$tmp/out" || fail "list: $(cat "$tmp/out")"
grep -q "^2 scratch directories" "$tmp/out" || fail "list scratch: $(cat "$tmp/out")"
run 0 "$clhls" cache
grep -q "^2 entries" "$tmp/out" || fail "cache: $(cat "$tmp/out")"
run 0 "$clhls" cache size
grep -q " in $CLHLS_CACHE_DIR (2 entries: " "$tmp/out" || fail "size: $(cat "$tmp/out")"
run 0 "$clhls" cache size --bytes
bytes=$(cat "$tmp/out")
[ "$bytes" -gt "$(du -sb "$old" | cut -f1)" ] || fail "size --bytes: $bytes"
# The old entry was last used three days ago; listing it is no use.
find "$old" -exec touch -a -m -d "3 days ago" {} +
run 0 "$clhls" cache list
run 0 "$clhls" cache clean --older-than 2 --dry-run
grep -q "^would remove $(basename "$old") (oldkernel" "$tmp/out" || fail "dry run: $(cat "$tmp/out")"
grep -q "^would remove 1 entry and 1 scratch directory" "$tmp/out" || fail "dry run: $(cat "$tmp/out")"
[ -d "$old" ] && [ -d "$CLHLS_CACHE_DIR/tmp-interrupted" ] || fail "the dry run removed something"
run 0 "$clhls" cache clean --older-than 2
grep -q "^removed 1 entry and 1 scratch directory" "$tmp/out" || fail "clean: $(cat "$tmp/out")"
[ -e "$old" ] && fail "clean --older-than left the old entry"
[ -e "$CLHLS_CACHE_DIR/tmp-interrupted" ] && fail "clean left the interrupted build's directory"
[ -d "$new" ] || fail "clean --older-than removed the new entry"
run 0 "$clhls" cache clean --all
grep -q "^removed 1 entry and 0 scratch directories" "$tmp/out" || fail "clean --all: $(cat "$tmp/out")"
[ -e "$new" ] && fail "clean --all left an entry"
for f in outside/file cache/keep/file cache/notes.txt cache/verilated-runtime/lib.a \
         cache/tmp-running/file cache/0123456789abcdef0123456789abcdef/file; do
    [ -f "$tmp/$f" ] || fail "clean removed $f, which is no entry"
done
run 0 "$clhls" cache list
grep -q "^no entries in $CLHLS_CACHE_DIR$" "$tmp/out" || fail "list after clean: $(cat "$tmp/out")"
# The cache key covers the templates and the files they include: after a change to an
# include file the same program is a new build.
cp -r "$(dirname "$kernel")/../../rtl-templates" "$tmp/rtl"
run 0 env CLHLS_RTL_DIR="$tmp/rtl" "$clhls" build "$kernel" --no-model
first=$(cat "$tmp/out" "$tmp/err" | sed -n 's/^  entry: //p')
printf '// changed\n' >> "$tmp/rtl/clhls_sim_checks.vh"
run 0 env CLHLS_RTL_DIR="$tmp/rtl" "$clhls" build "$kernel" --no-model
second=$(cat "$tmp/out" "$tmp/err" | sed -n 's/^  entry: //p')
[ -n "$first" ] && [ "$first" != "$second" ] || fail "a changed include file, the same entry: $first"
echo PASS
