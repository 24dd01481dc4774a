import csv,collections,sys
T=sys.argv[1]
meas={}
for r in csv.reader(open(f'{T}-forced-4M-16M.csv')): meas[(r[1],r[0],int(r[2]))]=float(r[4])
def load(f):
    d={}
    for r in csv.reader(open(f)):
        if r[3]: d[(r[0],r[1],int(r[2]))]=float(r[3])
    return d
for name,f in (('with core_cache',f'{T}-model.csv'),('without',f'{T}-model-without-core_cache.csv')):
    P=load(f); errs=[];w15=0;n=0;ok=0;tot=0;bysz=collections.defaultdict(list)
    for k,m in meas.items():
        if k in P:
            e=(P[k]-m)/m; errs.append(abs(e)); n+=1; w15+= abs(e)<=0.15; bysz[k[2]].append(e)
    for c in {k[0] for k in meas}:
        for s in (4194304,8388608,16777216):
            cand={a:P[(c,a,s)] for (cc,a,ss) in meas if cc==c and ss==s and (c,a,s) in P}
            if not cand: continue
            pick=min(cand,key=cand.get); best=min(meas[(c,a,s)] for a in cand)
            tot+=1; ok+= meas[(c,pick,s)]<=1.1*best
    errs.sort()
    print(f"{name}: within15 {w15}/{n}, median |err| {errs[len(errs)//2]*100:.0f}%, picks within 10% {ok}/{tot}; median signed err by size: "+', '.join(f"{s>>20}MiB {sorted(v)[len(v)//2]*100:+.0f}%" for s,v in sorted(bysz.items())))
