"""Lab regions in the source, and how a student tree gets its stubs.

A lab region is reference code between two comments, with the stub that
replaces it in a student tree written as a comment just before the end:

	/* LAB 3 BEGIN: FIFO queueing, LIFO requeue */
	...the reference code...
	/* LAB 3 STUB: what to write, and a hint,
	 * on as many lines as it takes.
	 *|	list_add(&waiter->list, &lock->wait_list);
	 * LAB 3 END */

Lines of the stub comment that start with " *|" are the stub's code (the
text after the "|"); the others are its hint. A stub's code cannot hold
"*/", so it never has comments of its own. Inside a macro every line
ends with a backslash, the marker lines too. In a student tree of lab n:
  - the regions of labs before n are solved: the reference code stays, the
    marker lines and the stub comment go;
  - the regions of lab n become "/* LAB n TODO: title. hint */" and the
    stub's code;
  - the regions of later labs become their stub's code under a one-line
    "/* LAB m: title (a later lab) */": a tree never holds a later lab's
    reference. So every stub must build, boot and leave the earlier labs'
    tests passing (make check-labs grades each lab's reference there).
"""

import re

BEGIN = re.compile(r"^(\s*)/\* LAB (\d+) BEGIN: (.*?) \*/(\s*\\)?$")
STUB = re.compile(r"^\s*/\* LAB (\d+) STUB: (.*?)(\s*\\)?$")
CODE = re.compile(r"^\s*\*\|(.*?)(\s*\\)?$")
TEXT = re.compile(r"^\s*\*(?: (.*?))?(\s*\\)?$")
END = re.compile(r"^\s*\* LAB (\d+) END \*/(\s*\\)?$")

# Where regions may be: the files the generator reads.
SOURCE_SUFFIXES = (".c", ".h", ".S")


class MarkError(Exception):
    """A marker out of place: its file, line and what is wrong."""


class Region:
    """One marked region of one file: its lines and its parts."""

    def __init__(self, lab, title, indent, macro, start):
        self.lab = lab
        self.title = title
        self.indent = indent
        self.macro = macro      # inside a #define: lines end with " \"
        self.start = start      # line number of BEGIN (1-based)
        self.code = []          # the reference lines
        self.hint = []          # the stub's hint, word lines
        self.stub = []          # the stub's code lines


def parse(text, path="<text>"):
    """The file as a list of plain lines and Regions, in order."""
    out, region, state = [], None, "plain"
    for number, line in enumerate(text.split("\n"), 1):
        where = f"{path}:{number}"
        if state == "plain":
            m = BEGIN.match(line)
            if m:
                region = Region(int(m.group(2)), m.group(3), m.group(1),
                                bool(m.group(4)), number)
                state = "code"
            elif "LAB " in line and _looks_like_marker(line):
                raise MarkError(f"{where}: a lab marker outside a region: {line.strip()}")
            else:
                out.append(line)
            continue
        if state == "code":
            m = STUB.match(line)
            if m:
                _same_lab(region, int(m.group(1)), where)
                region.hint.append(m.group(2))
                state = "stub"
            elif BEGIN.match(line) or END.match(line):
                raise MarkError(f"{where}: LAB {region.lab} region (line "
                                f"{region.start}) has no STUB comment before this")
            else:
                region.code.append(line)
            continue
        m = END.match(line)
        if m:
            _same_lab(region, int(m.group(1)), where)
            out.append(region)
            region, state = None, "plain"
            continue
        m = CODE.match(line)
        if m:
            region.stub.append(m.group(1))
            continue
        m = TEXT.match(line)
        if not m:
            raise MarkError(f"{where}: LAB {region.lab} stub comment: a line "
                            "that is neither \" *| code\" nor \" * hint\"")
        if m.group(1):
            region.hint.append(m.group(1))
    if region:
        raise MarkError(f"{path}:{region.start}: LAB {region.lab} region never ends")
    return out


def _looks_like_marker(line):
    return bool(re.search(r"LAB \d+ (BEGIN|STUB|END)", line))


def _same_lab(region, lab, where):
    if lab != region.lab:
        raise MarkError(f"{where}: LAB {lab} marker inside the LAB "
                        f"{region.lab} region of line {region.start}")


def labs_in(text, path="<text>"):
    """{lab: [region titles]} of one file."""
    found = {}
    for item in parse(text, path):
        if isinstance(item, Region):
            found.setdefault(item.lab, []).append(item.title)
    return found


def render(text, lab, path="<text>"):
    """text as lab's student tree has it (see the module's comment)."""
    lines = []
    for item in parse(text, path):
        if not isinstance(item, Region):
            lines.append(item)
        elif item.lab < lab:
            lines += item.code
        elif item.lab == lab:
            lines += stub_lines(item)
        else:
            lines += _later_lines(item)
    return "\n".join(lines)


def stub_lines(region):
    """The lines that stand for region in its own lab's student tree: its
    TODO comment and its stub's code."""
    ind = region.indent
    if region.macro:
        # A macro's lines end with a backslash: its TODO is one line.
        words = " ".join([f"{region.title}."] + region.hint)
        return [f"{ind}/* LAB {region.lab} TODO: {words} */ \\"] + \
            [code + " \\" for code in region.stub]
    todo = [f"{ind}/* LAB {region.lab} TODO: {region.title}."]
    todo += [f"{ind} * {line}" for line in region.hint]
    return todo + [f"{ind} */"] + region.stub


def _later_lines(region):
    # No hint: the lab that reaches this region gives it.
    head = f"{region.indent}/* LAB {region.lab}: {region.title} (a later lab) */"
    if region.macro:
        return [head + " \\"] + [code + " \\" for code in region.stub]
    return [head] + region.stub
