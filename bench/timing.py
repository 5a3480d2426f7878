"""What the scaling benchmarks (bench/scale-race.sh, bench/scale-diff.sh) time a run with."""
import os
import re
import subprocess


def timed(c, tmp, who):
    """CPU seconds (user + sys) and peak RSS in KB of running command c (a list); a temporary file
    goes in folder tmp, and who names the benchmark when c fails."""
    out = os.path.join(tmp, "time.txt")
    with open(os.devnull, "w") as null:
        p = subprocess.Popen(["/usr/bin/time", "-v", "-o", out] + c, stdout=null)
        _, status, ru = os.wait4(p.pid, 0)
    if status:
        raise SystemExit("%s: %s failed (status %d)" % (who, " ".join(c), status))
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", open(out).read()).group(1))
    return ru.ru_utime + ru.ru_stime, rss
