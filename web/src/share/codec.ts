/**
 * Share a scenario by URL: the scenario text travels in the URL hash.
 *
 * Payload layout (before base64url): one version byte, four bytes of CRC-32
 * of the UTF-8 text (big-endian), then the text compressed with raw DEFLATE
 * (the browser's own `CompressionStream("deflate-raw")`, no dependency).
 *
 * Raw DEFLATE carries no checksum, so a link damaged in transit (a character
 * changed while copying) may still inflate, to other text. The CRC-32 makes
 * the decoder notice it and say so instead of opening a different scenario.
 *
 * Bounds: an encoded payload is at most {@link MAX_ENCODED_CHARS} characters
 * (URLs this long still survive chat tools and browsers); the inflated text
 * is at most {@link MAX_TEXT_BYTES} bytes, enforced while inflating, so a
 * small link cannot expand into a huge allocation ("zip bomb").
 */

/** Format version written as the first payload byte. */
export const SHARE_VERSION = 1;
/** Longest encoded payload accepted, in characters (16 KiB). */
export const MAX_ENCODED_CHARS = 16 * 1024;
/** Largest scenario text accepted after inflating, in bytes (256 KiB). */
export const MAX_TEXT_BYTES = 256 * 1024;
/** The hash key: `#scenario=<payload>`. */
export const HASH_KEY = 'scenario';
/** The app tab a share link opens (the authoring panel's id). */
export const SHARE_TAB = 'author';

export type DecodeResult = { ok: true; text: string } | { ok: false; error: string };
export type EncodeResult = { ok: true; payload: string } | { ok: false; error: string };

const HEADER_BYTES = 5;

let crcTable: Uint32Array | null = null;

/** CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320) of `bytes`. */
export function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const b of bytes) crc = crcTable[(crc ^ b) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const B64URL_INDEX = (() => {
  const t = new Int16Array(128).fill(-1);
  for (let i = 0; i < B64URL.length; i++) t[B64URL.charCodeAt(i)] = i;
  return t;
})();

/** base64url without padding (RFC 4648 section 5). */
export function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += B64URL[v >>> 18] + B64URL[(v >>> 12) & 63] + B64URL[(v >>> 6) & 63] + B64URL[v & 63];
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const v = bytes[i] << 16;
    out += B64URL[v >>> 18] + B64URL[(v >>> 12) & 63];
  } else if (rest === 2) {
    const v = (bytes[i] << 16) | (bytes[i + 1] << 8);
    out += B64URL[v >>> 18] + B64URL[(v >>> 12) & 63] + B64URL[(v >>> 6) & 63];
  }
  return out;
}

/** Inverse of {@link toBase64Url}; `null` on a character outside the alphabet or a bad length. */
export function fromBase64Url(s: string): Uint8Array | null {
  if (s.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((s.length * 3) / 4));
  let o = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const v = c < 128 ? B64URL_INDEX[c] : -1;
    if (v < 0) return null;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >>> bits) & 0xff;
    }
  }
  return out.subarray(0, o);
}

async function deflateRaw(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * Inflate at most `limit` bytes; `null` when the output would be larger
 * (reading stops there, so the oversize output is never held in memory).
 * Throws when the data is not valid raw DEFLATE.
 */
async function inflateRawBounded(bytes: Uint8Array, limit: number): Promise<Uint8Array | null> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

/** Encode a scenario text as a share payload, refusing one over the size limit. */
export async function encodeScenario(text: string): Promise<EncodeResult> {
  const utf8 = new TextEncoder().encode(text);
  if (utf8.length > MAX_TEXT_BYTES) {
    return {
      ok: false,
      error: `The scenario is ${utf8.length} bytes; a share link holds at most ${MAX_TEXT_BYTES}. Save it as a file instead.`,
    };
  }
  const packed = await deflateRaw(utf8);
  const bytes = new Uint8Array(HEADER_BYTES + packed.length);
  bytes[0] = SHARE_VERSION;
  new DataView(bytes.buffer).setUint32(1, crc32(utf8));
  bytes.set(packed, HEADER_BYTES);
  const payload = toBase64Url(bytes);
  if (payload.length > MAX_ENCODED_CHARS) {
    return {
      ok: false,
      error: `The share link would be ${payload.length} characters; the limit is ${MAX_ENCODED_CHARS}. Save the scenario as a file instead.`,
    };
  }
  return { ok: true, payload };
}

/**
 * Decode a share payload. Never throws: every failure is a sentence for the
 * page, saying what is wrong with the link.
 */
export async function decodeScenario(payload: string): Promise<DecodeResult> {
  const bad = (why: string): DecodeResult => ({
    ok: false,
    error: `This share link is damaged (${why}). Ask for the link again, or open the scenario file.`,
  });
  if (payload.length > MAX_ENCODED_CHARS) {
    return {
      ok: false,
      error: `This share link is too large: ${payload.length} characters, the limit is ${MAX_ENCODED_CHARS}.`,
    };
  }
  const bytes = fromBase64Url(payload);
  if (!bytes) return bad('it contains characters that are not base64url');
  if (bytes.length <= HEADER_BYTES) return bad('it is too short');
  if (bytes[0] !== SHARE_VERSION) {
    return {
      ok: false,
      error: `This share link has format version ${bytes[0]}; this app reads version ${SHARE_VERSION}.`,
    };
  }
  const expectedCrc = new DataView(bytes.buffer, bytes.byteOffset).getUint32(1);
  let utf8: Uint8Array | null;
  try {
    utf8 = await inflateRawBounded(bytes.subarray(HEADER_BYTES), MAX_TEXT_BYTES);
  } catch {
    return bad('the compressed data does not inflate');
  }
  if (!utf8) {
    return {
      ok: false,
      error: `This share link expands to more than ${MAX_TEXT_BYTES} bytes, the limit for a shared scenario.`,
    };
  }
  if (crc32(utf8) !== expectedCrc) return bad('its checksum does not match');
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(utf8) };
  } catch {
    return bad('the text is not valid UTF-8');
  }
}

/** The share payload in a URL hash (`#scenario=...`), or `null` when the hash has none. */
export function payloadFromHash(hash: string): string | null {
  const h = hash.startsWith('#') ? hash.slice(1) : hash;
  for (const part of h.split('&')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq) === HASH_KEY) return part.slice(eq + 1);
  }
  return null;
}

/**
 * A full share URL for `payload`, based on `base` without its old hash. The
 * hash also names the authoring tab (`#tab=author&scenario=...`), so the app
 * opens where the shared scenario is shown.
 */
export function shareUrl(base: string, payload: string): string {
  const noHash = base.split('#')[0];
  return `${noHash}#tab=${SHARE_TAB}&${HASH_KEY}=${payload}`;
}
