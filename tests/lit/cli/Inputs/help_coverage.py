"""Checks that every option and MGPUSIM_* variable that `gpuinterp --help` lists is used by some
lit test's RUN line and named in README.md. Prints each one missing and exits 1 on any.

usage: help_coverage.py GPUINTERP ROOT"""
import glob
import os
import re
import subprocess
import sys

gpuinterp, root = sys.argv[1], sys.argv[2]
help_text = subprocess.run([gpuinterp, "--help"], check=True, capture_output=True, text=True).stdout

names = []
for line in help_text.splitlines():
    m = re.match(r"  (-[-a-z]*|MGPUSIM_[A-Z_]+)", line)
    if m:
        names.append(m.group(1))
names += re.findall(r"(--no-[a-z-]+)", help_text)  # aliases given in the descriptions
names = sorted(set(names))
if len(names) < 20:
    sys.exit(f"help_coverage.py: only {len(names)} options found in --help: {names}")

runs = []
for path in glob.glob(os.path.join(root, "tests", "lit", "**", "*"), recursive=True):
    if path.endswith((".mlir", ".test")) and os.path.isfile(path):
        with open(path, encoding="utf-8", errors="replace") as f:
            runs += [l for l in f if "RUN:" in l]
with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
    readme = f.read()

missing = 0
for name in names:
    # the name as a word of its own: followed by '=', a space, a quote or the end of the line
    pat = re.compile(r"(?<![-\w])" + re.escape(name) + r"(?=[=\s'\"]|$)")
    if not any(pat.search(l) for l in runs):
        print(f"no lit test runs {name}")
        missing += 1
    if name not in ("-h",) and not re.search(r"(?<![-\w])" + re.escape(name) + r"(?![-\w])", readme):
        print(f"README.md does not mention {name}")
        missing += 1
print(f"{len(names)} options and variables, {missing} missing")
sys.exit(1 if missing else 0)
