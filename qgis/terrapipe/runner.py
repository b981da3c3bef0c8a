"""Finding the terrapipe programs, reading their --describe, and running a
chain of stages as one pipeline with progress and errors reported to a
QgsProcessingFeedback. No QGIS GUI here: qgis_process uses it headless."""
import json
import mmap
import os
import re
import shlex
import shutil
import subprocess

# The folder set in Processing's settings (provider.py), else $TERRAPIPE_BIN,
# else PATH.
_folder = [None]

PROGRESS = re.compile(r"^([a-z0-9_]+): (.*?) (\d+)% \(")
# Formats timport reads itself; any other raster comes in through GDAL.
TIMPORT_EXT = (".tif", ".tiff", ".asc", ".png", ".pgm", ".hgt")
# Beside a GeoTIFF this provider writes: the stream it came from, so a
# later stage reads every band and header line (SEALEVEL) unchanged.
STREAM_SIDECAR = ".tp"


def set_folder(folder):
    _folder[0] = folder or None


def folder():
    """The folder the programs are in, or None to search PATH."""
    return _folder[0] or os.environ.get("TERRAPIPE_BIN") or None


def program(name):
    """The path of program name, or None."""
    f = folder()
    if f:
        p = os.path.join(f, name)
        return p if os.access(p, os.X_OK) else None
    return shutil.which(name)


def is_terrapipe(path):
    """Whether path is a terrapipe program: its --version text is in it.
    Read, never run, so no other t* program on PATH is started."""
    try:
        with open(path, "rb") as f, \
                mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
            return m.find(b" (terrapipe) ") >= 0
    except (OSError, ValueError):
        return False


def programs():
    """The names of the terrapipe programs found, sorted."""
    f = folder()
    dirs = [f] if f else os.environ.get("PATH", "").split(os.pathsep)
    found = set()
    for d in dirs:
        if not os.path.isdir(d):
            continue
        for n in os.listdir(d):
            p = os.path.join(d, n)
            if re.fullmatch(r"t[a-z]+", n) and n not in found and \
                    os.access(p, os.X_OK) and program(n) == p and \
                    is_terrapipe(p):
                found.add(n)
    return sorted(found)


def describe(name):
    """PROGRAM --describe as a dict, or None when it gives none."""
    try:
        out = subprocess.run([program(name), "--describe"],
                             stdin=subprocess.DEVNULL, capture_output=True,
                             timeout=20, check=True)
        d = json.loads(out.stdout)
    except (OSError, ValueError, subprocess.SubprocessError):
        return None
    return d if d.get("program") == name else None


def stream_of(path):
    """The stages that turn raster file path into a stream, and the file to
    read on the first stage's stdin (None when the first stage opens it)."""
    side = path + STREAM_SIDECAR
    if os.path.exists(side) and \
            os.path.getmtime(side) >= os.path.getmtime(path) - 2:
        return [], side
    if path.lower().endswith(TIMPORT_EXT):
        return [["timport", path]], None
    return [["gdal_translate", "-q", "-of", "GTiff", path, "/vsistdout/"],
            ["timport", "-"]], None


def shell_words(stages, stdin=None, stdout=None):
    """The pipeline as the shell would run it, for the log."""
    line = " | ".join(" ".join(shlex.quote(w) for w in s) for s in stages)
    if stdin:
        line += " < " + shlex.quote(stdin)
    if stdout:
        line += " > " + shlex.quote(stdout)
    return line


class StageError(Exception):
    """A stage failed: its one-line message."""


def _resolve(argv):
    if argv[0].startswith("t"):
        p = program(argv[0])
        if p is None:
            raise StageError("%s: not found (PATH, or the terrapipe folder in "
                             "Processing's settings)" % argv[0])
        return [p] + list(argv[1:])
    return list(argv)


def run(stages, feedback=None, stdin=None, stdout=None, span=(0, 100)):
    """Run stages (argv lists) as one pipeline, stdin and stdout files or
    None. Progress lines (TERRAPIPE_PROGRESS) move feedback's bar within
    span, each stage an equal share; other stderr lines are logged. Raises
    StageError with the first failing stage's message."""
    if feedback is not None:
        feedback.pushCommandInfo(shell_words(stages, stdin, stdout))
    env = dict(os.environ, TERRAPIPE_PROGRESS="1",
               TERRAPIPE_PROGRESS_SECONDS="1")
    rfd, wfd = os.pipe()
    procs, prev, files = [], None, []
    try:
        if stdin is not None:
            prev = open(stdin, "rb")
            files.append(prev)
        for i, argv in enumerate(stages):
            last = i == len(stages) - 1
            if last and stdout is not None:
                out = open(stdout, "wb")
                files.append(out)
            else:
                out = subprocess.DEVNULL if last else subprocess.PIPE
            p = subprocess.Popen(_resolve(argv), stdin=prev or
                                 subprocess.DEVNULL, stdout=out, stderr=wfd,
                                 env=env)
            if prev is not None and prev not in files:
                prev.close()	# the next stage holds it now
            prev = p.stdout
            procs.append(p)
    except OSError as e:
        for p in procs:
            p.kill()
        raise StageError(str(e))
    finally:
        os.close(wfd)
    messages = _watch(rfd, stages, procs, feedback, span)
    for f in files:
        f.close()
    _check(stages, procs, messages, feedback)


def _watch(rfd, stages, procs, feedback, span):
    """Read the stages' stderr to its end, reporting as it comes."""
    names = [os.path.basename(s[0]) for s in stages]
    done = [0] * len(stages)
    messages = {}
    with os.fdopen(rfd, "r", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if feedback is not None and feedback.isCanceled():
                for p in procs:
                    p.kill()
                break
            m = PROGRESS.match(line)
            if m and m.group(1) in names:
                k = names.index(m.group(1))
                done[k] = int(m.group(3))
                if feedback is not None:
                    feedback.setProgress(span[0] + (span[1] - span[0]) *
                                         sum(done) / 100 / len(done))
                    if "% (" in line and " in " in line.rsplit(")", 1)[-1]:
                        feedback.pushInfo(line)
                continue
            prog = line.split(":", 1)[0]
            messages.setdefault(prog, []).append(line)
            if feedback is None:
                continue
            if prog in names:	# "prog: message": a note or the error
                feedback.pushWarning(line)
            else:		# the usage after a misuse, and the like
                feedback.pushDebugInfo(line)
    return messages


def _check(stages, procs, messages, feedback):
    for p in procs:
        p.wait()
    if feedback is not None and feedback.isCanceled():
        raise StageError("canceled")
    for argv, p in zip(stages, procs):
        if p.returncode == 0 or p.returncode == -13:	# SIGPIPE: a later one
            continue
        name = os.path.basename(argv[0])
        said = messages.get(name) or messages.get(argv[0]) or []
        raise StageError(said[-1] if said else
                         "%s: exit status %d" % (name, p.returncode))
    for argv, p in zip(stages, procs):
        if p.returncode != 0:
            raise StageError("%s: killed by signal %d" %
                             (os.path.basename(argv[0]), -p.returncode))


def header_bands(path):
    """The band names in the header of stream file path."""
    with open(path, "rb") as f:
        for raw in f:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            if line == "ENDHDR":
                break
            if line.startswith("BANDS "):
                return line.split()[1:]
    return []
