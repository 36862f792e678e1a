import json, sys, math
def load(p): return {json.loads(l)['name']: json.loads(l) for l in open(p)}
def lex(a, b):
    if a[0] != b[0]: return -1 if a[0] < b[0] else 1
    if abs(a[1]-b[1]) <= 1e-7: return 0
    return -1 if a[1] < b[1] else 1
inst, before, final, highs = sys.argv[1:5]
insts = [i['name'] for i in json.load(open(inst))]
b, f, h = load(before), load(final), load(highs)
print("| instance | before O.3 | before cost | before proven | after O.3 | after cost | after proven | after ms | HiGHS O.3 | HiGHS cost | HiGHS proven | HiGHS ms | after vs HiGHS |")
print("|---|---:|---:|---|---:|---:|---|---:|---:|---:|---|---:|---|")
t={-1:0,0:0,1:0}; tb={-1:0,0:0,1:0}; ratios=[]
for n in insts:
    x,y,z=b[n],f[n],h[n]
    c=lex((y['o3'],y['cost']),(z['o3'],z['cost'])); t[c]+=1
    tb[lex((x['o3'],x['cost']),(z['o3'],z['cost']))]+=1
    if y['optimal'] and z['optimal']: ratios.append(z['solve_ms']/max(y['solve_ms'],0.01))
    yn=lambda r: 'yes' if r['optimal'] else 'no'
    print(f"| {n} | {x['o3']} | {x['cost']:.4f} | {yn(x)} | {y['o3']} | {y['cost']:.4f} | {yn(y)} | {y['solve_ms']:.1f} | {z['o3']} | {z['cost']:.4f} | {yn(z)} | {z['solve_ms']:.0f} | {['better','same','worse'][c+1]} |")
print()
gm = math.exp(sum(map(math.log, ratios))/len(ratios)) if ratios else float('nan')
print(f"SUMMARY before worse/same/better {tb[1]}/{tb[0]}/{tb[-1]}; after {t[1]}/{t[0]}/{t[-1]}; proven before {sum(r['optimal'] for r in b.values())} after {sum(r['optimal'] for r in f.values())} HiGHS {sum(r['optimal'] for r in h.values())}; both proven {len(ratios)}, HiGHS/ours geomean {gm:.0f}x")
