// P-256 ECDSA verification of a SHA-256 digest with node:crypto.
//
// node:crypto verifies ECDSA only over a message it hashes itself, and the
// module hands its host a digest. So the verification equation is
// rearranged to use node:crypto's native P-256 point multiplication (ECDH)
// for the expensive parts: with e the digest and (r, s) the signature,
//
//   R = u1·G + u2·Q, u1 = e/s, u2 = r/s (mod n)
//     = u2·(t·G + Q),  t = u1/u2 = e/r (mod n)
//
// t·G is an ECDH public key, t·G + Q one point addition done here in
// BigInt, and the x coordinate of u2·(t·G + Q) an ECDH shared secret. The
// signature is valid when that x equals r modulo n (SEC 1, 4.1.4).

import { createECDH, createHash, createPublicKey, ECDH, verify as verifyMessage } from 'node:crypto';

const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

const mod = (a, m) => {
  const r = a % m;
  return r < 0n ? r + m : r;
};

// inverse returns a⁻¹ mod m (m prime, a ≠ 0 mod m), by the extended
// Euclidean algorithm.
function inverse(a, m) {
  let [r0, r1, s0, s1] = [mod(a, m), m, 1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1, s0, s1] = [r1, r0 - q * r1, s1, s0 - q * s1];
  }
  return mod(s0, m);
}

const toBig = (b) => BigInt('0x' + (Buffer.from(b.buffer, b.byteOffset, b.length).toString('hex') || '0'));
const to32 = (x) => Buffer.from(x.toString(16).padStart(64, '0'), 'hex');
const point = (uncompressed) => [toBig(uncompressed.subarray(1, 33)), toBig(uncompressed.subarray(33, 65))];
const encode = ([x, y]) => Buffer.concat([Buffer.from([4]), to32(x), to32(y)]);

// add returns a + b on the curve (y² = x³ − 3x + b), or null for the
// point at infinity.
function add([x1, y1], [x2, y2]) {
  let l;
  if (x1 === x2) {
    if (mod(y1 + y2, P) === 0n) return null;
    l = mod((3n * x1 * x1 - 3n) * inverse(2n * y1, P), P);
  } else {
    l = mod((y2 - y1) * inverse(x2 - x1, P), P);
  }
  const x3 = mod(l * l - x1 - x2, P);
  return [x3, mod(l * (x1 - x3) - y1, P)];
}

/**
 * verifier returns verify(pub, digest, sig): pub a 33-byte compressed
 * key, digest 32 bytes, sig 64 bytes r‖s; true when the signature is valid.
 * It remembers the last keys it decompressed.
 */
export function verifier({ cacheSize = 256 } = {}) {
  const ecdh = createECDH('prime256v1');
  const keys = new Map();
  function decompress(pub) {
    const id = Buffer.from(pub).toString('hex');
    let q = keys.get(id);
    if (q === undefined) {
      try {
        q = point(ECDH.convertKey(pub, 'prime256v1', undefined, undefined, 'uncompressed'));
      } catch {
        q = null; // not a point on the curve
      }
      if (keys.size >= cacheSize) keys.delete(keys.keys().next().value);
      keys.set(id, q);
    }
    return q;
  }
  return function verify(pub, digest, sig) {
    const r = toBig(sig.subarray(0, 32));
    const s = toBig(sig.subarray(32, 64));
    if (r === 0n || s === 0n || r >= N || s >= N) return false;
    const q = decompress(pub);
    if (q === null) return false;
    const e = mod(toBig(digest), N);
    const rsInverse = inverse(r * s, N); // one inversion for both 1/r and 1/s
    const t = mod(e * s * rsInverse, N);
    const u2 = mod(r * r * rsInverse, N);
    let base = q;
    if (t !== 0n) {
      ecdh.setPrivateKey(to32(t));
      base = add(point(ecdh.getPublicKey()), q);
      if (base === null) return false; // R would be the point at infinity
    }
    ecdh.setPrivateKey(to32(u2));
    let x;
    try {
      x = toBig(ecdh.computeSecret(encode(base)));
    } catch {
      return false; // u2·base at infinity
    }
    return mod(x, N) === r;
  };
}

// spkiPrefix is the DER SubjectPublicKeyInfo of a compressed P-256 key
// without its 33 key bytes (RFC 5480: id-ecPublicKey, prime256v1).
const spkiPrefix = Buffer.from('3039301306072a8648ce3d020106082a8648ce3d030107032200', 'hex');

/**
 * hostCrypto returns the { verify, sha256 } pair the Node loader gives the
 * module. sha256 hashes with node:crypto and remembers the last few inputs
 * it hashed by their digest; verify checks a signature over a remembered
 * digest with node:crypto's own ECDSA verification of that input (about
 * 4× faster than the ECDH route, which needs no input and serves every
 * other digest). The module hashes what it verifies through sha256 right
 * before, so nearly every signature takes the fast path. Both routes accept
 * exactly the same signatures: a digest is remembered only as the SHA-256
 * of the bytes kept with it.
 */
export function hostCrypto({ cacheSize = 256, preimages = 64 } = {}) {
  const slow = verifier({ cacheSize });
  const inputs = new Map(); // digest hex → the bytes it is the SHA-256 of
  const keys = new Map(); // compressed key hex → KeyObject, or null when not a key
  function keyObject(pub) {
    const id = Buffer.from(pub).toString('hex');
    let k = keys.get(id);
    if (k === undefined) {
      try {
        k = createPublicKey({ key: Buffer.concat([spkiPrefix, pub]), format: 'der', type: 'spki' });
      } catch {
        k = null; // not a point on the curve
      }
      if (keys.size >= cacheSize) keys.delete(keys.keys().next().value);
      keys.set(id, k);
    }
    return k;
  }
  return {
    sha256(data) {
      const digest = createHash('sha256').update(data).digest();
      const id = digest.toString('hex');
      if (!inputs.has(id)) {
        if (inputs.size >= preimages) inputs.delete(inputs.keys().next().value);
        inputs.set(id, Buffer.from(data)); // a copy: data is a view of the module's memory
      }
      return digest;
    },
    verify(pub, digest, sig) {
      const input = inputs.get(Buffer.from(digest).toString('hex'));
      if (input === undefined) return slow(pub, digest, sig);
      const key = keyObject(pub);
      if (key === null) return false;
      try {
        return verifyMessage('sha256', input, { key, dsaEncoding: 'ieee-p1363' }, sig);
      } catch {
        return false; // a signature OpenSSL cannot even read is not valid
      }
    },
  };
}
