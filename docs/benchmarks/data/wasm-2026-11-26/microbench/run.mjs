import fs from 'node:fs';
const [file, which, n, entries] = process.argv.slice(2);
const mod = new WebAssembly.Module(fs.readFileSync(file));
const imp = {};
for (const i of WebAssembly.Module.imports(mod)) { (imp[i.module] ??= {})[i.name] = () => { throw new Error('stub ' + i.name); }; }
const instance = new WebAssembly.Instance(mod, imp);
const e = instance.exports;
const t0 = performance.now(); const c0 = process.cpuUsage();
let r;
if (which === 'list') { e.list_init(+entries); r = e.list_run(+n, +entries, 7); }
else { e.kv_init(+entries); r = e.kv_run(+n, +entries, 7); }
const c = process.cpuUsage(c0); const w = performance.now() - t0;
console.log(`wasm(${file.split('/').pop()}) ${which} n=${n} cpu_us_per_req=${((c.user + c.system) / +n).toFixed(3)} wall_us_per_req=${(w * 1000 / +n).toFixed(3)} check=${r}`);
