# ab_long.py BEFORE AFTER OUT ROUNDS REQUESTS (run from the repository root): early and busy-wait at 1 thread, before/after alternating; one line per run: round side threads load label=ops_per_s/scheduler_ns_per_request
import json,os,subprocess,sys
before,after,out,rounds,req=sys.argv[1],sys.argv[2],sys.argv[3],int(sys.argv[4]),sys.argv[5]
S='scenarios/early-rw-read-heavy.json'
with open(out,'a') as f:
    for i in range(1,rounds+1):
        for side in (["before","after"] if i%2 else ["after","before"]):
            p={'before':before,'after':after}[side]
            o=subprocess.run([p,'run',S,'--threads','1','--requests',req,'--scheduler','early','--scheduler','busy-wait','--no-trace','--json'],check=True,capture_output=True,text=True).stdout
            rep=json.loads(o)
            cells=' '.join(f"{r['label']}={r['throughput_ops_s']:.0f}/{r['metrics']['scheduler_ns_per_request']:.2f}" for r in rep['runs'])
            f.write(f"{i} {side} threads=1 load={os.getloadavg()[0]:.2f} {cells}\n"); f.flush()
