# Writes page.html: the wasm builds inlined (base64), 3 rounds of 6,000 requests each for v0 before,
# v0 after, v1 and v7, every call on a freshly compiled module; wall time (performance.now), console.
# Run: chromium --headless=new --no-sandbox --disable-gpu --enable-logging=stderr --v=0
#        --user-data-dir=<tmp> [--js-flags=--no-liftoff] file://$PWD/page.html
import base64, sys
before, after = sys.argv[1], sys.argv[2]  # mb-out/plain.wasm, mb-after2/plain.wasm
b64 = lambda p: base64.b64encode(open(p, 'rb').read()).decode()
js = '''
async function go(name, b64, variant) {
  const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
  const mod = await WebAssembly.compile(bytes);
  const imp = {};
  for (const i of WebAssembly.Module.imports(mod)) { (imp[i.module] ??= {})[i.name] = () => { throw new Error('stub ' + i.name); }; }
  const e = (await WebAssembly.instantiate(mod, imp)).exports;
  e.list_init(100000);
  const t0 = performance.now();
  const r = e.list_run(variant, 6000, 100000, 7);
  console.log('chromium ' + name + ' v' + variant + ' wall_us_per_req=' + ((performance.now() - t0) * 1000 / 6000).toFixed(3) + ' check=' + r);
}
(async () => {
  for (let round = 0; round < 3; round++) {
    await go('before', B, 0); await go('after', A, 0); await go('mb', B, 1); await go('mb', B, 7);
  }
  console.log('DONE');
})();
'''
js = js.replace('B, ', "'%s', " % b64(before)).replace('A, ', "'%s', " % b64(after))
open('page.html', 'w').write('<!doctype html><script>' + js + '</script>')
