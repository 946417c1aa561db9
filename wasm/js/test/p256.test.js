import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createECDH, createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { hostCrypto, verifier } from '../p256.js';

// keyPair returns a P-256 key and its compressed public key.
function keyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const uncompressed = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x, 'base64url'), Buffer.from(jwk.y, 'base64url')]);
  const compressed = createECDH('prime256v1').constructor.convertKey(uncompressed, 'prime256v1', undefined, undefined, 'compressed');
  return { privateKey, compressed };
}

// The three ways to verify: the ECDH route alone, and hostCrypto's, over
// digests its sha256 made (node:crypto's verification of the input) and
// over digests it never saw (the ECDH route).
const ways = {
  ecdh: () => ({ verify: verifier(), hash: (data) => createHash('sha256').update(data).digest() }),
  'hostCrypto, hashed by it': () => {
    const c = hostCrypto({ preimages: 4 });
    return { verify: c.verify, hash: c.sha256 };
  },
  'hostCrypto, hashed elsewhere': () => ({ verify: hostCrypto().verify, hash: (data) => createHash('sha256').update(data).digest() }),
};

for (const [name, way] of Object.entries(ways)) {
  test(`${name}: accepts what node:crypto signs and nothing else`, () => checkVerifier(way()));
}

function checkVerifier({ verify, hash }) {
  const { privateKey, compressed } = keyPair();
  const other = keyPair();
  for (let i = 0; i < 50; i++) {
    const data = randomBytes(1 + i);
    const digest = hash(data);
    const sig = sign('sha256', data, { key: privateKey, dsaEncoding: 'ieee-p1363' });
    assert.equal(verify(compressed, digest, sig), true, `signature ${i}`);
    const flipped = Buffer.from(sig);
    flipped[i % 64] ^= 1 << (i % 8);
    assert.equal(verify(compressed, digest, flipped), false, `flipped signature ${i}`);
    const otherDigest = Buffer.from(digest);
    otherDigest[i % 32] ^= 1;
    assert.equal(verify(compressed, otherDigest, sig), false, `other digest ${i}`);
    assert.equal(verify(other.compressed, digest, sig), false, `other key ${i}`);
    // The same x with the other y is a different key.
    const negated = Buffer.from(compressed);
    negated[0] ^= 1;
    assert.equal(verify(negated, digest, sig), false, `negated key ${i}`);
  }
}

test('hostCrypto remembers only what it hashed, the newest first, as copies', () => {
  const c = hostCrypto({ preimages: 2 });
  const { privateKey, compressed } = keyPair();
  const data = Buffer.from('the signed bytes');
  const sig = sign('sha256', data, { key: privateKey, dsaEncoding: 'ieee-p1363' });
  const digest = c.sha256(data);
  data.fill(0); // the module reuses its memory: what was hashed must have been copied
  assert.equal(c.verify(compressed, digest, sig), true, 'over a remembered digest');
  c.sha256(Buffer.from('a')), c.sha256(Buffer.from('b')); // pushes the first out
  assert.equal(c.verify(compressed, digest, sig), true, 'over a forgotten digest, by the ECDH route');
  assert.equal(c.verify(Buffer.alloc(33, 0xff), c.sha256(Buffer.from('c')), sig), false, 'a key off the curve');
});

for (const [name, way] of Object.entries(ways)) {
  test(`${name}: refuses out-of-range signatures and keys`, () => checkRanges(way()));
}

function checkRanges({ verify, hash }) {
  const { compressed } = keyPair();
  const digest = hash(Buffer.from('out of range'));
  const n = Buffer.from('ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551', 'hex');
  const one = Buffer.alloc(32);
  one[31] = 1;
  for (const [name, sig] of [
    ['zero r', Buffer.concat([Buffer.alloc(32), one])],
    ['zero s', Buffer.concat([one, Buffer.alloc(32)])],
    ['r = n', Buffer.concat([n, one])],
    ['s = n', Buffer.concat([one, n])],
  ]) {
    assert.equal(verify(compressed, digest, sig), false, name);
  }
  const offCurve = Buffer.alloc(33, 0xff);
  offCurve[0] = 2;
  assert.equal(verify(offCurve, digest, Buffer.concat([one, one])), false, 'a key off the curve');
}
