// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  MAX_ENCODED_CHARS,
  MAX_TEXT_BYTES,
  SHARE_VERSION,
  crc32,
  decodeScenario,
  encodeScenario,
  fromBase64Url,
  payloadFromHash,
  shareUrl,
  toBase64Url,
} from './codec';

const SCENARIO = JSON.stringify(
  {
    name: 'kv-2-shards',
    description: 'Two shards, 10% global writes — ünïcödé survives too',
    app: { kind: 'kv' },
    schedulers: [{ id: 'early', threads: 2 }],
  },
  null,
  2,
);

async function payloadOf(text: string): Promise<string> {
  const r = await encodeScenario(text);
  if (!r.ok) throw new Error(r.error);
  return r.payload;
}

/** A pseudo-random printable text that deflate cannot shrink much. */
function noise(len: number, seed: number): string {
  let x = seed >>> 0;
  let s = '';
  for (let i = 0; i < len; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    s += String.fromCharCode(33 + ((x >>> 24) % 90));
  }
  return s;
}

describe('crc32 and base64url', () => {
  it('crc32 matches the standard check value', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });

  it('base64url round-trips every length remainder and rejects foreign characters', () => {
    for (let n = 0; n < 10; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 97 + 250) & 0xff);
      const s = toBase64Url(bytes);
      expect(s).toMatch(/^[A-Za-z0-9_-]*$/);
      expect(Array.from(fromBase64Url(s)!)).toEqual(Array.from(bytes));
    }
    expect(fromBase64Url('ab+c')).toBeNull();
    expect(fromBase64Url('abcde')).toBeNull(); // length 5 = 1 mod 4 cannot come from bytes
    expect(fromBase64Url('ab€c')).toBeNull();
  });
});

describe('share codec', () => {
  it('round-trips a scenario, including non-ASCII text', async () => {
    const p = await payloadOf(SCENARIO);
    expect(p).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(await decodeScenario(p)).toEqual({ ok: true, text: SCENARIO });
  });

  it('compresses a typical repetitive scenario', async () => {
    const ids = ['sequential', 'early', 'busy-wait', 'ws-conservative', 'ws-moderate', 'ws-aggressive'];
    const text = JSON.stringify({ schedulers: ids.map((id) => ({ id, threads: 4, spin: 'bounded' })) }, null, 2);
    const p = await payloadOf(text);
    expect(p.length).toBeLessThan(text.length / 2);
    expect(await decodeScenario(p)).toEqual({ ok: true, text });
  });

  it('round-trips through a URL hash', async () => {
    const url = shareUrl('http://localhost:5173/#old=1', await payloadOf(SCENARIO));
    expect(url.startsWith('http://localhost:5173/#tab=author&scenario=')).toBe(true);
    const payload = payloadFromHash(new URL(url).hash);
    expect(payload).not.toBeNull();
    expect(await decodeScenario(payload!)).toEqual({ ok: true, text: SCENARIO });
    expect(payloadFromHash('#other=1')).toBeNull();
    expect(payloadFromHash('')).toBeNull();
  });

  it('detects a changed character anywhere in the payload', async () => {
    const p = await payloadOf(SCENARIO);
    let detected = 0;
    for (let i = 0; i < p.length; i++) {
      const swapped = p[i] === 'A' ? 'B' : 'A';
      const r = await decodeScenario(p.slice(0, i) + swapped + p.slice(i + 1));
      // A change in the last character may only touch padding bits and
      // decode to the same bytes; everything else must be refused.
      if (!r.ok) {
        detected++;
        expect(r.error).toMatch(/share link/);
      } else {
        expect(r.text).toBe(SCENARIO);
      }
    }
    expect(detected).toBeGreaterThanOrEqual(p.length - 1);
  });

  it('refuses a truncated payload, foreign characters, a wrong version and garbage', async () => {
    const p = await payloadOf(SCENARIO);
    for (const bad of [p.slice(0, p.length - 6), p.slice(0, 4), p + '!', 'not a payload', '%7B%22a%22']) {
      const r = await decodeScenario(bad);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatch(/share link/);
    }
    const bytes = fromBase64Url(p)!;
    bytes[0] = SHARE_VERSION + 1;
    const r = await decodeScenario(toBase64Url(bytes));
    expect(r).toEqual({ ok: false, error: expect.stringMatching(/format version 2/) });
  });

  it('enforces the encoded size limit on both sides', async () => {
    const big = noise(MAX_ENCODED_CHARS, 7); // incompressible enough to exceed the limit once encoded
    const e = await encodeScenario(big);
    expect(e.ok).toBe(false);
    if (!e.ok) expect(e.error).toMatch(/limit is 16384/);

    const justUnder = noise(8 * 1024, 9);
    const ok = await encodeScenario(justUnder);
    expect(ok.ok).toBe(true);

    const d = await decodeScenario('A'.repeat(MAX_ENCODED_CHARS + 1));
    expect(d).toEqual({ ok: false, error: expect.stringMatching(/too large/) });
  });

  it('refuses a link that inflates past the text limit (zip bomb)', async () => {
    // Highly compressible text above the text limit: the encoder refuses it,
    // so build the payload by hand to play a hostile link.
    const huge = new TextEncoder().encode(' '.repeat(MAX_TEXT_BYTES + 1));
    const packed = new Uint8Array(
      await new Response(new Blob([huge]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer(),
    );
    const bytes = new Uint8Array(5 + packed.length);
    bytes[0] = SHARE_VERSION;
    new DataView(bytes.buffer).setUint32(1, crc32(huge));
    bytes.set(packed, 5);
    const payload = toBase64Url(bytes);
    expect(payload.length).toBeLessThan(MAX_ENCODED_CHARS);
    const r = await decodeScenario(payload);
    expect(r).toEqual({ ok: false, error: expect.stringMatching(/expands to more than 262144 bytes/) });

    const enc = await encodeScenario(' '.repeat(MAX_TEXT_BYTES + 1));
    expect(enc.ok).toBe(false);
  });
});
