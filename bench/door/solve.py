"""Solves the challenges challenge.lua kept, as a browser would (SHA-256 of salt + n until it is the challenge), and
writes one enter body with its proof per line to proofs-0.txt and proofs-1.txt (one file per wrk thread).

    python3 solve.py DIR
"""
import base64
import glob
import hashlib
import json
import multiprocessing
import os
import sys


def solve(line):
    c = json.loads(line)
    salt = c["salt"]
    for n in range(c["maxnumber"] + 1):
        if hashlib.sha256((salt + str(n)).encode()).hexdigest() == c["challenge"]:
            proof = base64.b64encode(json.dumps({"algorithm": c["algorithm"], "challenge": c["challenge"],
                                                 "number": n, "salt": salt,
                                                 "signature": c["signature"]}).encode()).decode()
            return json.dumps({"proof": proof})
    return None


def main(directory):
    lines = []
    for name in sorted(glob.glob(os.path.join(directory, "challenges-*.txt"))):
        with open(name) as f:
            lines += [line for line in f if line.strip()]
    with multiprocessing.Pool(os.cpu_count()) as pool:
        bodies = [b for b in pool.map(solve, lines, chunksize=1000) if b]
    for thread in (0, 1):
        with open(os.path.join(directory, f"proofs-{thread}.txt"), "w") as f:
            f.write("\n".join(bodies[thread::2]) + "\n")
    print(len(bodies))


if __name__ == "__main__":
    main(sys.argv[1])
