# handoff_ratio.py FILE: per scheduler and thread count, the after/before ratio of the medians of scheduler ns/request with a bootstrap 95 % interval (5,000 resamples of the rounds, seed 1)
import sys,random,statistics as st
rows={}
for line in open(sys.argv[1]):
    c=line.split(); rnd,side,t=c[0],c[1],c[2].split('=')[1]
    for cell in c[4:]:
        lb,v=cell.split('='); ops,ns=map(float,v.split('/'))
        rows.setdefault((lb,t),{}).setdefault(rnd,{})[side]=ns
random.seed(1)
for (lb,t),rr in sorted(rows.items()):
    if lb=='sequential': continue
    pr=[(p['before'],p['after']) for p in rr.values() if len(p)==2]
    b=[x for x,_ in pr]; a=[y for _,y in pr]
    ratio=st.median(a)/st.median(b)
    boots=[]
    for _ in range(5000):
        s=[random.choice(pr) for _ in pr]
        boots.append(st.median(y for _,y in s)/st.median(x for x,_ in s))
    boots.sort()
    per=sorted(y/x for x,y in pr)
    print(f"{lb} T={t}: sched ns/req median before {st.median(b):.1f} after {st.median(a):.1f}; ratio of medians {ratio:.3f} (bootstrap 95% {boots[125]:.3f}-{boots[4874]:.3f}); per-round ratio median {st.median(per):.3f}; before range {min(b):.1f}-{max(b):.1f}, n={len(pr)}")
