import fs from 'node:fs';
const [file, variant, n, entries] = process.argv.slice(2);
const mod = new WebAssembly.Module(fs.readFileSync(file));
const imp = {};
for (const i of WebAssembly.Module.imports(mod)) {
  (imp[i.module] ??= {})[i.name] = () => {
    throw new Error('stub ' + i.name);
  };
}
const e = new WebAssembly.Instance(mod, imp).exports;
e.list_init(+entries);
const t0 = performance.now();
const c0 = process.cpuUsage();
const r = e.list_run(+variant, +n, +entries, 7);
const c = process.cpuUsage(c0);
const w = performance.now() - t0;
console.log(
  `wasm(${file.split('/').pop()}) v${variant} n=${n} cpu_us_per_req=${((c.user + c.system) / +n).toFixed(3)} wall_us_per_req=${((w * 1000) / +n).toFixed(3)} check=${r}`,
);
