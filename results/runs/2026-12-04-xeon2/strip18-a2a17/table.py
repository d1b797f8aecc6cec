import re,glob,os
rows=[]
order=['pass','a1']+['a%d'%i for i in range(3,17)]
for m in order:
    f='log/1x18-a2-a17-%s.log'%m
    if not os.path.exists(f): rows.append((m,'not run','','','','')); continue
    t=open(f).read()
    # split into runs by '=== 20' header; skip the killed duplicate (no search line)
    runs=re.split(r'\n(?==== 20)', t)
    nodes=0; secs=0.0; status='open'; line=''; limits=[]; peak=0
    for r in runs:
        s=re.search(r'search: solver, nodes (\d+), (\d+) nodes/s, time ([\d.]+) s',r)
        if not s: continue
        nodes+=int(s.group(1)); secs+=float(s.group(3))
        lm=re.search(r'limit (\d+):',r); limits.append(lm.group(1) if lm else '?')
        p=re.search(r'peak RSS (\d+) KiB',r)
        if p: peak=max(peak,int(p.group(1)))
        if 'holds (proved)' in r:
            status='**holds**'; line=re.search(r'line of the proof: (.*)',r).group(1)
        elif 'fails' in r and re.search(r'claim: value <= 1: fails',r): status='FAILS'
    rows.append((m,status,line,f'{nodes/1e6:,.1f} M',f'{secs:,.0f}','+'.join(limits)+' s', f'{peak/1048576:.1f} GiB'))
print('| Black\'s move after a2 a17 | claim "≤ +1" | line | nodes | seconds | runs (limits) | peak RSS |')
print('|---|---|---|---:|---:|---|---|')
for r in rows: print('| '+' | '.join(r)+' |')
