// The example of docs/testing.md: a test file of a DID app that starts at a
// fixed chain time, shares a DID published once, and gives every test the
// chain as that left it (a snapshot once, a revert to it after each test).
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, mock, test } from 'node:test';
import { DIDBackend, DIDStore, Mnemonic, RootIdentity, SimulatedIDChainAdapter } from '@elastosfoundation/did-js-sdk';

const node = process.env.DIDLIGHT_RPC_URL ?? 'http://127.0.0.1:20336/';
const storepass = 'guide';
const start = '2026-06-01T00:00:00Z'; // before the file's fixtures expire

// rpc calls one of the node's devnet controls.
async function rpc(method, params) {
  const res = await fetch(node, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const { result, error } = await res.json();
  if (error) throw new Error(`${method}: ${error.message}: ${error.data}`);
  return result;
}

let identity, alice, snapshot;

before(async () => {
  DIDBackend.initialize(new SimulatedIDChainAdapter(node));
  await rpc('dev_reset', { time: start }); // this file's chain begins at `start`
  mock.timers.enable({ apis: ['Date'], now: Date.parse(start) }); // and so does the SDK's clock
  const store = await DIDStore.open(await mkdtemp(join(tmpdir(), 'guide-')));
  identity = await RootIdentity.createFromMnemonic(Mnemonic.getInstance(Mnemonic.ENGLISH).generate(), '', store, storepass, true);
  alice = await identity.newDid(storepass, 0);
  await alice.publish(storepass); // shared by every test of the file
  ({ id: snapshot } = await rpc('dev_snapshot')); // the chain every test starts from
});

afterEach(async () => {
  await rpc('dev_revert', { id: snapshot });
  DIDBackend.getInstance().clearCache(); // the SDK caches what it resolved
});

after(async () => {
  mock.timers.reset();
  await rpc('dev_reset', { time: new Date().toISOString() }); // leave the node at today's time
});

test('a test publishes a DID of its own', async (t) => {
  const bob = await identity.newDid(storepass, 1);
  await bob.publish(storepass);
  assert.ok(await bob.getSubject().resolve(true));
  t.diagnostic(`published ${bob.getSubject()} at height ${(await rpc('getblockcount')) - 1}`);
});

test('the next test finds the chain as the file set it up', async (t) => {
  const bob = identity.getDid(1); // the DID the first test published
  assert.equal(await bob.resolve(true), null);
  assert.ok(await alice.getSubject().resolve(true));
  t.diagnostic(`${bob} is unknown again at height ${(await rpc('getblockcount')) - 1}`);
});

test('a test moves the chain past an expiry', async () => {
  const expires = alice.getExpires();
  await rpc('dev_setNextBlockTime', { time: Math.floor(expires.getTime() / 1000) + 1 });
  await rpc('dev_mine');
  const { status } = await rpc('resolvedid', { did: alice.getSubject().toString() });
  assert.equal(status, 1, 'expired');
});
