# usage: cmp.py RUN.csv NEW.model.csv [OLD.model.csv] [coll]
import csv,sys,collections,math
meas=collections.defaultdict(list); fb=set()
for r in csv.DictReader(open(sys.argv[1])):
    if r['impl'].startswith('hmpi:'):
        meas[(r['collective'],r['impl'][5:],int(r['bytes']))].append(float(r['avg_us']))
notes=sys.argv[1].replace('.csv','.notes')
try:
    for line in open(notes):
        pass
except: pass
M={k:sorted(v)[len(v)//2] for k,v in meas.items()}
def load(f):
    d={}
    for r in csv.DictReader(open(f)):
        if r['predicted_us']: d[(r['collective'],r['algorithm'],int(r['bytes']))]=float(r['predicted_us'])
    return d
models=[('new',load(sys.argv[2]))]
if len(sys.argv)>3 and sys.argv[3]!='-': models.append(('old',load(sys.argv[3])))
only=sys.argv[4] if len(sys.argv)>4 else None
colls=sorted({k[0] for k in M if not only or k[0]==only})
for name,P in models:
    print(f"== {name}")
    for c in colls:
        algs=sorted({k[1] for k in M if k[0]==c})
        sizes=sorted({k[2] for k in M if k[0]==c})
        ok=tot=0; errs=collections.defaultdict(list); bad=[]
        for s in sizes:
            cand={a:P[(c,a,s)] for a in algs if (c,a,s) in P and (c,a,s) in M and math.isfinite(P[(c,a,s)]) and a!='inline'}
            if not cand: continue
            pick=min(cand,key=cand.get); best=min(M[(c,a,s)] for a in cand); besta=min(cand,key=lambda a:M[(c,a,s)])
            tot+=1; good=M[(c,pick,s)]<=1.1*best; ok+=good
            if not good: bad.append(f"{s}:{pick}({M[(c,pick,s)]:.3g})/best {besta}({best:.3g})")
            for a in cand: errs[a].append((P[(c,a,s)]-M[(c,a,s)])/M[(c,a,s)])
        print(f"{c}: picks within 10% (non-inline) {ok}/{tot}; misses: {' '.join(bad)}")
        for a,e in errs.items():
            ae=sorted(abs(x) for x in e); se=sorted(e)
            print(f"   {a:28s} median|err| {ae[len(ae)//2]*100:4.0f}%  within15 {sum(x<=0.15 for x in ae)}/{len(ae)}  signed med {se[len(se)//2]*100:+.0f}%  small(<=4K) {sorted(e[:10])[5]*100 if len(e)>10 else 0:+.0f}% large(>=1M) {sorted(e[-5:])[2]*100:+.0f}%")
