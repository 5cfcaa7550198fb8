# ext.py — kplan's loadable extension from Python's sqlite3 module, for
# tests/t/73-shells.t.
#
#   python3 ext.py load|auto PATH/kplan.so [FUZZ.sql]
#
# load: conn.enable_load_extension(True); conn.load_extension(PATH) — exits 77
#       when this Python's sqlite3 module was built without it;
# auto: sqlite3_auto_extension() through ctypes (works where the module links the
#       shared libsqlite3 but lacks enable_load_extension); exits 77 when it can't.
# Prints a few known values, then, with FUZZ.sql, runs each statement and prints
# its one value ("N|quote") or "ERR" — the same lines the sqlite3 shell prints.
import sys
import sqlite3

mode, so = sys.argv[1], sys.argv[2]
if mode == "load":
    if not hasattr(sqlite3.Connection, "enable_load_extension"):
        print("this Python's sqlite3 module has no enable_load_extension")
        sys.exit(77)
    conn = sqlite3.connect(":memory:")
    conn.enable_load_extension(True)
    conn.load_extension(so)
    conn.enable_load_extension(False)
else:
    import ctypes
    import ctypes.util
    name = ctypes.util.find_library("sqlite3")
    if not name:
        print("no shared libsqlite3 for ctypes")
        sys.exit(77)
    lib = ctypes.CDLL(name)
    ext = ctypes.CDLL(so)
    if lib.sqlite3_auto_extension(ctypes.cast(ext.sqlite3_kplan_init, ctypes.c_void_p)) != 0:
        print("sqlite3_auto_extension failed")
        sys.exit(1)
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("SELECT kplan_version()")
    except sqlite3.OperationalError:
        print("the sqlite3 module does not use the shared libsqlite3")
        sys.exit(77)

print("quantity", conn.execute("SELECT kplan_quantity('1.5Gi'), kplan_quantity('250m', 'cpu')").fetchone())
print("null", conn.execute("SELECT kplan_quantity(NULL), kplan_least_allocated(NULL, 1)").fetchone())
print("scores", conn.execute("SELECT kplan_least_allocated(3000, 4000), kplan_balanced_allocation(3000, 4000, 5000, 10000)").fetchone())
try:
    conn.execute("SELECT kplan_quantity('12 parsecs')").fetchone()
    print("error none")
except sqlite3.OperationalError as e:
    print("error", e)
names = sorted(set(r[0] for r in conn.execute("SELECT name FROM pragma_function_list WHERE name LIKE 'kplan%'")))
print("functions", " ".join(names))

if len(sys.argv) > 3:
    with open(sys.argv[3], encoding="utf-8") as f:
        for line in f:
            try:
                row = conn.execute(line).fetchone()
                print(row[0])
            except sqlite3.Error:
                print("ERR")
            except (ValueError, OverflowError):
                print("ERR")
