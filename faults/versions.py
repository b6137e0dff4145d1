"""The fault runner's Python dependencies against faults/requirements.txt, the one place their tested versions are
written. faults/run.sh asks it which python3 to run with (`python3 faults/versions.py` exits 0 for one whose redis-py
is in range, 1 for one without redis-py, 3 for one whose version is out of range, saying why and how to install a good
one); faults/run.py logs the versions at start.
Standard library only, so that it answers where redis-py is missing too."""
import os
import re
import sys

REQUIREMENTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "requirements.txt")
INSTALL = "python3 -m pip install -r faults/requirements.txt (or, with Debian's python3: apt-get install -y python3-redis)"
_OPS = {">=": lambda v, b: v >= b, ">": lambda v, b: v > b, "<=": lambda v, b: v <= b, "<": lambda v, b: v < b,
        "==": lambda v, b: v == b, "!=": lambda v, b: v != b}


def version_tuple(text):
    """'8.1.0' -> (8, 1, 0); a pre-release or local suffix ('5.0.0b1', '4.3.4+deb') is cut at its first non-digit."""
    return tuple(int(re.match(r"\d*", part).group() or 0) for part in text.split(".")[:3])


def requirements(path=REQUIREMENTS):
    """{name: [(op, version), ...]} of the file's lines `name>=a,<b` (comments and blank lines skipped)."""
    out = {}
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            m = re.fullmatch(r"([A-Za-z0-9_.-]+)\s*(.*)", line)
            bounds = [re.fullmatch(r"\s*(>=|<=|==|!=|>|<)\s*([\w.]+)\s*", c)
                      for c in (m.group(2) if m else "?").split(",") if c.strip()]
            if not m or any(b is None for b in bounds):
                raise ValueError(f"{path}: cannot read the requirement {line!r}")
            out[m.group(1).lower()] = [(b.group(1), b.group(2)) for b in bounds]
    return out


def spec(bounds):
    return ",".join(op + v for op, v in bounds)


def check(path=REQUIREMENTS):
    """(status, text): 0 and the versions when the installed redis-py is in the file's range; 1 when there is none, 3
    when it is out of range, each with what to do."""
    bounds = requirements(path)["redis"]
    try:
        import redis
    except ImportError:
        return 1, f"{sys.executable} has no redis-py; the fault runner needs redis{spec(bounds)}: {INSTALL}"
    have = getattr(redis, "__version__", "0")
    if all(_OPS[op](version_tuple(have), version_tuple(v)) for op, v in bounds):
        return 0, f"python {sys.version.split()[0]} ({sys.executable}), redis-py {have} (tested: redis{spec(bounds)})"
    return 3, (f"{sys.executable} has redis-py {have}, outside the range the fault runner is tested with "
                   f"(redis{spec(bounds)}, faults/requirements.txt): {INSTALL}")


if __name__ == "__main__":
    status, text = check()
    if "--quiet" not in sys.argv[1:]:
        print(text, file=sys.stderr if status else sys.stdout)
    sys.exit(status)
