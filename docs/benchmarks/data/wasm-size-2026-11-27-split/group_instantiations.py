# Group a demangled name-section dump (size<TAB>name per line, from rustfilt) by generic
# function: generic arguments dropped, `<T as Trait>` and inherent `<Type>` paths kept; prints
# total size, instance count, function. usage: group_instantiations.py DUMP.tsv [N]
import sys, re, collections
pat=re.compile(r'<([^<>]*)>')
def strip(n):
    n=re.sub(r'::h[0-9a-f]{16}$','',n); n=re.sub(r'\[[0-9a-f]+\]','',n)
    n=n.replace('->','→')
    # remove innermost groups without ' as ', mark qualified ones
    while True:
        m=pat.search(n)
        if not m: break
        inner=m.group(1)
        prev=n[m.start()-1] if m.start()>0 else " "
        if " as " in inner or not (prev.isalnum() or prev in "_:"): n=n[:m.start()]+"«"+inner+"»"+n[m.end():]
        else: n=n[:m.start()]+n[m.end():]
    return n
tot=collections.Counter(); cnt=collections.Counter()
for line in open(sys.argv[1]):
    sz,n=line.rstrip('\n').split('\t',1)
    k=strip(n); tot[k]+=int(sz); cnt[k]+=1
for k,s in tot.most_common(int(sys.argv[2]) if len(sys.argv)>2 else 60):
    print(f"{s:8d} {cnt[k]:4d}  {k[:200]}")
