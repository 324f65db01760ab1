#!/usr/bin/env python3
"""Make each object of a build folder depend on the options it reads.

usage: fixdep.py BUILD_FOLDER

The compiler's dependency files (-MMD -MP) name the generated autoconf.h,
which every file includes and which changes with any option, so any
change of the configuration would rebuild everything. This rewrites each
.d of the folder that still names it, as Linux's fixdep does: autoconf.h
goes, and the object depends instead on the stamp of each CONFIG_ option
its source and headers mention, include/config/<option>.h, which kconfig
touches only when that option's value changes (kconfig-conf
--silentoldconfig, the Makefile's auto.conf rule). A stamp that does not
exist (an option never set) is no dependency: $(wildcard) drops it, and
kconfig creates it when the option changes.

The compiler flags are the other input a configuration changes; the
Makefile keeps them in the folder's .cflags, on which every object depends.
"""
import os
import re
import sys

AUTOCONF = "include/generated/autoconf.h"
OPTION = re.compile(rb"\bCONFIG_([A-Za-z0-9_]+)")


def options_in(path, cache):
    """The CONFIG_ options the file at path mentions."""
    if path not in cache:
        try:
            with open(path, "rb") as f:
                cache[path] = {m.decode() for m in OPTION.findall(f.read())}
        except OSError:
            cache[path] = set()
    return cache[path]


def rewrite(dep, folder, cache):
    """Rewrite the dependency file dep of an object of folder, if it still
    names autoconf.h."""
    with open(dep, encoding="utf-8") as f:
        text = f.read()
    autoconf = os.path.join(folder, AUTOCONF)
    if autoconf not in text:
        return
    lines = text.replace("\\\n", " ").splitlines()
    target, _, deps = lines[0].partition(":")
    files = [d for d in deps.split() if d != autoconf]
    stamps = sorted({os.path.join(folder, "include", "config",
                                  o.lower().replace("_", "/") + ".h")
                     for path in files for o in options_in(path, cache)})
    phony = [line for line in lines[1:] if line.strip() and
             line.rstrip(":").strip() != autoconf]
    out = [f"{target}: {' '.join(files)}",
           f"{target}: $(wildcard {' '.join(stamps)})", *phony]
    with open(dep + ".tmp", "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    os.replace(dep + ".tmp", dep)


def main(folder):
    cache = {}
    for top, _, names in os.walk(folder):
        for name in names:
            if name.endswith(".d"):
                rewrite(os.path.join(top, name), folder, cache)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit("usage: fixdep.py BUILD_FOLDER")
    sys.exit(main(os.path.normpath(sys.argv[1])))
