import json,subprocess,statistics
D='docs/benchmarks/data/late-epaxos-2026-11-23-quiet'
base=json.load(open('docs/benchmarks/data/virtual-2026-11-27k/tables/machine-b-prefit.json'))
real={}
for l in open('docs/benchmarks/data/virtual-2026-11-27k/validate-machine/validate-real-now.txt'):
    if l.startswith('#'): continue
    f=l.split()
    if f[0]=='calibration': real[f[2]]=(int(f[5]),int(f[6]),float(f[8]))
def run(tab, sc, seed, req):
    p='/tmp/fit/t.json'; json.dump(tab, open(p,'w'))
    out=subprocess.run(['/work/tools/psmr-after','run',f'{D}/'+sc.replace('.json','.scenario.json'),'--scheduler','sequential','--threads','1','--requests',str(req),'--seed',str(seed),'--virtual-cores','2','--cost-table',p,'--no-trace','--json'],capture_output=True,text=True,check=True)
    return json.loads(out.stdout)['runs'][0]['throughput_ops_s']
pts=[]
for sc,(seed,req,r) in real.items():
    a=1e9/run(dict(base,work_unit_ps=1000),sc,seed,req)
    b=1e9/run(dict(base,work_unit_ps=2000),sc,seed,req)
    u=b-a; c=a-u  # model time = c + u*1ns
    pts.append((sc,u,c,1e9/r))
    print(sc,'units/req',round(u,1),'model non-work ns',round(c,1),'real ns/req',round(1e9/r,1))
# fit real = c + delta + u*w  (delta: execute_base change shared) by least squares on (u, real-c)
xs=[p[1] for p in pts]; ys=[p[3]-p[2] for p in pts]
n=len(xs); mx=sum(xs)/n; my=sum(ys)/n
w=sum((x-mx)*(y-my) for x,y in zip(xs,ys))/sum((x-mx)**2 for x in xs); delta=my-w*mx
print('w ns/unit',w,'delta ns',delta)
