#!/usr/bin/env python3
"""Move scheduler parameters into their family object (wave 2 format):
`{"id": "early", "mapping": ...}` -> `{"id": "early", "early": {"mapping": ...}}`.
Rewrites only the `schedulers` array of each file given; idempotent."""
import json, sys

FAMILY = {"early": "early", "busy-wait": "early"}
PARAMS = ("mapping", "queue_capacity", "spin")

def family(id_):
    if id_ in FAMILY: return FAMILY[id_]
    if id_.startswith("ws-"): return "stealing"
    return None

def migrate(entry):
    fam = family(entry["id"])
    moved = {k: entry.pop(k) for k in PARAMS if k in entry}
    if moved and fam:
        obj = entry.setdefault(fam, {})
        obj.update(moved)
    elif moved:
        entry.update(moved)  # leave it: validation will explain
    return entry

def span_of_array(text, key):
    i = text.index('"%s"' % key)
    i = text.index('[', i)
    depth, j, in_str, esc = 0, i, False, False
    while True:
        c = text[j]
        if in_str:
            if esc: esc = False
            elif c == '\\': esc = True
            elif c == '"': in_str = False
        elif c == '"': in_str = True
        elif c in '[{': depth += 1
        elif c in ']}':
            depth -= 1
            if depth == 0: return i, j + 1
        j += 1

def render(entries, indent):
    one = json.dumps(entries, separators=(", ", ": "))
    one = one.replace("{", "{ ").replace("}", " }").replace("{  }", "{}")
    if len(one) + indent + 16 <= 100:
        return one
    pad = " " * (indent + 2)
    items = []
    for e in entries:
        s = json.dumps(e, separators=(", ", ": ")).replace("{", "{ ").replace("}", " }")
        items.append(pad + s)
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"

for path in sys.argv[1:]:
    text = open(path).read()
    data = json.loads(text)
    if "schedulers" not in data: continue
    new = [migrate(dict(e)) for e in data["schedulers"]]
    if new == data["schedulers"]: continue
    a, b = span_of_array(text, "schedulers")
    line_start = text.rfind("\n", 0, a) + 1
    indent = len(text[line_start:a]) - len(text[line_start:a].lstrip())
    text = text[:a] + render(new, indent) + text[b:]
    assert json.loads(text)["schedulers"] == new
    open(path, "w").write(text)
    print("migrated", path)
