// A fixture document that expired before today, published through the
// official SDK on a chain begun before its expiry (/reset?time=), as a test
// suite with such fixtures starts each file. The fixture is the SDK's own
// test vector v2.2/user1 (expires 2026-11-20), with its key. The SDK judges
// expiry by its own clock, which node:test's mock timers set to the chain's.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, mock, test } from 'node:test';
import { DIDBackend, DIDDocument, Exceptions, HDKey } from '@elastosfoundation/did-js-sdk';
import { connect, direct, resolveRaw, rpcURL, storepass } from './sdknode.mjs';
import { assertValid } from './verify.mjs';

const vectors = new URL('../../../../core/internal/vectors/data/elastos-did-sdk/v2.2/', import.meta.url);
const began = '2026-06-01T00:00:00Z';
let store, fixture;

/** reset begins the node's chain anew at time (RFC 3339) and drops the SDK's cache. */
async function reset(time) {
  const res = await fetch(new URL(`/reset?time=${encodeURIComponent(time)}`, rpcURL), { method: 'POST' });
  assert.equal(res.status, 200, `/reset?time=${time}: ${await res.text()}`);
  DIDBackend.getInstance().clearCache();
}

before(async () => {
  ({ store } = await connect());
  const doc = await DIDDocument.parseAsync(readFileSync(new URL('user1.id.json', vectors), 'utf8'));
  await store.storeDid(doc);
  const key = HDKey.deserializeBase58(readFileSync(new URL('user1.id.primary.sk', vectors), 'utf8').trim());
  await store.storePrivateKey(doc.getDefaultPublicKeyId(), key.serialize(), storepass);
  fixture = await store.loadDid(doc.getSubject());
  assert.ok(fixture.getExpires() < new Date(), 'the fixture expired before today');
});

after(async () => {
  mock.timers.reset();
  await reset(new Date().toISOString()); // later files find a chain at today's time
});

test('on a chain begun before its expiry, the expired fixture publishes and resolves valid', async () => {
  await reset(began);
  mock.timers.enable({ apis: ['Date'], now: Date.parse(began) });
  await fixture.publish(storepass);
  const resolved = await fixture.getSubject().resolve(true);
  await assertValid(resolved);
  assert.equal(resolved.toString(true), fixture.toString(true));
  assert.equal((await resolveRaw('resolvedid', fixture.getSubject())).status, 0);
  const genesis = await (await fetch(new URL('block/details/height/0', `${process.env.DIDLIGHT_REST_URL}/`))).json();
  assert.equal(genesis.Result.time, Date.parse(began) / 1000, 'the genesis block carries the time asked for');
});

test('on a chain begun today, the node refuses the expired fixture', async () => {
  mock.timers.reset();
  await reset(new Date().toISOString());
  await assert.rejects(fixture.publish(storepass), Exceptions.DIDExpiredException, 'the SDK itself refuses without force');
  await assert.rejects(fixture.publish(storepass, null, true, direct), (e) => e.rule === 'expired', 'the node refuses what force sends');
  assert.equal((await resolveRaw('resolvedid', fixture.getSubject())).status, 3);
});
