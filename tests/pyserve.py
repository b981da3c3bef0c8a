"""pyserve.py - one Python with numpy for a whole test script.

Starting python3 and importing numpy costs a tenth of a second of CPU, and
a test script checks its streams with Python dozens of times. common.sh
starts this server once per script; tests/pyrun (which the scripts call
as $PY) hands it each command line and gets back the exit status.

    usage: python3 tests/pyserve.py QUEUE OWNER

QUEUE is a FIFO, and QUEUE.ready tells pyrun the server holds it open;
each request on it is one line: the process id of a pyrun waiting for its
answer and the numbers of its copies of its stdin, stdout and stderr (-1
for one that is closed). pyrun has written its arguments, NUL after
each, to QUEUE.PID.req and made the FIFO QUEUE.PID.st. For each request the
server forks a child, so every run starts from the same clean state (no
variable, import side effect, chdir, signal handler or open file of one run
reaches the next), and the child becomes what python3 ARGS would have been:
pyrun's working directory, environment (PYTHONPATH included), sys.argv,
and stdin (opened again through /proc). Its stdout and stderr go
to QUEUE.PID.out and QUEUE.PID.err (pyrun copies them on), except where
pyrun's own is a pipe or a terminal, which the child opens and writes
directly. The server waits for the child and writes its status to the
FIFO: the exit code, or 128 + the signal that killed it, as a shell shows.

Only -c CODE, - (the program on stdin) and -m MODULE are served; pyrun
runs python3 itself for anything else. The server exits when OWNER, the
process id of the script that started it, has gone. It is not that
script's child (common.sh starts it from a subshell that exits at once),
so a bare `wait` in a test never waits for it.
"""
import atexit
import builtins
import errno
import io
import os
import runpy
import select
import signal
import stat
import sys
import traceback
import types

import numpy  # noqa: F401  (the cost this server exists to pay once)

import tp  # noqa: F401  (beside this file; py's scripts import it)

BASE_PATH = [p for p in sys.path[1:]
             if p not in os.environ.get("PYTHONPATH", "").split(":")]


def open_fd(path, flags):
    """A new descriptor for path, or None; never blocks on a pipe with
    nobody at the other end (O_NONBLOCK only for the open, cleared after):
    opening a write end without a reader fails, and the output goes to a
    file instead, where python3 itself would have met a broken pipe."""
    try:
        fd = os.open(path, flags | os.O_NONBLOCK)
    except OSError:
        return None
    os.set_blocking(fd, True)
    return fd


def direct(path):
    """True when the file open as path is a pipe or a terminal, where a
    second descriptor writes where the first would. A regular file has an
    offset of its own per open, so the output goes through a file."""
    try:
        m = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(m) or stat.S_ISCHR(m)


def position(proc, n):
    """The offset of descriptor n of process proc: a file opened again
    starts at 0, where pyrun's stdin may have been read part way."""
    with open("%s/fdinfo/%d" % (proc, n)) as f:
        for line in f:
            if line.startswith("pos:"):
                return int(line.split()[1])
    return 0


def setup(pid, fds, base):
    """Become pyrun's python3: fds, working directory, environment. fds are
    the numbers of pyrun's copies of its stdin, stdout and stderr."""
    proc = "/proc/%d" % pid
    fd = open_fd("%s/fd/%d" % (proc, fds[0]), os.O_RDONLY) \
        if fds[0] >= 0 else None
    if fd is None:
        fd = os.open(os.devnull, os.O_RDONLY)
    elif stat.S_ISREG(os.fstat(fd).st_mode):
        os.lseek(fd, position(proc, fds[0]), os.SEEK_SET)
    os.dup2(fd, 0)
    os.close(fd)
    for n, ext in ((1, ".out"), (2, ".err")):
        src = "%s/fd/%d" % (proc, fds[n])
        fd = open_fd(src, os.O_WRONLY) if fds[n] >= 0 and direct(src) \
            else None
        if fd is None:
            fd = os.open(base + ext, os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
                         0o600)
        os.dup2(fd, n)
        os.close(fd)
    os.chdir(os.readlink(proc + "/cwd"))
    with open(proc + "/environ", "rb") as f:
        env = f.read().split(b"\0")
    os.environ.clear()
    for kv in env:
        k, sep, v = kv.partition(b"=")
        if sep:
            os.environb[k] = v
    pp = [p for p in os.environ.get("PYTHONPATH", "").split(":") if p]
    sys.path[:] = pp + BASE_PATH
    # Fresh text streams on the new descriptors, buffered as python3's are
    # (line by line only on a terminal).
    sys.stdin = io.TextIOWrapper(io.open(0, "rb", closefd=False))
    sys.stdout = io.TextIOWrapper(io.open(1, "wb", closefd=False),
                                  line_buffering=os.isatty(1))
    sys.stderr = io.TextIOWrapper(io.open(2, "wb", closefd=False),
                                  errors="backslashreplace",
                                  line_buffering=True)
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = \
        sys.stdin, sys.stdout, sys.stderr


def run_main(argv):
    """Run argv as python3 would after its options; return the exit code."""
    main = types.ModuleType("__main__")
    main.__dict__["__builtins__"] = builtins
    sys.modules["__main__"] = main
    try:
        if argv[0] == "-m":
            sys.argv = ["-m"] + argv[2:]
            sys.path.insert(0, os.getcwd())
            runpy._run_module_as_main(argv[1])
        else:
            if argv[0] == "-c":
                src, name, sys.argv = argv[1], "<string>", ["-c"] + argv[2:]
            else:
                src, name, sys.argv = sys.stdin.read(), "<stdin>", argv
            sys.path.insert(0, "")
            exec(compile(src, name, "exec"), main.__dict__)
        code = 0
    except SystemExit as e:
        code = exit_code(e.code)
    except BaseException as e:
        tb = e.__traceback__.tb_next	# not this function's frame
        traceback.print_exception(type(e), e, tb)
        code = 1
    return code


def exit_code(c):
    """SystemExit's code as python3's exit status."""
    if c is None:
        return 0
    if isinstance(c, int):
        return c & 0xff
    print(c, file=sys.stderr)
    return 1


def child(pid, fds, base):
    """Run one request in this forked child; never returns."""
    code = 1
    try:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        with open(base + ".req", "rb") as f:
            argv = [os.fsdecode(a) for a in f.read().split(b"\0")[:-1]]
        setup(pid, fds, base)
        code = run_main(argv)
        atexit._run_exitfuncs()
        try:
            if not sys.stdout.closed:
                sys.stdout.flush()
        except OSError:
            code = 120		# python3's status when stdout fails at exit
        if not sys.stderr.closed:
            sys.stderr.flush()
    except BaseException:
        traceback.print_exc()
    os._exit(code)


def alive(pid):
    """Whether process pid still runs."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def serve(queue, owner):
    q = os.open(queue, os.O_RDWR)	# ours too, so never end of file
    open(queue + ".ready", "w").close()
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *a: None)
    waiting = {}			# child pid -> pyrun's base path
    buf = b""
    while True:
        try:
            ready, _, _ = select.select([q, wake_r], [], [], 1.0)
        except InterruptedError:
            ready = []
        if q in ready:
            buf += os.read(q, 4096)
            *lines, buf = buf.split(b"\n")
            for line in lines:
                pid, *fds = (int(f) for f in line.split())
                base = "%s.%d" % (queue, pid)
                sys.stdout.flush()
                sys.stderr.flush()
                c = os.fork()
                if c == 0:
                    os.close(q)
                    os.close(wake_r)
                    os.close(wake_w)
                    child(pid, fds, base)
                waiting[c] = base
        if wake_r in ready:
            try:
                while os.read(wake_r, 512):
                    pass
            except BlockingIOError:
                pass
        reap(waiting)
        if not alive(owner):
            break


def reap(waiting):
    """Answer every finished child's pyrun with its status."""
    while waiting:
        try:
            c, st = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if c == 0:
            return
        base = waiting.pop(c, None)
        if base is None:
            continue
        code = os.waitstatus_to_exitcode(st)
        if code < 0:
            code = 128 - code
        try:
            fd = os.open(base + ".st", os.O_WRONLY | os.O_NONBLOCK)
            os.write(fd, b"%d\n" % code)
            os.close(fd)
        except OSError as e:
            if e.errno not in (errno.ENXIO, errno.ENOENT):
                raise


if __name__ == "__main__":
    serve(sys.argv[1], int(sys.argv[2]))
