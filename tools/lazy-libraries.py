#!/usr/bin/env python3
"""Writes the stubs through which the viewer calls the codec libraries that only decode helpers need.

Each library in Sources/C/CTesseraLazyLibraries/symbols/ (one file per soname, one function per line) gets
a trampoline for each function listed, made by Implib.so (tools/implib, MIT): the first call of any of
them loads the library with dlopen, so a viewer that never decodes such an image in its own process never
loads it, and the binary does not name it (their modules link nothing). Trampolines are written for
x86_64 and aarch64, each file compiled only on its own architecture; the loader is the same for both.

    tools/lazy-libraries.py                     # rewrite the stubs from the symbol lists
    tools/lazy-libraries.py --add-from BINARY   # first add what BINARY still imports from those libraries

After a change that calls a new function of one of these libraries, the binary names the library again
or fails to link with the function undefined; `--add-from .build/debug/tessera` (a binary that links
the library, as before the stubs) or adding the name by hand puts the function in its list.
"""

import argparse
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
TARGET = ROOT / "Sources/C/CTesseraLazyLibraries"
SYMBOLS = TARGET / "symbols"
GENERATED = TARGET / "generated"
IMPLIB = ROOT / "tools/implib/implib-gen.py"
LIBRARY_FOLDERS = ["/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu"]
ARCHITECTURES = {"x86_64": "__x86_64__", "aarch64": "__aarch64__"}


def guarded(text, macros):
    condition = " || ".join(f"defined({macro})" for macro in macros)
    return f"#if defined(__linux__) && ({condition})\n{text}\n#endif\n"


def library_path(soname):
    for folder in LIBRARY_FOLDERS:
        path = pathlib.Path(folder) / soname
        if path.exists():
            return path
    sys.exit(f"lazy-libraries: {soname} is not installed")


def exported_functions(path):
    out = subprocess.run(["nm", "-D", "--defined-only", str(path)], check=True, capture_output=True, text=True).stdout
    return {fields[2].split("@")[0] for fields in (line.split() for line in out.splitlines())
            if len(fields) == 3 and fields[1] in "TW"}


def imported_symbols(binary):
    out = subprocess.run(["nm", "-D", "--undefined-only", str(binary)], check=True, capture_output=True, text=True).stdout
    return {line.split()[-1].split("@")[0] for line in out.splitlines() if line.strip()}


def read_list(path):
    return {line.strip() for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--add-from", metavar="BINARY", help="add the functions BINARY imports from these libraries")
    args = parser.parse_args()

    lists = sorted(SYMBOLS.glob("*.txt"))
    if args.add_from:
        imported = imported_symbols(args.add_from)
        for path in lists:
            soname = path.name[:-len(".txt")]
            added = imported & exported_functions(library_path(soname))
            new = added - read_list(path)
            if new:
                path.write_text("".join(f"{name}\n" for name in sorted(read_list(path) | added)))
                print(f"{soname}: added {', '.join(sorted(new))}")

    GENERATED.mkdir(exist_ok=True)
    for old in GENERATED.iterdir():
        old.unlink()
    names = []
    for path in lists:
        soname = path.name[:-len(".txt")]
        names.append(soname)
        for architecture, macro in ARCHITECTURES.items():
            with tempfile.TemporaryDirectory() as scratch:
                subprocess.run([sys.executable, str(IMPLIB), "-q", "--target", f"{architecture}-linux-gnu",
                                "--dlopen-callback", "tessera_lazy_library_open", "--symbol-list", str(path),
                                "-o", scratch, str(library_path(soname))], check=True, stderr=subprocess.DEVNULL)
                made = pathlib.Path(scratch)
                trampolines = (made / f"{soname}.tramp.S").read_text()
                (GENERATED / f"{soname}.{architecture}.S").write_text(guarded(trampolines, [macro]))
                loader = (made / f"{soname}.init.c").read_text()
                (GENERATED / f"{soname}.init.c").write_text(guarded(loader, ARCHITECTURES.values()))
    (GENERATED / "library-names.inc").write_text("".join(f'"{name}",\n' for name in names))
    print(f"wrote stubs for {len(names)} libraries in {GENERATED.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
